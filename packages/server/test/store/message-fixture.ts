import type { MessageAttemptRecord } from '../../src/store/message-attempt-repository';
import type { MessageRecord } from '../../src/store/message-repository';
import type { Repositories } from '../../src/store/store';

/**
 * An outbound message of customer `c1` through instance `i1`, queued at `at`, with every column
 * holding a value (an attachment, a mention, metadata) so round trips check each one.
 */
export function outboundMessage(
  id: string,
  at: Date,
  overrides: Partial<MessageRecord> = {},
): MessageRecord {
  return {
    id,
    customerId: 'c1',
    direction: 'outbound',
    status: 'queued',
    to: '+15550000002',
    conversationId: null,
    providerChatId: null,
    isGroup: false,
    from: '+15550000001',
    instanceId: 'i1',
    channel: null,
    pinnedChannel: null,
    text: 'hello',
    mediaUrls: ['https://example.com/a.png'],
    attachments: [
      {
        position: 0,
        mimeType: 'image/png',
        filename: 'a.png',
        totalBytes: 3,
        isAudioMessage: false,
        url: null,
        hasData: true,
        storedId: null,
      },
    ],
    effect: null,
    messageType: null,
    mentions: [{ address: '+15550000003', start: 0, length: 5 }],
    replyTo: null,
    scheduledAt: null,
    idempotencyKey: null,
    callbackUrl: 'https://example.com/hook',
    metadata: { order: '42' },
    createContact: true,
    routingPreference: ['imessage', 'sms'],
    routingFallback: true,
    fallbackTriggered: false,
    externalId: null,
    errorCode: null,
    errorMessage: null,
    retryCount: 0,
    timeline: [{ status: 'queued', at: at.getTime(), channel: null }],
    correlationId: 'req_1',
    suppressed: false,
    source: null,
    segments: 2,
    redactedAt: null,
    hold: null,
    createdAt: at,
    updatedAt: at,
    deletedAt: null,
    ...overrides,
  };
}

/**
 * The customer `c1` and the simulator instance `i1` (iMessage and SMS) the messages of
 * {@link outboundMessage} belong to, created at `at`.
 */
export async function seedSender(repos: Repositories, at: Date): Promise<void> {
  await repos.customers.insert({
    id: 'c1',
    name: 'c1',
    settings: { otpHandling: 'suppress', optOutHandling: 'gateway' },
    createdAt: at,
  });
  await repos.instances.insert({
    id: 'i1',
    name: 'instance-i1',
    provider: 'simulator',
    channels: ['imessage', 'sms'],
    config: {},
    enabled: true,
    ingressToken: 'ingr_test',
    updatedAt: at,
    deletedAt: null,
    healthStatus: 'unknown',
    healthWarnings: [],
    healthCheckedAt: null,
    createdAt: at,
  });
}

/** The first SMS attempt (`m1:0:sms`) of the message `m1` of {@link outboundMessage}, made at `at`, with no provider id yet. */
export function firstSmsAttempt(at: Date): Omit<MessageAttemptRecord, 'earlyUpdates'> {
  return {
    attemptId: 'm1:0:sms',
    messageId: 'm1',
    customerId: 'c1',
    instanceId: 'i1',
    attempt: 0,
    channel: 'sms',
    externalId: null,
    createdAt: at,
  };
}
