import { randomUUID } from 'node:crypto';
import type { Channel } from '@switchboard/contract';
import type { MessagingProvider, ProviderSendRequest } from '@switchboard/provider-kit';
import { isProviderError } from '@switchboard/provider-kit';
import {
  describeProviderConformance,
  ManualTimerClock,
  type ProviderConformanceIngress,
  type ProviderConformanceOptions,
  ProviderEventRecorder,
  providerOperations,
  startWithRecorder,
} from '@switchboard/testing';
import { describe, expect, it } from 'vitest';
import { SIMULATOR_SIGNATURE_HEADER, signSimulatorCall } from './simulator-ingress';
import { SimulatorProvider } from './simulator-provider';

const FROM = '+14155550999';

const INGRESS_SECRET = 'conformance-ingress-secret';

/** A simulator serving only `channel`, stepping as fast as it can on the real clock. */
function simulatorFor(channel: Channel) {
  return () => ({
    provider: new SimulatorProvider({
      instanceName: `sim-${channel}`,
      channels: [channel],
      stepMs: 0,
      ingressSecret: INGRESS_SECRET,
    }),
  });
}

/** How the simulated world makes each kind of inbound event happen on `channel`. */
function simulatedInbound(channel: Channel): NonNullable<ProviderConformanceOptions['inbound']> {
  const sandbox = (provider: MessagingProvider) => (provider as SimulatorProvider).sandbox;
  return {
    'message.inbound': async (provider, from) => {
      await sandbox(provider).injectInbound({
        channel,
        from,
        to: FROM,
        text: 'with a photo',
        attachments: [
          {
            content: { kind: 'bytes', data: new Uint8Array([137, 80, 78, 71]) },
            mimeType: 'image/png',
            filename: 'p.png',
          },
        ],
      });
    },
    ...(channel === 'sms'
      ? {}
      : {
          'message.reaction': async (provider: MessagingProvider, from: string) => {
            const { externalId } = await provider.send({
              channel,
              from: FROM,
              to: { type: 'address', address: from },
              messageId: 'msg_reaction_target',
              attempt: 0,
              attemptId: `msg_reaction_target:0:${channel}`,
              text: 'react to me',
            });
            await sandbox(provider).injectReaction({
              channel,
              from,
              to: FROM,
              targetExternalId: externalId,
              reaction: { type: 'love' },
            });
          },
        }),
    ...(channel === 'whatsapp'
      ? {
          typing: async (provider: MessagingProvider, from: string) => {
            await sandbox(provider).injectTyping({ channel, from, to: FROM, status: 'start' });
          },
        }
      : {}),
  };
}

/** Calls of the simulated upstream, signed as it signs them. */
function simulatedUpstream(channel: Channel): ProviderConformanceIngress {
  const request = (body: object, secret = INGRESS_SECRET) => {
    const raw = JSON.stringify(body);
    return {
      method: 'POST',
      url: 'http://127.0.0.1/providers/x/webhook/y',
      headers: {
        'content-type': 'application/json',
        [SIMULATOR_SIGNATURE_HEADER]: signSimulatorCall(secret, raw),
      },
      rawBody: Buffer.from(raw),
    };
  };
  return {
    inbound: ({ id, from, text }) =>
      request({ id, type: 'message.inbound', channel, from, to: FROM, text }),
    forged: ({ id, from, text }) =>
      request({ id, type: 'message.inbound', channel, from, to: FROM, text }, 'not-the-secret'),
    status: ({ id, externalId, status }) =>
      request({ id, type: 'message.status', channel, externalId, status }),
  };
}

describeProviderConformance({
  name: 'simulator',
  channel: 'imessage',
  from: FROM,
  create: simulatorFor('imessage'),
  recipients: {
    deliverable: '+14155550100',
    unreachable: '+14155550110',
    failing: '+14155550130',
    editFailures: [
      { address: '+14155550170', code: 'EDIT_FAILED' },
      { address: '+14155550175', code: 'PROVIDER_TIMEOUT' },
    ],
  },
  lifecycle: ['sent', 'delivered', 'read'],
  supports: { edit: true, unsend: true, react: true, typing: true, groups: true },
  ingress: simulatedUpstream('imessage'),
  inbound: simulatedInbound('imessage'),
});

describeProviderConformance({
  name: 'simulator',
  channel: 'sms',
  from: FROM,
  create: simulatorFor('sms'),
  recipients: {
    deliverable: '+14155550110',
    unreachable: '+14155550140',
    failing: '+14155550130',
  },
  lifecycle: ['sent', 'delivered'],
  supports: { edit: false, unsend: false, react: false, typing: false },
  ingress: simulatedUpstream('sms'),
  inbound: simulatedInbound('sms'),
});

