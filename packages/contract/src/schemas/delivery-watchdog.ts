import { z } from 'zod';
import { component, doc } from '../schema-annotations';

/**
 * How long a send may stay `sent` before the delivery watchdog counts it as not delivered, per
 * channel, in seconds (the defaults and their reasons: docs/providers/keeping-numbers-healthy.md).
 */
export const DELIVERY_WATCHDOG_WINDOW_DEFAULTS = {
  imessage: 600,
  sms: 1800,
  whatsapp: 600,
} as const;

/** The other defaults of the delivery watchdog. */
export const DELIVERY_WATCHDOG_DEFAULTS = {
  enabled: true,
  threshold: 0.5,
  minSample: 10,
  sampleSize: 50,
  autoPause: false,
} as const;

const windowSeconds = (channel: keyof typeof DELIVERY_WATCHDOG_WINDOW_DEFAULTS) =>
  doc(
    z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 3600)
      .optional(),
    {
      description: `Seconds a ${channel} send may stay \`sent\` before it counts as not delivered (default ${DELIVERY_WATCHDOG_WINDOW_DEFAULTS[channel]}).`,
    },
  );

/** Settings of the delivery watchdog of one instance. */
export const DeliveryWatchdogSettings = component(
  'DeliveryWatchdogSettings',
  z
    .object({
      enabled: doc(z.boolean().optional(), {
        description: 'Watch the deliveries of this instance’s numbers (default `true`).',
      }),
      threshold: doc(z.number().gt(0).max(1).optional(), {
        description:
          'The share of judged sends not delivered within their window at or above which a number is stalling (default 0.5).',
        example: 0.5,
      }),
      minSample: doc(z.number().int().min(1).max(1000).optional(), {
        description:
          'Judged sends a number needs on a channel before the watchdog says anything (default 10).',
        example: 10,
      }),
      sampleSize: doc(z.number().int().min(1).max(1000).optional(), {
        description:
          'The most recent judged sends per number and channel the share is taken over (default 50).',
        example: 50,
      }),
      autoPause: doc(z.boolean().optional(), {
        description:
          'Pause a stalling number’s sends on the stalling channel (default `false`): its new and queued sends stay `queued` with hold code `paused` until the operator resumes it (`POST /admin/v1/customers/{id}/numbers/{phoneNumber}/send-policy/resume`). Never moved to another number.',
      }),
      windowSeconds: doc(
        z
          .object({
            imessage: windowSeconds('imessage'),
            sms: windowSeconds('sms'),
            whatsapp: windowSeconds('whatsapp'),
          })
          .strict()
          .optional(),
        { description: 'The delivery window per channel.' },
      ),
    })
    .strict()
    .refine(
      (value) => (value.minSample ?? 10) <= (value.sampleSize ?? 50),
      'minSample must not exceed sampleSize',
    ),
  {
    description:
      'The delivery watchdog: per sender number and channel, the share of recent sends that reached `sent` but not `delivered` within the channel’s window. At or above `threshold` the instance carries a health warning and `/metrics` shows it; with `autoPause` the number’s sends on that channel are paused until the operator resumes them.',
  },
);
/** Settings of the delivery watchdog of one instance. */
export type DeliveryWatchdogSettings = z.infer<typeof DeliveryWatchdogSettings>;
