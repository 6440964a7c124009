import type { AssignedNumber, Instance } from '@switchboard/contract';
import { FakeBlueBubbles, PRIVATE_API_ENABLED } from '@switchboard/testing/bluebubbles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, type Switchboard } from '../../src/index';
import { clientFor } from '../support/customers';
import { admin, type SwitchboardServer, startServer } from '../support/switchboard-server';

const MAC = '+14155550100';
const CONTACT = '+14155550111';
const FRIEND = '+14155550133';

let fake: FakeBlueBubbles;
let server: SwitchboardServer;
let client: Switchboard;

beforeAll(async () => {
  fake = new FakeBlueBubbles({ stepMs: 5, switches: PRIVATE_API_ENABLED });
  await fake.start();
  fake.addChat(`iMessage;-;${CONTACT}`, [CONTACT]);
  server = await startServer({ publicPort: true });
  const instance = await admin<Instance>(server.baseUrl, '/admin/v1/instances', {
    name: 'mac',
    provider: 'bluebubbles',
    channels: ['imessage'],
    config: { serverUrl: fake.baseUrl, password: fake.password, address: MAC },
  });
  await admin<AssignedNumber>(server.baseUrl, `/admin/v1/customers/${server.customerId}/numbers`, {
    phoneNumber: MAC,
    instanceId: instance.id,
    isDefault: true,
  });
  client = clientFor(server.baseUrl, server.apiKey);
});
afterAll(async () => {
  await server.close();
  await fake.stop();
});

describe('the SDK against a BlueBubbles instance on the fake Mac', () => {
  it('sends, edits, reacts (emoji included) and unsends an iMessage', async () => {
    const sent = await client.messages.send({ to: CONTACT, content: { text: 'Dinner at 8?' } });
    await expect.poll(async () => (await client.messages.get(sent.id)).status).toBe('read');
    const { externalId } = await client.messages.get(sent.id);
    expect(fake.messages.get(externalId ?? '')?.text).toBe('Dinner at 8?');

    expect((await client.messages.edit(sent.id, { text: 'Dinner at 9?' })).content.text).toBe(
      'Dinner at 9?',
    );
    expect(fake.messages.get(externalId ?? '')?.text).toBe('Dinner at 9?');
    expect(await client.messages.react(sent.id, { type: 'love' })).toEqual({
      messageId: sent.id,
      reaction: 'love',
    });
    // This BlueBubbles Server takes only the classic tapbacks: the SDK gets the reason.
    const refused = await client.messages.react(sent.id, { type: '🎉' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).code).toBe('CHANNEL_NOT_SUPPORTED');
    fake.switches.emojiTapbacks = true;
    fake.switches.serverVersion = '1.10.0';
    expect((await client.messages.react(sent.id, { type: '🎉' })).reaction).toBe('🎉');

    expect((await client.messages.unsend(sent.id)).status).toBe('unsent');
    expect(fake.messages.get(externalId ?? '')?.dateRetracted).not.toBeNull();
  });

  it('runs the group operations through the Private API', async () => {
    const group = await client.chats.createGroup({ participants: [CONTACT, FRIEND], name: 'Team' });
    expect(group.chatId).toMatch(/^iMessage;\+;chat/);
    expect(await client.chats.rename(group.chatId, { name: 'Team (new)' })).toMatchObject({
      name: 'Team (new)',
    });
    expect(fake.chats.get(group.chatId)?.displayName).toBe('Team (new)');
    await client.chats.addParticipant(group.chatId, { participant: '+14155550144' });
    expect(fake.chats.get(group.chatId)?.participants).toContain('+14155550144');
    await client.chats.removeParticipant(group.chatId, '+14155550144');
    expect(fake.chats.get(group.chatId)?.participants).not.toContain('+14155550144');
    expect(await client.chats.markRead(group.chatId)).toMatchObject({ read: true });
    expect(await client.chats.typing(group.chatId, { status: 'start' })).toMatchObject({
      typing: true,
    });
    expect(fake.typing.get(group.chatId)).toBe(true);
    expect(await client.chats.leave(group.chatId)).toMatchObject({ left: true });
    expect(fake.chats.get(group.chatId)?.joined).toBe(false);
  });
});
