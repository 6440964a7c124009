import { z } from 'zod';
import { component, doc } from '../schema-annotations';
import { PhoneNumber, Timestamp } from './common';

/** `GET /v1/capabilities/:phoneNumber` path parameters; a bad number answers `INVALID_PHONE_NUMBER`. */
export const CapabilityPathParams = z.object({ phoneNumber: PhoneNumber });
/** `GET /v1/capabilities/:phoneNumber` path parameters. */
export type CapabilityPathParams = z.infer<typeof CapabilityPathParams>;

/** What a phone number can be reached with. */
export const CapabilityRecord = component(
  'CapabilityRecord',
  z.object({
    phoneNumber: PhoneNumber,
    capabilities: doc(
      z.object({
        imessage: z.boolean(),
        sms: z.boolean(),
        facetime: z.boolean(),
        whatsapp: z.boolean(),
      }),
      {
        description:
          'Reachability per channel. `whatsapp` goes beyond the spec: it tells whether `routing.preference` may usefully include whatsapp.',
      },
    ),
    focused: doc(z.boolean(), { description: 'The recipient has a Focus mode active.' }),
    focusMode: doc(z.string().optional(), {
      description: 'Name of the active Focus mode; present only when `focused` is true.',
      example: 'Do Not Disturb',
    }),
    recommendedChannel: doc(z.enum(['imessage', 'sms']), {
      description:
        '`imessage` when reachable there, otherwise `sms` (the default routing; whatsapp is opt-in per send and never recommended).',
    }),
    lastChecked: Timestamp,
    cached: doc(z.boolean(), {
      description: 'True when served from the cache, false when freshly probed.',
    }),
  }),
  {
    description:
      'Reachability of a phone number per channel, probed at `lastChecked`. Results are cached.',
    example: {
      phoneNumber: '+14155550150',
      capabilities: { imessage: true, sms: true, facetime: true, whatsapp: false },
      focused: true,
      focusMode: 'Do Not Disturb',
      recommendedChannel: 'imessage',
      lastChecked: '2026-11-21T09:58:12.000Z',
      cached: true,
    },
  },
);
/** What a phone number can be reached with. */
export type CapabilityRecord = z.infer<typeof CapabilityRecord>;
