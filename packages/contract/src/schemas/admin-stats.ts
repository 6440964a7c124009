import { z } from 'zod';
import { component, doc } from '../schema-annotations';

/** The windows the operator's stats count over. */
export const STATS_WINDOWS = ['15m', '1h', '24h'] as const;

/** `GET /admin/v1/stats` query. */
export const OperatorStatsQuery = z
  .object({
    window: doc(z.enum(STATS_WINDOWS).default('1h'), {
      description: 'How far back to count: the last 15 minutes, hour (default) or day.',
      example: '1h',
    }),
  })
  .strict();
/** `GET /admin/v1/stats` query. */
export type OperatorStatsQuery = z.infer<typeof OperatorStatsQuery>;

const count = (description: string) => doc(z.number().int().min(0), { description });

/** The deployment's traffic over a recent window, counted from the database. */
export const OperatorStats = component(
  'OperatorStats',
  z.object({
    window: z.enum(STATS_WINDOWS),
    since: doc(z.string(), { format: 'date-time', description: 'The start of the window.' }),
    until: doc(z.string(), {
      format: 'date-time',
      description: 'The end of the window (when it was counted).',
    }),
    messages: z.object({
      accepted: count('Outbound messages accepted in the window, every customer.'),
      sent: count('Of those, how many are now `sent` (handed to the upstream, no receipt yet).'),
      delivered: count('Of those, how many are now `delivered` or `read`.'),
      failed: count('Of those, how many are now `failed`.'),
      fallbacks: count('Of those, how many fell back to another channel.'),
    }),
    webhooks: z.object({
      failed: count('Webhook delivery attempts in the window that failed (any status but 2xx).'),
    }),
  }),
  {
    description:
      'What the gateway did over the window: outbound messages accepted in it by their status now, fallbacks, and failed webhook deliveries.',
    example: {
      window: '1h',
      since: '2026-11-21T09:00:00.000Z',
      until: '2026-11-21T10:00:00.000Z',
      messages: { accepted: 120, sent: 4, delivered: 110, failed: 2, fallbacks: 7 },
      webhooks: { failed: 1 },
    },
  },
);
/** The deployment's traffic over a recent window. */
export type OperatorStats = z.infer<typeof OperatorStats>;
