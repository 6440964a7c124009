import { randomUUID } from 'node:crypto';
import { isProviderError, type ProviderWebhookRequest } from '@switchboard/provider-kit';
import {
  describeProviderConformance,
  type ProviderEventRecorder,
  providerOperations,
  startIngressRelay,
  startWithRecorder,
} from '@switchboard/testing';
import { FakeBlueBubbles, PRIVATE_API_ENABLED } from '@switchboard/testing/bluebubbles';
import { afterEach, describe, expect, it } from 'vitest';
import { BlueBubblesProvider, type BlueBubblesProviderOptions } from './bluebubbles-provider';

const MAC = '+14155550100';
const CONTACT = '+14155550111';
const NOT_ON_IMESSAGE = '+14155550122';
const GROUP = 'iMessage;+;chat424242';

/** A media host for URL attachments: the gateway's guarded fetch stands behind `fetchMedia`. */
const fetchMedia = async () => ({
  data: new Uint8Array([137, 80, 78, 71]),
  contentType: 'image/png',
});

/** An adapter on the fake Mac: both channels, the Mac's address, `auto` send method. */
function providerOn(
  fake: FakeBlueBubbles,
  overrides: Partial<BlueBubblesProviderOptions> = {},
): BlueBubblesProvider {
  return new BlueBubblesProvider({
    instanceName: 'mac',
    channels: ['imessage', 'sms'],
    serverUrl: fake.baseUrl,
    password: fake.password,
    sendMethod: 'auto',
    address: MAC,
    fetchMedia,
    ...overrides,
  });
}

interface Subject {
  fake: FakeBlueBubbles;
  provider: BlueBubblesProvider;
  webhookUrl: string;
  cleanup: () => Promise<void>;
}

async function subject(
  fake = new FakeBlueBubbles({ stepMs: 5, switches: PRIVATE_API_ENABLED }),
): Promise<Subject> {
  await fake.start();
  fake.notOnIMessage.add(NOT_ON_IMESSAGE);
  fake.addChat(`iMessage;-;${CONTACT}`, [CONTACT]);
  fake.addChat(GROUP, [CONTACT, '+14155550133'], 'Team');
  let provider: BlueBubblesProvider | undefined;
  const relay = await startIngressRelay(() => provider);
  provider = providerOn(fake);
  return {
    fake,
    provider,
    webhookUrl: relay.url,
    cleanup: async () => {
      await relay.close();
      await fake.stop();
    },
  };
}

/** A webhook call as BlueBubbles makes it. */
function call(body: string): ProviderWebhookRequest {
  return {
    method: 'POST',
    url: 'https://gateway.example.com/providers/i/webhook/t',
    headers: { 'content-type': 'application/json' },
    rawBody: Buffer.from(body),
  };
}

