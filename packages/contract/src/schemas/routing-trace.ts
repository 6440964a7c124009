import { z } from 'zod';
import { component, doc } from '../schema-annotations';
import { Channel, MessageId, Timestamp } from './common';
import { nullableEnum } from './message-rules';

/** What the gateway did at one step of a message's routing. */
export const ROUTING_DECISIONS = [
  'skipped',
  'tried',
  'accepted',
  'refused',
  'failed',
  'waited',
  'blocked',
] as const;

/** What the gateway did at one step of a message's routing. */
export const RoutingDecision = component('RoutingDecision', z.enum(ROUTING_DECISIONS), {
  description:
    '`skipped`: a channel was passed over without a send (see `reason`); `tried`: the message was handed to the channel’s instance; `accepted`: the upstream took it (`externalId`); `refused`: the upstream refused it and routing moved on; `failed`: routing ended without a channel taking the message; `waited`: the send waited (pacing, an upstream that is down); `blocked`: the send was stopped before any channel (opt-out, unsafe URL). New values may be added: treat an unknown one as informational.',
});
/** What the gateway did at one step of a message's routing. */
export type RoutingDecision = z.infer<typeof RoutingDecision>;

/** Why the gateway took a routing decision. */
export const ROUTING_REASONS = [
  'fallback_disabled',
  'channel_not_served',
  'recipient_unreachable',
  'reachable',
  'reachability_unknown',
  'pinned_to_chat',
  'resumed',
  'media_not_accepted',
  'provider_accepted',
  'provider_refused',
  'provider_error',
  'upstream_down',
  'instance_unavailable',
  'pacing',
  'send_policy',
  'opted_out',
  'unsafe_url',
  'no_channel_left',
] as const;

/** Why the gateway took a routing decision. */
export const RoutingReason = component('RoutingReason', z.enum(ROUTING_REASONS), {
  description: [
    'Why the step was decided as it was:',
    '`fallback_disabled` (`routing.fallback` is false: the channel is not considered);',
    '`channel_not_served` (the instance carrying the channel does not serve it);',
    '`recipient_unreachable` (the capability check says the recipient is not on the channel);',
    '`reachable` / `reachability_unknown` (the check said yes, or could not tell: the channel is tried);',
    '`pinned_to_chat` (a chat-keyed or group send uses its chat’s channel);',
    '`resumed` (an attempt already recorded is sent again with the same attempt id);',
    '`media_not_accepted` (the channel cannot take the files: too large, not convertible);',
    '`provider_accepted`, `provider_refused` (the refusal allows the next channel), `provider_error` (an error that ends routing, such as a timed-out send that may still arrive);',
    '`upstream_down` (the upstream cannot be reached: the message waits `waitMs`, or fails after the retry window);',
    '`instance_unavailable` (the sending instance is stopped or misconfigured);',
    '`pacing` (the instance’s send rate made the message wait `waitMs`);',
    '`send_policy` (the sender number’s send policy holds the message: `code` is the hold’s code, `daily_cap`, `cold_contact_cap`, `warm_up`, `restricted` or `paused`, and `waitMs` how long until its allowance returns; `failed` with `SEND_POLICY_HOLD_EXPIRED` once held past the hold window);',
    '`opted_out` (the recipient opted out);',
    '`unsafe_url` (a media URL failed the URL-safety check at send time);',
    '`no_channel_left` (every channel was skipped or refused).',
    'New values may be added: treat an unknown one as informational.',
  ].join(' '),
});
/** Why the gateway took a routing decision. */
export type RoutingReason = z.infer<typeof RoutingReason>;

/** What the capability check answered for a channel. */
export const RoutingCapability = component(
  'RoutingCapability',
  z.object({
    source: doc(z.enum(['cache', 'provider']), {
      description: '`cache`: a cached answer (see `ageMs`); `provider`: asked of the provider now.',
    }),
    ageMs: doc(z.number().int().min(0), {
      description: 'How old the answer was when used, in milliseconds (0 when just asked).',
      example: 42_000,
    }),
    reachable: doc(z.boolean().nullable(), {
      description:
        'Whether the recipient is on the channel; null when the provider could not tell.',
    }),
  }),
  { description: 'The reachability answer a channel decision read.' },
);
/** What the capability check answered for a channel. */
export type RoutingCapability = z.infer<typeof RoutingCapability>;

