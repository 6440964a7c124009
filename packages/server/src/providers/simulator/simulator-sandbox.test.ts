import { randomUUID } from 'node:crypto';
import type { Channel } from '@switchboard/contract';
import { isProviderError } from '@switchboard/provider-kit';
import { ManualTimerClock, startWithRecorder } from '@switchboard/testing';
import { describe, expect, it } from 'vitest';
import { SimulatorProvider } from './simulator-provider';

const INSTANCE = '+14155550999';
const CONTACT = '+14155550100';

async function startSimulator(channels?: readonly Channel[]) {
  const clock = new ManualTimerClock();
  const provider = new SimulatorProvider({
    instanceName: 'sandbox',
    stepMs: 500,
    clock,
    ...(channels ? { channels } : {}),
  });
  const { recorder } = await startWithRecorder(provider);
  return { clock, provider, recorder, sandbox: provider.sandbox };
}

async function rejection(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return isProviderError(error) ? error.code : `not a ProviderError: ${String(error)}`;
  }
  return undefined;
}

async function sendAndWait(
  world: Awaited<ReturnType<typeof startSimulator>>,
  channel: Channel,
  address: string,
  text: string,
  steps = 1,
): Promise<string> {
  const messageId = `msg_${randomUUID()}`;
  const { externalId } = await world.provider.send({
    channel,
    from: INSTANCE,
    to: { type: 'address', address },
    messageId,
    attempt: 0,
    attemptId: `${messageId}:0:${channel}`,
    text,
  });
  await world.clock.advance(500 * steps);
  return externalId;
}