let current: Subject | undefined;
describeProviderConformance({
  name: 'bluebubbles',
  channel: 'imessage',
  from: MAC,
  create: async () => {
    // A BlueBubbles Server new enough to take emoji tapbacks (the suite sends one).
    current = await subject(
      new FakeBlueBubbles({
        stepMs: 5,
        switches: { ...PRIVATE_API_ENABLED, emojiTapbacks: true, serverVersion: '1.10.0' },
      }),
    );
    return current;
  },
  recipients: {
    deliverable: CONTACT,
    unreachable: NOT_ON_IMESSAGE,
    groupMembers: [CONTACT, '+14155550144'],
  },
  lifecycle: ['sent', 'delivered', 'read'],
  supports: { edit: true, unsend: true, react: true, typing: true, groups: true },
  ingress: {
    inbound: ({ id, from, text }) => {
      const fake = current?.fake as FakeBlueBubbles;
      if (!fake.messages.has(id)) fake.inbound({ from, text, guid: id, post: false });
      return call(fake.webhookBody('new-message', id));
    },
    forged: ({ id, from, text }) =>
      call(
        JSON.stringify({
          type: 'new-message',
          data: { guid: id, text, handle: { address: from }, isFromMe: false },
        }),
      ),
    status: ({ externalId, status }) => {
      const fake = current?.fake as FakeBlueBubbles;
      if (status === 'delivered') fake.markDelivered(externalId);
      return call(
        fake.webhookBody(status === 'sent' ? 'new-message' : 'updated-message', externalId),
      );
    },
  },
  inbound: {
    'message.inbound': async (_provider, from) => {
      current?.fake.inbound({ from, text: 'Hello from the fake' });
    },
    'message.reaction': async (_provider, from) => {
      const fake = current?.fake as FakeBlueBubbles;
      const target = fake.inbound({ from, text: 'React to me', post: false });
      fake.tapback({ from, target: target.guid, reaction: 'love' });
    },
    'message.changed': async (_provider, from) => {
      const fake = current?.fake as FakeBlueBubbles;
      const target = fake.inbound({ from, text: 'Typo', post: false });
      fake.contactChanges(target.guid, 'Fixed');
    },
    typing: async (_provider, from) => current?.fake.contactTyping(from, true),
    'chat.event': async (_provider, from) => {
      current?.fake.groupChange({
        chatGuid: GROUP,
        actor: from,
        action: 'rename',
        title: 'Renamed',
      });
    },
    'chat.read': async () => current?.fake.chatReadOnMac(GROUP),
    'facetime.incoming': async (_provider, from) => {
      current?.fake.faceTime({ caller: from });
    },
  },
});

