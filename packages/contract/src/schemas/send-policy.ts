import { z } from 'zod';
import { component, doc } from '../schema-annotations';
import { CustomerNumberParams } from './admin';
import { Channel, PhoneNumber, Timestamp, Uuid } from './common';

const cap = z.number().int().min(0).max(1_000_000);

/** What a send policy sets for one channel; a field left out inherits. */
export const ChannelSendPolicy = component(
  'ChannelSendPolicy',
  z
    .object({
      dailyCap: doc(cap.nullable().optional(), {
        description:
          'Sends a day from the number on this channel; null: no cap. Left out: the instance’s value, else the channel’s default.',
        example: 250,
      }),
      coldContactDailyCap: doc(cap.nullable().optional(), {
        description:
          'Cold contacts a day (recipients who never wrote to the number and were never answered by it); null: no cap.',
        example: 20,
      }),
      warmUpRamp: doc(
        z.array(z.number().int().min(1).max(1_000_000)).max(90).nullable().optional(),
        {
          description:
            'Daily caps of the number’s first days in use, day 1 first (the smaller of it and `dailyCap` applies); null or empty: no warm-up.',
          example: [20, 30, 50, 75, 100, 150, 200],
        },
      ),
    })
    .strict(),
  { description: 'What a send policy sets for one channel; a field left out inherits.' },
);
/** What a send policy sets for one channel. */
export type ChannelSendPolicy = z.infer<typeof ChannelSendPolicy>;

/** A send policy as the operator sets it on a number or an instance. */
export const SendPolicySettings = component(
  'SendPolicySettings',
  z
    .object({
      inUseSince: doc(
        z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD')
          .nullable()
          .optional(),
        {
          description:
            'The day the number has been in use since (YYYY-MM-DD), which the warm-up counts from; left out or null: the day the number was assigned. A day after today is refused with `VALIDATION_ERROR`.',
          example: '2026-11-01',
        },
      ),
      alreadyWarm: doc(z.boolean().optional(), {
        description:
          'The operator declares the number warm: no warm-up ramp applies (logged when set). Left out: the instance’s value, else false.',
      }),
      channels: doc(
        z
          .object({
            imessage: ChannelSendPolicy.optional(),
            sms: ChannelSendPolicy.optional(),
            whatsapp: ChannelSendPolicy.optional(),
          })
          .strict()
          .optional(),
        { description: 'Per channel settings.' },
      ),
    })
    .strict(),
  {
    description:
      'A send policy of a number, or of an instance as the default of its numbers. Fields left out inherit: number, then instance, then the channel’s default.',
  },
);
/** A send policy as the operator sets it. */
export type SendPolicySettings = z.infer<typeof SendPolicySettings>;

/** A channel's policy with every field decided (null: no cap; an empty ramp: no warm-up). */
const channelValues = {
  dailyCap: cap.nullable(),
  coldContactDailyCap: cap.nullable(),
  warmUpRamp: z.array(z.number().int()),
};

/** A number's policy on one channel as it holds today, with today's counts. */
export const EffectiveSendPolicy = component(
  'EffectiveSendPolicy',
  z.object({
    channel: Channel,
    ...channelValues,
    inUseSince: doc(z.string(), { example: '2026-11-01' }),
    alreadyWarm: z.boolean(),
    dayInUse: doc(z.number().int().min(1), {
      description: 'Which day in use today is (1: the first).',
    }),
    warmUpCap: doc(cap.nullable(), {
      description: 'Today’s cap of the warm-up ramp; null once warm.',
    }),
    todaysCap: doc(cap.nullable(), {
      description: 'Today’s cap on sends: the smaller of `dailyCap` and `warmUpCap`; null: none.',
    }),
    usage: z.object({
      sends: doc(z.number().int().min(0), { description: 'Sends counted today.' }),
      coldContacts: doc(z.number().int().min(0), { description: 'Cold contacts counted today.' }),
    }),
    day: doc(z.string(), {
      description: 'Today (YYYY-MM-DD) in the deployment’s `SEND_POLICY_TIME_ZONE`.',
      example: '2026-11-21',
    }),
    resetsAt: doc(Timestamp, { description: 'When today’s counts start again from zero.' }),
    restricted: doc(
      z
        .object({
          until: Timestamp,
          code: z.string().nullable(),
          reason: z.string().nullable(),
        })
        .nullable(),
      {
        description:
          'WhatsApp restricted the number: messages to people who never wrote to it wait until `until`; `code` and `reason` are WhatsApp’s. Null when not restricted.',
      },
    ),
    paused: doc(
      z
        .object({
          since: doc(Timestamp, { description: 'When the delivery watchdog paused the sends.' }),
          reason: doc(z.string(), {
            description: 'The watchdog’s verdict that paused them.',
            example:
              'deliveries stalling on +14155550100 (imessage): 8 of the last 10 sends not delivered within 10 min: the Apple ID may be flagged',
          }),
        })
        .nullable(),
      {
        description:
          'The delivery watchdog paused the number’s sends on this channel (its instance’s `deliveryWatchdog.autoPause`): every send waits `queued` with hold code `paused` until the operator resumes it. Null when not paused.',
      },
    ),
  }),
  { description: "A number's send policy on one channel as it holds today, with today's counts." },
);
/** A number's policy on one channel as it holds today. */
export type EffectiveSendPolicy = z.infer<typeof EffectiveSendPolicy>;

/** A number's send policy: as set, inherited, and in effect today per channel. */
export const NumberSendPolicy = component(
  'NumberSendPolicy',
  z.object({
    phoneNumber: PhoneNumber,
    instanceId: Uuid,
    policy: doc(SendPolicySettings, { description: 'The number’s own settings.' }),
    instancePolicy: doc(SendPolicySettings, {
      description: 'The settings of the number’s instance, which the number inherits.',
    }),
    effective: doc(z.array(EffectiveSendPolicy), {
      description: 'Per channel the number is served on, the policy in effect today.',
    }),
  }),
  { description: "A number's send policy: as set, inherited, and in effect today per channel." },
);
/** A number's send policy. */
export type NumberSendPolicy = z.infer<typeof NumberSendPolicy>;

/** An instance's send policy, the default of its numbers. */
export const InstanceSendPolicy = component(
  'InstanceSendPolicy',
  z.object({
    instanceId: Uuid,
    policy: SendPolicySettings,
    defaults: doc(z.record(Channel, z.object(channelValues)), {
      description: 'The built-in defaults per channel, which fields left out fall back to.',
    }),
  }),
  { description: "An instance's send policy, the default of its numbers." },
);
/** An instance's send policy. */
export type InstanceSendPolicy = z.infer<typeof InstanceSendPolicy>;

/** `/v1/numbers/:phoneNumber/send-policy` path parameters (with or without the `+`). */
export const NumberPhoneParams = CustomerNumberParams.omit({ id: true });

/** `POST /admin/v1/customers/:id/numbers/:phoneNumber/send-policy/resume` query. */
export const ResumeSendsQuery = z.object({
  channel: doc(z.enum(Channel.options).optional(), {
    description: 'Resume this channel only; left out: every paused channel of the number.',
  }),
});
/** Which of a number's paused channels to resume. */
export type ResumeSendsQuery = z.infer<typeof ResumeSendsQuery>;