/** One step of a message's routing trace. */
export const RoutingStep = component(
  'RoutingStep',
  z.object({
    sequence: doc(z.number().int().min(1), {
      description: 'Position of the step in the trace, from 1, in the order the steps happened.',
    }),
    attempt: doc(z.number().int().min(0), {
      description: 'The delivery round: 0 for the send, then the `retryCount` of each retry.',
    }),
    at: Timestamp,
    channel: nullableEnum(Channel.options),
    instanceId: doc(z.string().nullable(), {
      description:
        'The instance that carries (or would carry) the channel; null for steps before any channel.',
    }),
    decision: RoutingDecision,
    reason: RoutingReason,
    detail: doc(z.string(), {
      description: 'The decision in one sentence, for people (not for matching).',
      example: '+14155550100 is not reachable on imessage',
    }),
    code: doc(z.string().nullable(), {
      description:
        'The error code behind a refusal, failure or block (the provider’s, such as `IMESSAGE_SEND_FAILED`, or the gateway’s, such as `RECIPIENT_OPTED_OUT`); null otherwise.',
    }),
    capability: doc(RoutingCapability.nullable(), {
      description: 'The reachability answer the decision read; null when none was read.',
    }),
    waitMs: doc(z.number().int().min(0).nullable(), {
      description: 'On `waited` steps: how long the message waited before its next try.',
    }),
    externalId: doc(z.string().nullable(), {
      description: 'The upstream’s id of the send, on `accepted` steps.',
    }),
  }),
  {
    description:
      'One channel, instance or wait considered while routing a message, with the decision and why.',
    example: {
      sequence: 1,
      attempt: 0,
      at: '2026-11-21T10:00:00.210Z',
      channel: 'imessage',
      instanceId: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e60',
      decision: 'skipped',
      reason: 'recipient_unreachable',
      detail: '+14155550100 is not reachable on imessage',
      code: null,
      capability: { source: 'cache', ageMs: 42000, reachable: false },
      waitMs: null,
      externalId: null,
    },
  },
);
/** One step of a message's routing trace. */
export type RoutingStep = z.infer<typeof RoutingStep>;

/** The routing trace of a message: `GET /v1/messages/{id}/routing`. */
export const MessageRouting = component(
  'MessageRouting',
  z.object({
    messageId: MessageId,
    steps: doc(z.array(RoutingStep), {
      description:
        'Every step, oldest first, across the send and its retries; empty for inbound messages and for sends not yet routed (scheduled, queued).',
    }),
  }),
  {
    description:
      'How the gateway routed a message: each channel and instance considered or tried, in order, with the decision and its reason.',
    example: {
      messageId: 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e',
      steps: [
        {
          sequence: 1,
          attempt: 0,
          at: '2026-11-21T10:00:00.210Z',
          channel: 'imessage',
          instanceId: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e60',
          decision: 'tried',
          reason: 'reachability_unknown',
          detail: 'imessage is tried through its instance',
          code: null,
          capability: { source: 'provider', ageMs: 0, reachable: null },
          waitMs: null,
          externalId: null,
        },
        {
          sequence: 2,
          attempt: 0,
          at: '2026-11-21T10:00:01.020Z',
          channel: 'imessage',
          instanceId: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e60',
          decision: 'refused',
          reason: 'provider_refused',
          detail: 'The recipient is not registered with iMessage',
          code: 'IMESSAGE_SEND_FAILED',
          capability: null,
          waitMs: null,
          externalId: null,
        },
        {
          sequence: 3,
          attempt: 0,
          at: '2026-11-21T10:00:01.030Z',
          channel: 'sms',
          instanceId: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e61',
          decision: 'tried',
          reason: 'reachability_unknown',
          detail: 'sms is tried through its instance',
          code: null,
          capability: { source: 'cache', ageMs: 42000, reachable: null },
          waitMs: null,
          externalId: null,
        },
        {
          sequence: 4,
          attempt: 0,
          at: '2026-11-21T10:00:01.400Z',
          channel: 'sms',
          instanceId: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e61',
          decision: 'accepted',
          reason: 'provider_accepted',
          detail: 'The upstream accepted the send',
          code: null,
          capability: null,
          waitMs: null,
          externalId: 'SM3f2a9c0d1e4b5a6978c0d1e2f3a4b5c6',
        },
      ],
    },
  },
);
/** The routing trace of a message. */
export type MessageRouting = z.infer<typeof MessageRouting>;