describe('the BlueBubbles adapter against its fake', () => {
  let s: Subject;
  let recorder: ProviderEventRecorder;

  const start = async (fake?: FakeBlueBubbles) => {
    s = await subject(fake);
    ({ recorder } = await startWithRecorder(s.provider, undefined, undefined, s.webhookUrl));
  };

  const send = (to: string, overrides: Record<string, unknown> = {}) => {
    const messageId = `msg_${randomUUID()}`;
    return s.provider.send({
      channel: 'imessage',
      from: MAC,
      to: { type: 'address', address: to },
      messageId,
      attempt: 0,
      attemptId: `${messageId}:0:imessage`,
      text: 'Hello',
      ...overrides,
    });
  };

  afterEach(async () => {
    await s.provider.stop();
    await s.cleanup();
  });

  it('registers its ingress URL as a BlueBubbles webhook once, across restarts', async () => {
    await start();
    expect(s.fake.webhookUrls()).toEqual([s.webhookUrl]);
    await s.provider.stop();
    await startWithRecorder(s.provider, undefined, undefined, s.webhookUrl);
    expect(s.fake.webhookUrls()).toEqual([s.webhookUrl]);
  });

  it('sends with the attempt id as tempGuid, through the Private API when its helper is connected', async () => {
    await start();
    const messageId = `msg_${randomUUID()}`;
    const attemptId = `${messageId}:0:imessage`;
    const result = await send(CONTACT, { messageId, attemptId, effect: 'slam' });
    const sent = s.fake.messages.get(result.externalId);
    expect(sent?.expressiveSendStyleId).toBe('com.apple.MobileSMS.expressivesend.impact');
    expect(result.chatId).toBe(`iMessage;-;${CONTACT}`);
    await recorder.waitForStatus(result.externalId, 'read', 5_000);
    const statuses = recorder
      .ofKind('message.status')
      .filter((e) => e.externalId === result.externalId);
    expect(statuses.every((e) => e.attemptId === attemptId)).toBe(true);
  });

  it('starts a chat with a new contact through /chat/new, and keeps Tahoe’s any;-; GUID', async () => {
    const fake = new FakeBlueBubbles({
      stepMs: 5,
      switches: { ...PRIVATE_API_ENABLED, anyGuids: true },
    });
    await start(fake);
    const result = await send('+14155550177');
    expect(result.chatId).toBe('any;-;+14155550177');
    expect(s.fake.calls).toContain('POST /chat/new');
    const again = await send('+14155550177');
    expect(again.chatId).toBe('any;-;+14155550177');
    expect(s.fake.calls.filter((c) => c === 'POST /chat/new')).toHaveLength(1);
  });

  it('sends to an e-mail address and into a group by its GUID', async () => {
    await start();
    const email = await send('friend@icloud.com');
    expect(email.chatId).toBe('iMessage;-;friend@icloud.com');
    const messageId = `msg_${randomUUID()}`;
    const group = await s.provider.send({
      channel: 'imessage',
      from: MAC,
      to: { type: 'chat', chatId: GROUP },
      messageId,
      attempt: 0,
      attemptId: `${messageId}:0:imessage`,
      text: 'Hi all',
    });
    expect(s.fake.messages.get(group.externalId)?.chatGuid).toBe(GROUP);
  });

  it('sends text with files as one multipart message, and a voice memo as an audio message', async () => {
    await start();
    const gallery = await send(CONTACT, {
      text: 'Photos',
      attachments: [
        {
          source: { kind: 'bytes', data: new Uint8Array([1, 2]) },
          mimeType: 'image/png',
          filename: 'a.png',
        },
        { source: { kind: 'url', url: 'https://cdn.example.com/b.png' }, mimeType: 'image/png' },
      ],
    });
    const message = s.fake.messages.get(gallery.externalId);
    expect(message?.partCount).toBe(3);
    expect(message?.attachments.map((a) => a.transferName)).toEqual(['a.png', 'b.png']);
    const memo = await send(CONTACT, {
      text: '',
      attachments: [
        {
          source: { kind: 'bytes', data: new Uint8Array([0, 1]) },
          mimeType: 'audio/x-caf',
          filename: 'memo.caf',
          isAudioMessage: true,
        },
      ],
    });
    expect(s.fake.messages.get(memo.externalId)?.isAudioMessage).toBe(true);
  });

  it('without the Private API sends text and files as separate messages, and refuses effects with a reason', async () => {
    const fake = new FakeBlueBubbles({ stepMs: 5, switches: { privateApi: false } });
    await start(fake);
    const split = await send(CONTACT, {
      text: 'Photo',
      attachments: [
        { source: { kind: 'bytes', data: new Uint8Array([1]) }, mimeType: 'image/png' },
      ],
    });
    expect(split.parts?.map((p) => p.kind)).toEqual(['text', 'attachment']);
    const error = await send(CONTACT, { effect: 'confetti' }).catch((e: unknown) => e);
    expect(isProviderError(error) && error.code).toBe('IMESSAGE_SEND_FAILED');
    expect(String((error as Error).message)).toMatch(/Private API is disabled/);
    // AppleScript would send a voice memo as a plain file: refused with the reason instead.
    const memo = await send(CONTACT, {
      text: '',
      attachments: [
        {
          source: { kind: 'bytes', data: new Uint8Array([0, 1]) },
          mimeType: 'audio/mpeg',
          filename: 'memo.mp3',
          isAudioMessage: true,
        },
      ],
    }).catch((e: unknown) => e);
    expect(isProviderError(memo) && memo.code).toBe('IMESSAGE_SEND_FAILED');
    expect(isProviderError(memo) && memo.fallback).toBe(true);
    expect(String((memo as Error).message)).toMatch(/voice memos need the BlueBubbles Private API/);
  });

  it('a send that hangs and answers 500 although delivered is matched, never sent again', async () => {
    await start();
    s.fake.faults.hangingSends = { count: 1, delayMs: 200 };
    const messageId = `msg_${randomUUID()}`;
    const request = { messageId, attemptId: `${messageId}:0:imessage`, text: 'Slow one' };
    const result = await send(CONTACT, request);
    const again = await send(CONTACT, request);
    expect(again.externalId).toBe(result.externalId);
    expect(s.fake.sent().filter((m) => m.text === 'Slow one')).toHaveLength(1);
  });

  it('reports a recipient iMessage cannot reach as unreachable (fallback to sms)', async () => {
    await start();
    const error = await send(NOT_ON_IMESSAGE).catch((e: unknown) => e);
    expect(isProviderError(error) && error.code).toBe('NO_CHANNEL_AVAILABLE');
  });

  it('gates edits, unsends and tapbacks on the Private API and macOS, with the reason', async () => {
    const fake = new FakeBlueBubbles({
      stepMs: 5,
      switches: { ...PRIVATE_API_ENABLED, macOsVersion: '12.7.4' },
    });
    await start(fake);
    const { externalId } = await send(CONTACT);
    const message = {
      externalId,
      conversation: { type: 'address' as const, address: CONTACT },
      fromMe: true,
    };
    const base = { channel: 'imessage' as const, from: MAC, message };
    const edit = await providerOperations(s.provider)
      .edit({ ...base, text: 'x' })
      .catch((e: unknown) => e);
    expect(isProviderError(edit) && edit.code).toBe('CHANNEL_NOT_SUPPORTED');
    expect((edit as Error).message).toMatch(/macOS 13 or newer; this Mac runs macOS 12.7.4/);
    const emoji = await providerOperations(s.provider)
      .react({ ...base, reaction: { type: 'emoji', emoji: '🎉' }, remove: false })
      .catch((e: unknown) => e);
    expect((emoji as Error).message).toMatch(/macOS 14 or newer/);
    await expect(
      providerOperations(s.provider).react({ ...base, reaction: { type: 'love' }, remove: false }),
    ).resolves.toBeUndefined();
    s.fake.switches.helperConnected = false;
    s.fake.switches.macOsVersion = '14.6.1';
    const fresh = providerOn(s.fake, { instanceName: 'mac2' });
    await startWithRecorder(fresh);
    const typing = await providerOperations(fresh)
      .typing({
        channel: 'imessage',
        from: MAC,
        to: { type: 'address', address: CONTACT },
        status: 'start',
      })
      .catch((e: unknown) => e);
    expect(isProviderError(typing) && typing.code).toBe('CHANNEL_NOT_SUPPORTED');
    expect((typing as Error).message).toMatch(/helper is not connected/);
    await fresh.stop();
  });

  it('sends emoji tapbacks on macOS 14 when the server takes them, and says why when it does not', async () => {
    await start();
    const { externalId } = await send(CONTACT);
    const message = {
      externalId,
      conversation: { type: 'address' as const, address: CONTACT },
      fromMe: true,
    };
    const react = () =>
      providerOperations(s.provider).react({
        channel: 'imessage',
        from: MAC,
        message,
        reaction: { type: 'emoji', emoji: '🎉' },
        remove: false,
      });
    const old = await react().catch((e: unknown) => e);
    expect(isProviderError(old) && old.code).toBe('CHANNEL_NOT_SUPPORTED');
    expect((old as Error).message).toMatch(/only the six classic tapbacks/);
    // A server that takes them says so by its version: 1.9.9 is not even asked.
    s.fake.switches.emojiTapbacks = true;
    expect(isProviderError(await react().catch((e: unknown) => e))).toBe(true);
    expect(s.fake.calls.filter((call) => call === 'POST /message/react')).toEqual([]);
    s.fake.switches.serverVersion = '1.10.0';
    await expect(react()).resolves.toBeUndefined();
  });

  it('carries inbound emoji tapbacks, strips p:0/ prefixes, and turns stickers into replies', async () => {
    await start();
    const target = s.fake.inbound({ from: CONTACT, text: 'Party?', post: false });
    s.fake.tapback({
      from: CONTACT,
      target: target.guid,
      reaction: '2006',
      text: 'Reacted 🎉 to “Party?”',
    });
    const reaction = await recorder.waitFor((e) => e.kind === 'message.reaction', 5_000);
    expect(reaction).toMatchObject({
      reaction: { type: 'emoji', emoji: '🎉' },
      removed: false,
      targetExternalId: target.guid,
    });
    const sticker = s.fake.inbound({
      from: CONTACT,
      associatedMessageGuid: `p:0/${target.guid}`,
      associatedMessageType: 'sticker',
      attachments: [
        {
          mimeType: 'image/png',
          name: 'sticker.png',
          data: new Uint8Array([137, 80]),
          isSticker: true,
        },
      ],
    });
    const reply = await recorder.waitFor(
      (e) => e.kind === 'message.inbound' && e.externalId === sticker.guid,
      5_000,
    );
    expect(reply).toMatchObject({
      replyToExternalId: target.guid,
      attachments: [{ mimeType: 'image/png', filename: 'sticker.png' }],
    });
  });

  it('reports messages typed on the Mac as device messages, and its own sends as statuses only', async () => {
    await start();
    const typed = s.fake.deviceSend({ to: CONTACT, text: 'From the Mac' });
    const device = await recorder.waitFor(
      (e) => e.kind === 'message.inbound' && e.externalId === typed.guid,
      5_000,
    );
    expect(device).toMatchObject({ fromMe: true, from: MAC, to: CONTACT });
    const { externalId } = await send(CONTACT);
    await recorder.waitForStatus(externalId, 'read', 5_000);
    expect(
      recorder.events.some((e) => e.kind === 'message.inbound' && e.externalId === externalId),
    ).toBe(false);
  });

  it('resolves a group member whose handle ROWID lies past the first 1,000 handles', async () => {
    await start();
    // A Mac with a long history: 1,000 handles before the new member's (handle/query caps a page
    // at 1,000, bluebubbles-server@f2e2286 handleValidator.ts limit max:1000).
    const many = Array.from({ length: 1_000 }, (_, i) => `+1415600${String(i).padStart(4, '0')}`);
    s.fake.addChat('iMessage;+;chatlonghistory', many);
    s.fake.groupChange({
      chatGuid: GROUP,
      actor: CONTACT,
      action: 'add',
      participant: '+14155550999',
    });
    const added = await recorder.waitFor((e) => e.kind === 'chat.event', 5_000);
    expect(added).toMatchObject({ action: 'participant.added', participant: '+14155550999' });
  });

  it('downloads inbound attachments from the Mac and resolves group members given as ROWIDs', async () => {
    await start();
    s.fake.inbound({
      from: CONTACT,
      attachments: [
        { mimeType: 'image/jpeg', name: 'IMG_1.jpg', data: new Uint8Array([255, 216, 255]) },
      ],
    });
    const inbound = await recorder.waitFor(
      (e) => e.kind === 'message.inbound' && e.attachments.length > 0,
      5_000,
    );
    if (inbound.kind !== 'message.inbound') throw new Error('not inbound');
    expect(inbound.attachments[0]).toMatchObject({
      mimeType: 'image/jpeg',
      filename: 'IMG_1.jpg',
      content: { kind: 'bytes', data: new Uint8Array([255, 216, 255]) },
    });
    s.fake.groupChange({
      chatGuid: GROUP,
      actor: CONTACT,
      action: 'add',
      participant: '+14155550199',
    });
    const added = await recorder.waitFor((e) => e.kind === 'chat.event', 5_000);
    expect(added).toMatchObject({
      action: 'participant.added',
      participant: '+14155550199',
      chatId: GROUP,
    });
  });

  it('reports a FaceTime ring posted as a JSON string (FaceTime Calling off, the default)', async () => {
    await start();
    s.fake.faceTime({ caller: CONTACT, isVideo: false });
    const incoming = await recorder.waitFor((e) => e.kind === 'facetime.incoming', 5_000);
    expect(incoming).toMatchObject({ caller: CONTACT, isVideo: true, to: MAC });
    expect(recorder.ofKind('facetime.status')).toEqual([]);
  });

  it('reports FaceTime Calling’s call statuses: the ring once, then the end', async () => {
    await start();
    s.fake.switches.faceTimeCalling = true;
    const uuid = s.fake.faceTime({
      caller: CONTACT,
      isVideo: false,
      statuses: ['incoming', 'answered', 'disconnected'],
    });
    const incoming = await recorder.waitFor((e) => e.kind === 'facetime.incoming', 5_000);
    expect(incoming).toMatchObject({ callUuid: uuid, caller: CONTACT, isVideo: false, to: MAC });
    await recorder.waitFor(
      (e) => e.kind === 'facetime.status' && e.status === 'disconnected',
      5_000,
    );
    const statuses = recorder.ofKind('facetime.status').map((e) => e.status);
    expect(statuses).toEqual(['disconnected']);
  });

  it('finds lost webhooks by reconciliation, and reports duplicates and a week-long replay once, under the message GUID', async () => {
    await start();
    s.fake.faults.loseWebhooks = 1;
    const lost = s.fake.inbound({ from: CONTACT, text: 'Nobody told you' });
    expect(await s.provider.reconcile()).toBeGreaterThan(0);
    expect(
      recorder.events.some((e) => e.kind === 'message.inbound' && e.externalId === lost.guid),
    ).toBe(true);
    s.fake.faults.duplicateWebhooks = true;
    s.fake.inbound({ from: CONTACT, text: 'Twice' });
    s.fake.replayWeek();
    await s.fake.settled();
    const posted = s.fake.webhookCalls.filter((c) => c.type === 'new-message').length;
    const inbound = recorder.events.filter((e) => e.kind === 'message.inbound');
    expect(posted).toBeGreaterThan(inbound.length);
    // Every repeat carries the id of the first: the gateway keeps each id 30 days and drops them.
    expect(
      inbound.every((e) => e.upstreamEventId === (e.kind === 'message.inbound' && e.externalId)),
    ).toBe(true);
    expect(inbound.length).toBe(new Set(inbound.map((e) => e.upstreamEventId)).size);
  });

  it('reports health with the spec’s warnings, which clear when the condition goes', async () => {
    const fake = new FakeBlueBubbles({
      stepMs: 5,
      switches: { ...PRIVATE_API_ENABLED, detectedICloud: null },
    });
    await start(fake);
    s.fake.switches.helperConnected = false;
    const degraded = await s.provider.health();
    expect(degraded.status).toBe('degraded');
    expect(degraded.warnings.map((w) => w.code)).toEqual([
      'private_api_helper_disconnected',
      'icloud_account_missing',
    ]);
    s.fake.switches.helperConnected = true;
    s.fake.switches.detectedICloud = 'mac@icloud.com';
    expect(await s.provider.health()).toMatchObject({ status: 'healthy', warnings: [] });
    s.fake.switches.privateApi = false;
    expect((await s.provider.health()).warnings.map((w) => w.code)).toEqual([
      'private_api_disabled',
    ]);
  });

  it('is unhealthy with a wrong password', async () => {
    await start();
    const wrong = providerOn(s.fake, { instanceName: 'wrong', password: 'not-it' });
    await startWithRecorder(wrong);
    expect((await wrong.health()).warnings.map((w) => w.code)).toEqual(['credentials_rejected']);
    await wrong.stop();
  });

  it('keeps the sink’s order when the delivered update arrives before the new message', async () => {
    await start();
    s.fake.faults.outOfOrder = true;
    const { externalId } = await send(CONTACT);
    await recorder.waitForStatus(externalId, 'read', 5_000);
    expect(new Set(recorder.statusesOf(externalId))).toEqual(
      new Set(['sent', 'delivered', 'read']),
    );
  });
});