describe('the simulator sandbox', () => {
  describe('inbound messages', () => {
    it('delivers text and byte attachments on imessage, with attachment GUIDs', async () => {
      const { sandbox, recorder, provider } = await startSimulator();
      const data = new TextEncoder().encode('%PDF-1.7 fake');
      const { externalId } = await sandbox.injectInbound({
        channel: 'imessage',
        from: CONTACT,
        to: INSTANCE,
        text: 'Here is the contract',
        attachments: [
          { content: { kind: 'bytes', data }, mimeType: 'application/pdf', filename: 'c.pdf' },
        ],
      });
      const [event] = recorder.ofKind('message.inbound');
      expect(event).toMatchObject({
        kind: 'message.inbound',
        channel: 'imessage',
        externalId,
        from: CONTACT,
        to: INSTANCE,
        isGroup: false,
        text: 'Here is the contract',
      });
      expect(event?.occurredAt).toBeInstanceOf(Date);
      expect(event?.attachments).toEqual([
        {
          providerId: expect.stringMatching(/^at_0_[0-9A-F-]{36}$/),
          mimeType: 'application/pdf',
          filename: 'c.pdf',
          totalBytes: data.byteLength,
          content: { kind: 'bytes', data },
        },
      ]);
      await provider.stop();
    });

    it('passes URL attachments through for the gateway to fetch, without GUIDs off imessage', async () => {
      const { sandbox, recorder, provider } = await startSimulator();
      await sandbox.injectInbound({
        channel: 'whatsapp',
        from: '+14155550160',
        to: INSTANCE,
        chatId: '120363000000000001@g.us',
        replyToExternalId: '3EB0ABCDEF',
        senderName: 'Maya',
        attachments: [
          { content: { kind: 'url', url: 'https://example.com/cat.jpg' }, mimeType: 'image/jpeg' },
        ],
      });
      const [event] = recorder.ofKind('message.inbound');
      expect(event).toMatchObject({
        text: '',
        isGroup: true,
        chatId: '120363000000000001@g.us',
        replyToExternalId: '3EB0ABCDEF',
        senderName: 'Maya',
        attachments: [
          { mimeType: 'image/jpeg', content: { kind: 'url', url: 'https://example.com/cat.jpg' } },
        ],
      });
      expect(event?.attachments[0]).not.toHaveProperty('providerId');
      await provider.stop();
    });

    it('refuses a channel the instance does not serve', async () => {
      const { sandbox, provider } = await startSimulator(['imessage']);
      expect(
        await rejection(
          sandbox.injectInbound({ channel: 'whatsapp', from: CONTACT, to: INSTANCE, text: 'hi' }),
        ),
      ).toBe('CHANNEL_NOT_SUPPORTED');
      await provider.stop();
    });
  });

  describe('reactions', () => {
    it('reports tapbacks, emoji and removals on imessage and whatsapp', async () => {
      const { sandbox, recorder, provider } = await startSimulator();
      await sandbox.injectReaction({
        channel: 'imessage',
        from: CONTACT,
        to: INSTANCE,
        targetExternalId: 'GUID-1',
        reaction: { type: 'love' },
      });
      await sandbox.injectReaction({
        channel: 'whatsapp',
        from: '+14155550160',
        to: INSTANCE,
        targetExternalId: '3EB0AA',
        reaction: { type: 'emoji', emoji: '🔥' },
        remove: true,
      });
      expect(recorder.ofKind('message.reaction')).toMatchObject([
        {
          channel: 'imessage',
          targetExternalId: 'GUID-1',
          reaction: { type: 'love' },
          removed: false,
        },
        {
          channel: 'whatsapp',
          targetExternalId: '3EB0AA',
          reaction: { type: 'emoji', emoji: '🔥' },
          removed: true,
        },
      ]);
      await provider.stop();
    });

    it('turns an sms reaction into the inbound text an iPhone sends', async () => {
      const world = await startSimulator();
      const externalId = await sendAndWait(world, 'sms', '+14155550110', 'Dinner at 8?');
      await world.sandbox.injectReaction({
        channel: 'sms',
        from: '+14155550110',
        to: INSTANCE,
        targetExternalId: externalId,
        reaction: { type: 'love' },
      });
      await world.sandbox.injectReaction({
        channel: 'sms',
        from: '+14155550110',
        to: INSTANCE,
        targetExternalId: 'UNKNOWN',
        reaction: { type: 'laugh' },
      });
      expect(world.recorder.ofKind('message.reaction')).toEqual([]);
      expect(world.recorder.ofKind('message.inbound').map((event) => event.text)).toEqual([
        'Loved “Dinner at 8?”',
        'Laughed at a message',
      ]);
      await world.provider.stop();
    });
  });

  describe('receipts and statuses', () => {
    it('reads a Focus-mode message that would never be read on its own', async () => {
      const world = await startSimulator();
      const externalId = await sendAndWait(world, 'imessage', '+14155550150', 'Hi', 5);
      expect(world.recorder.statusesOf(externalId)).toEqual(['sent', 'delivered']);
      await world.sandbox.injectReadReceipt({ channel: 'imessage', externalId });
      expect(world.recorder.statusesOf(externalId)).toEqual(['sent', 'delivered', 'read']);
      await world.provider.stop();
    });

    it('drops the pending steps a sandbox status overtakes', async () => {
      const world = await startSimulator();
      const externalId = await sendAndWait(world, 'imessage', '+14155550100', 'Hi', 1);
      await world.sandbox.injectReadReceipt({ channel: 'imessage', externalId });
      await world.clock.advance(5_000);
      expect(world.recorder.statusesOf(externalId)).toEqual(['sent', 'read']);
      await world.provider.stop();
    });

    it('fails a sent message late, with a spec error code, and stops its lifecycle', async () => {
      const world = await startSimulator();
      const externalId = await sendAndWait(world, 'sms', '+14155550110', 'Hi', 1);
      await world.sandbox.injectStatus({ channel: 'sms', externalId, status: 'failed' });
      await world.clock.advance(5_000);
      expect(world.recorder.statusesOf(externalId)).toEqual(['sent', 'failed']);
      const failed = world.recorder.ofKind('message.status').at(-1);
      expect(failed).toMatchObject({
        status: 'failed',
        error: { code: 'IMESSAGE_SEND_FAILED' },
        attemptId: expect.any(String),
      });
      await world.provider.stop();
    });

    it('has no read receipts on sms', async () => {
      const { sandbox, provider } = await startSimulator();
      expect(
        await rejection(sandbox.injectReadReceipt({ channel: 'sms', externalId: 'SM1' })),
      ).toBe('CHANNEL_NOT_SUPPORTED');
      await provider.stop();
    });
  });

  it('reports typing on imessage and whatsapp, not on sms', async () => {
    const { sandbox, recorder, provider } = await startSimulator();
    await sandbox.injectTyping({
      channel: 'whatsapp',
      from: '+14155550160',
      to: INSTANCE,
      status: 'start',
    });
    await sandbox.injectTyping({
      channel: 'whatsapp',
      from: '+14155550160',
      to: INSTANCE,
      status: 'stop',
    });
    expect(recorder.ofKind('typing').map((event) => event.status)).toEqual(['start', 'stop']);
    expect(
      await rejection(
        sandbox.injectTyping({ channel: 'sms', from: CONTACT, to: INSTANCE, status: 'start' }),
      ),
    ).toBe('CHANNEL_NOT_SUPPORTED');
    await provider.stop();
  });

  it('reports a kept voice message', async () => {
    const { sandbox, recorder, provider } = await startSimulator();
    const { externalId } = await sandbox.injectAudioKept({
      from: CONTACT,
      to: INSTANCE,
      targetExternalId: 'AUDIO-GUID',
    });
    expect(recorder.ofKind('message.audio_kept')).toMatchObject([
      {
        channel: 'imessage',
        externalId,
        from: CONTACT,
        to: INSTANCE,
        targetExternalId: 'AUDIO-GUID',
      },
    ]);
    await provider.stop();
  });

  describe('group events', () => {
    it('reports every change and applies it to the group', async () => {
      const { sandbox, recorder, provider } = await startSimulator();
      const chat = await provider.createGroup({
        channel: 'imessage',
        from: INSTANCE,
        participants: [CONTACT],
        name: 'Crew',
      });
      const group = {
        channel: 'imessage' as const,
        chatId: chat.chatId,
        actor: CONTACT,
        to: INSTANCE,
      };
      await sandbox.injectGroupEvent({
        ...group,
        action: 'participant.added',
        participant: '+14155550101',
      });
      await sandbox.injectGroupEvent({ ...group, action: 'title.changed', title: 'Crew 2' });
      await sandbox.injectGroupEvent({
        ...group,
        action: 'participant.left',
        participant: CONTACT,
      });
      await sandbox.injectGroupEvent({ ...group, action: 'photo.changed' });
      expect(recorder.ofKind('chat.event')).toMatchObject([
        { action: 'participant.added', participant: '+14155550101', chatId: chat.chatId },
        { action: 'title.changed', title: 'Crew 2' },
        { action: 'participant.left', participant: CONTACT },
        { action: 'photo.changed' },
      ]);
      const known = await provider.getChat({
        channel: 'imessage',
        from: INSTANCE,
        chatId: chat.chatId,
      });
      expect(known).toMatchObject({ name: 'Crew 2', participants: [{ handle: '+14155550101' }] });
      await provider.stop();
    });

    it('resolves an @lid member to a phone JID', async () => {
      const { sandbox, recorder, provider } = await startSimulator();
      const chat = await provider.createGroup({
        channel: 'whatsapp',
        from: INSTANCE,
        participants: ['+14155550160'],
        name: 'Launch',
      });
      const lid = '123456789012345@lid';
      await sandbox.injectGroupEvent({
        channel: 'whatsapp',
        chatId: chat.chatId,
        actor: '14155550160@s.whatsapp.net',
        to: INSTANCE,
        action: 'participant.added',
        participant: lid,
      });
      const before = await provider.getChat({
        channel: 'whatsapp',
        from: INSTANCE,
        chatId: chat.chatId,
      });
      expect(before?.participants).toContainEqual({
        handle: lid,
        isPhoneResolved: false,
        admin: null,
      });
      const { jid } = await sandbox.resolveLid({
        phoneNumber: INSTANCE,
        lid,
        phone: '+14155550161',
      });
      expect(jid).toBe('14155550161@s.whatsapp.net');
      expect(recorder.ofKind('whatsapp.lid_resolved')).toMatchObject([
        { phoneNumber: INSTANCE, lid, jid },
      ]);
      const after = await provider.getChat({
        channel: 'whatsapp',
        from: INSTANCE,
        chatId: chat.chatId,
      });
      expect(after?.participants).toContainEqual({
        handle: jid,
        isPhoneResolved: true,
        admin: null,
      });
      expect(after?.participants.some((member) => member.handle === lid)).toBe(false);
      expect(
        await rejection(sandbox.resolveLid({ phoneNumber: INSTANCE, lid: 'nope', phone: '+1415' })),
      ).toBe('VALIDATION_ERROR');
      await provider.stop();
    });
  });

  describe('FaceTime', () => {
    it('rings, then reports each status change until the call ends', async () => {
      const { sandbox, recorder, provider } = await startSimulator();
      const { callUuid } = await sandbox.injectFaceTimeCall({ caller: CONTACT, to: INSTANCE });
      await sandbox.injectFaceTimeStatus({ callUuid, status: 'answered' });
      await sandbox.injectFaceTimeStatus({ callUuid, status: 'disconnected' });
      expect(recorder.ofKind('facetime.incoming')).toMatchObject([
        { callUuid, caller: CONTACT, to: INSTANCE, isVideo: true, channel: 'imessage' },
      ]);
      expect(recorder.ofKind('facetime.status')).toMatchObject([
        { callUuid, address: CONTACT, status: 'answered', isOutgoing: false, isVideo: true },
        { callUuid, status: 'disconnected' },
      ]);
      expect(await rejection(sandbox.injectFaceTimeStatus({ callUuid, status: 'answered' }))).toBe(
        'INVALID_STATUS',
      );
      expect(
        await rejection(sandbox.injectFaceTimeStatus({ callUuid: 'nope', status: 'missed' })),
      ).toBe('NOT_FOUND');
      await provider.stop();
    });

    it('places audio calls too', async () => {
      const { sandbox, recorder, provider } = await startSimulator();
      await sandbox.injectFaceTimeCall({ caller: CONTACT, to: INSTANCE, isVideo: false });
      expect(recorder.ofKind('facetime.incoming')[0]?.isVideo).toBe(false);
      await provider.stop();
    });
  });

  it('degrades health on demand, and clears it', async () => {
    const { sandbox, provider } = await startSimulator();
    sandbox.setHealth({
      status: 'degraded',
      warnings: [{ code: 'private_api_disabled', message: 'Private API disabled' }],
    });
    expect(await provider.health()).toMatchObject({
      status: 'degraded',
      warnings: [{ code: 'private_api_disabled' }],
    });
    sandbox.setHealth(null);
    expect(await provider.health()).toMatchObject({ status: 'healthy', warnings: [] });
    await provider.stop();
  });

  it('refuses to act before the simulator starts', async () => {
    const provider = new SimulatorProvider({ instanceName: 'idle', stepMs: 0 });
    expect(
      await rejection(
        provider.sandbox.injectInbound({ channel: 'sms', from: CONTACT, to: INSTANCE, text: 'x' }),
      ),
    ).toBe('INTERNAL_ERROR');
  });
});