describeProviderConformance({
  name: 'simulator',
  channel: 'whatsapp',
  from: FROM,
  create: simulatorFor('whatsapp'),
  recipients: { deliverable: '+14155550160', unreachable: '+14155550100' },
  lifecycle: ['sent', 'delivered', 'read'],
  supports: { edit: false, unsend: false, react: true, typing: true, groups: true },
  inbound: simulatedInbound('whatsapp'),
  whatsapp: {
    phoneNumber: FROM,
    link: async (provider, phoneNumber) => {
      await (provider as SimulatorProvider).sandbox.scanWhatsAppQr(phoneNumber);
    },
  },
});

async function startSimulator(channels?: readonly Channel[], rememberedMessages?: number) {
  const clock = new ManualTimerClock();
  const provider = new SimulatorProvider({
    instanceName: 'sim',
    stepMs: 500,
    clock,
    ...(channels ? { channels } : {}),
    ...(rememberedMessages === undefined ? {} : { rememberedMessages }),
  });
  const { recorder } = await startWithRecorder(provider);
  return { clock, provider, recorder };
}

function sendTo(channel: Channel, address: string): ProviderSendRequest {
  const messageId = `msg_${randomUUID()}`;
  return {
    channel,
    from: FROM,
    to: { type: 'address', address },
    messageId,
    attempt: 0,
    attemptId: `${messageId}:0:${channel}`,
    text: 'Hello',
  };
}

async function rejection(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return isProviderError(error) ? error.code : `not a ProviderError: ${String(error)}`;
  }
  return undefined;
}

describe('SimulatorProvider', () => {
  it('refuses every operation before start', async () => {
    const provider = new SimulatorProvider({ instanceName: 'idle', stepMs: 0 });
    expect(await rejection(provider.send(sendTo('imessage', '+14155550100')))).toBe(
      'INTERNAL_ERROR',
    );
  });

  it('answers the provider chat id of a direct send on imessage and whatsapp, none on sms', async () => {
    const { provider } = await startSimulator();
    expect((await provider.send(sendTo('imessage', '+14155550100'))).chatId).toBe(
      'iMessage;-;+14155550100',
    );
    expect((await provider.send(sendTo('whatsapp', '+14155550160'))).chatId).toBe(
      '14155550160@s.whatsapp.net',
    );
    expect((await provider.send(sendTo('sms', '+14155550110'))).chatId).toBeUndefined();
    await provider.stop();
  });

  it('reports no further steps of an unsent message', async () => {
    const { clock, provider, recorder } = await startSimulator();
    const { externalId } = await provider.send(sendTo('imessage', '+14155550100'));
    await clock.advance(500);
    await provider.unsend({
      channel: 'imessage',
      from: FROM,
      message: {
        externalId,
        conversation: { type: 'address', address: '+14155550100' },
        fromMe: true,
      },
    });
    await clock.advance(5_000);
    expect(recorder.statusesOf(externalId)).toEqual(['sent']);
    await provider.stop();
  });

  it('reports the statuses of one send in order without waiting for other sends', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let heldId = '';
    // A gateway slow to record the first send's events only.
    const recorder = new ProviderEventRecorder({
      hold: async (event) => {
        if (event.kind === 'message.status' && event.externalId === heldId) await gate;
      },
    });
    const clock = new ManualTimerClock();
    const provider = new SimulatorProvider({ instanceName: 'sim', stepMs: 500, clock });
    await startWithRecorder(provider, recorder);
    heldId = (await provider.send(sendTo('imessage', '+14155550100'))).externalId;
    const other = (await provider.send(sendTo('imessage', '+14155550101'))).externalId;
    await clock.advance(1_000);
    await recorder.waitForStatus(other, 'delivered', 2_000);
    expect(recorder.statusesOf(other)).toEqual(['sent', 'delivered']);
    expect(recorder.statusesOf(heldId)).toEqual([]);
    release();
    await recorder.waitForStatus(heldId, 'delivered', 2_000);
    expect(recorder.statusesOf(heldId)).toEqual(['sent', 'delivered']);
    await provider.stop();
  });

  it('cancels pending steps on stop', async () => {
    const { clock, provider, recorder } = await startSimulator();
    await provider.send(sendTo('imessage', '+14155550100'));
    await provider.stop();
    expect(clock.pending).toBe(0);
    await clock.advance(5_000);
    expect(recorder.calls).toBe(0);
  });

  describe('fetchStatus', () => {
    it('answers null before the first step, then the furthest step reported', async () => {
      const { clock, provider } = await startSimulator();
      const { externalId } = await provider.send(sendTo('imessage', '+14155550100'));
      const message = {
        externalId,
        conversation: { type: 'address', address: '+14155550100' } as const,
        fromMe: true,
      };
      const request = { channel: 'imessage' as const, from: FROM, message };
      expect(await provider.fetchStatus(request)).toBeNull();
      await clock.advance(1_000);
      expect(await provider.fetchStatus(request)).toEqual({ status: 'delivered' });
      await provider.stop();
    });

    it('answers the end of the lifecycle for a message sent before a restart', async () => {
      const { provider } = await startSimulator();
      const ref = (address: string) => ({
        externalId: 'SENT-BEFORE-RESTART',
        conversation: { type: 'address', address } as const,
        fromMe: true,
      });
      const status = (channel: Channel, address: string) =>
        provider.fetchStatus({ channel, from: FROM, message: ref(address) });
      expect(await status('imessage', '+14155550100')).toEqual({ status: 'read' });
      expect(await status('sms', '+14155550100')).toEqual({ status: 'delivered' });
      expect(await status('imessage', '+14155550131')).toEqual({ status: 'delivered' });
      expect(await status('imessage', '+14155550144')).toBeNull();
      await provider.stop();
    });

    it('forgets the least recently used messages beyond its memory, and answers for them as after a restart', async () => {
      const { clock, provider, recorder } = await startSimulator(undefined, 2);
      const address = '+14155550100';
      const request = (externalId: string) => ({
        channel: 'imessage' as const,
        from: FROM,
        message: { externalId, conversation: { type: 'address', address } as const, fromMe: true },
      });
      const first = await provider.send(sendTo('imessage', address));
      const second = await provider.send(sendTo('imessage', address));
      expect(await provider.fetchStatus(request(first.externalId))).toBeNull();
      const third = await provider.send(sendTo('imessage', address));
      // The first was used more recently than the second, so the second is forgotten.
      expect(await provider.fetchStatus(request(second.externalId))).toEqual({ status: 'read' });
      expect(await provider.fetchStatus(request(first.externalId))).toBeNull();
      expect(await provider.fetchStatus(request(third.externalId))).toBeNull();
      // A forgotten message still runs its lifecycle.
      await clock.advance(1_000);
      expect(recorder.statusesOf(second.externalId)).toEqual(['sent', 'delivered']);
      await provider.stop();
    });

    it('answers failed with the error after a sandbox failure', async () => {
      const { clock, provider } = await startSimulator();
      const { externalId } = await provider.send(sendTo('sms', '+14155550110'));
      await clock.advance(500);
      const error = { code: 'IMESSAGE_SEND_FAILED' as const, message: 'Carrier rejected' };
      await provider.sandbox.injectStatus({ channel: 'sms', externalId, status: 'failed', error });
      const snapshot = await provider.fetchStatus({
        channel: 'sms',
        from: FROM,
        message: {
          externalId,
          conversation: { type: 'address', address: '+14155550110' },
          fromMe: true,
        },
      });
      expect(snapshot).toEqual({ status: 'failed', error });
      await provider.stop();
    });
  });

  describe('chat operations', () => {
    const base = { from: FROM } as const;

    it('creates an iMessage group, with or without a name, and knows it', async () => {
      const { provider } = await startSimulator();
      const chat = await provider.createGroup({
        ...base,
        channel: 'imessage',
        participants: ['+14155550100', 'jane@icloud.com'],
      });
      expect(chat.chatId).toMatch(/^iMessage;\+;chat\d{18}$/);
      expect(chat).toMatchObject({ channel: 'imessage', isGroup: true });
      expect(chat.name).toBeUndefined();
      expect(chat.participants).toEqual([
        { handle: '+14155550100', isPhoneResolved: true, admin: null },
        { handle: 'jane@icloud.com', isPhoneResolved: true, admin: null },
      ]);
      await provider.renameGroup({
        ...base,
        channel: 'imessage',
        chatId: chat.chatId,
        name: 'Team',
      });
      await provider.addParticipant({
        ...base,
        channel: 'imessage',
        chatId: chat.chatId,
        participant: '+14155550101',
      });
      await provider.removeParticipant({
        ...base,
        channel: 'imessage',
        chatId: chat.chatId,
        participant: 'jane@icloud.com',
      });
      const known = await provider.getChat({ ...base, channel: 'imessage', chatId: chat.chatId });
      expect(known?.name).toBe('Team');
      expect(known?.participants.map((member) => member.handle)).toEqual([
        '+14155550100',
        '+14155550101',
      ]);
      await provider.leaveGroup({ ...base, channel: 'imessage', chatId: chat.chatId });
      expect(
        await provider.getChat({ ...base, channel: 'imessage', chatId: chat.chatId }),
      ).toBeNull();
      await provider.stop();
    });

    it('creates a WhatsApp group with phone JIDs, and needs its name', async () => {
      const { provider } = await startSimulator();
      expect(
        await rejection(
          provider.createGroup({ ...base, channel: 'whatsapp', participants: ['+14155550160'] }),
        ),
      ).toBe('NAME_REQUIRED');
      const chat = await provider.createGroup({
        ...base,
        channel: 'whatsapp',
        participants: ['+14155550160', '98765432109876@lid'],
        name: 'Launch',
      });
      expect(chat.chatId).toMatch(/^120363\d{12}@g\.us$/);
      expect(chat.participants).toEqual([
        { handle: '14155550160@s.whatsapp.net', isPhoneResolved: true, admin: null },
        { handle: '98765432109876@lid', isPhoneResolved: false, admin: null },
      ]);
      const added = await provider.addParticipant({
        ...base,
        channel: 'whatsapp',
        chatId: chat.chatId,
        participant: '+14155550161',
      });
      expect(added).toEqual({
        handle: '14155550161@s.whatsapp.net',
        isPhoneResolved: true,
        admin: null,
      });
      await provider.stop();
    });

    it('refuses a group without participants', async () => {
      const { provider } = await startSimulator();
      expect(
        await rejection(provider.createGroup({ ...base, channel: 'imessage', participants: [] })),
      ).toBe('VALIDATION_ERROR');
      await provider.stop();
    });

    it('describes direct chats from their id, and knows no foreign group', async () => {
      const { provider } = await startSimulator();
      expect(
        await provider.getChat({ ...base, channel: 'imessage', chatId: 'iMessage;-;+14155550100' }),
      ).toEqual({
        chatId: 'iMessage;-;+14155550100',
        channel: 'imessage',
        isGroup: false,
        participants: [{ handle: '+14155550100', isPhoneResolved: true, admin: null }],
      });
      expect(
        await provider.getChat({ ...base, channel: 'whatsapp', chatId: '120363000000000000@g.us' }),
      ).toBeNull();
      await provider.stop();
    });

    it('marks iMessage chats read and unread, and refuses that on whatsapp', async () => {
      const { provider } = await startSimulator();
      const imessage = { ...base, channel: 'imessage' as const, chatId: 'iMessage;-;+14155550100' };
      await expect(provider.markRead(imessage)).resolves.toBeUndefined();
      await expect(provider.markUnread(imessage)).resolves.toBeUndefined();
      const whatsapp = {
        ...base,
        channel: 'whatsapp' as const,
        chatId: '14155550160@s.whatsapp.net',
      };
      // Reached as the gateway reaches it: read state is a capability on imessage only.
      const operations = providerOperations(provider);
      expect(await rejection(operations.markRead(whatsapp))).toBe('CHANNEL_NOT_SUPPORTED');
      expect(await rejection(operations.markUnread(whatsapp))).toBe('CHANNEL_NOT_SUPPORTED');
      await provider.stop();
    });

    it('has no groups on sms', async () => {
      const { provider } = await startSimulator();
      expect(
        await rejection(
          providerOperations(provider).createGroup({
            ...base,
            channel: 'sms',
            participants: ['+14155550110'],
          }),
        ),
      ).toBe('CHANNEL_NOT_SUPPORTED');
      await provider.stop();
    });
  });

  describe('availability of a partial instance', () => {
    it('answers only its channels, and FaceTime and Focus only when it serves imessage', async () => {
      const { provider } = await startSimulator(['sms', 'whatsapp']);
      const availability = await provider.checkAvailability({ address: '+14155550150' });
      expect(availability.channels).toEqual({ sms: true, whatsapp: false });
      expect(availability.facetime).toBeUndefined();
      expect(availability.focused).toBeUndefined();
      await provider.stop();
    });

    it('offers WhatsApp sessions only when it serves whatsapp', async () => {
      const { provider } = await startSimulator(['imessage']);
      expect(provider.whatsappSessions).toBeUndefined();
      await provider.stop();
    });
  });
});
