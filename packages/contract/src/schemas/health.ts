import { z } from 'zod';
import { component, doc } from '../schema-annotations';
import { Timestamp } from './common';

/**
 * Why a provider instance is not fully healthy: the spec's four BlueBubbles conditions, and
 * upstream trouble. The health report shows each as a sentence (`warnings`).
 */
export const HEALTH_WARNING_CODES = [
  'private_api_disabled',
  'private_api_helper_disconnected',
  'imessage_account_missing',
  'icloud_account_missing',
  'upstream_unreachable',
  'credentials_rejected',
  'whatsapp_session_disconnected',
  'receiving_addresses_several',
] as const;
/** Why a provider instance is not fully healthy. */
export type HealthWarningCode = (typeof HEALTH_WARNING_CODES)[number];

/** One dependency check inside the health report. */
export const HealthCheck = z.object({
  status: doc(z.string(), {
    description:
      '`ok`/`down` for database and redis (`not_configured` when Redis is not used); `healthy`, `degraded`, `unhealthy`, `unknown` or `not_enabled` for providers.',
  }),
  warnings: doc(z.array(z.string()).optional(), { description: 'Why a provider is degraded.' }),
});

/** `GET /health`: not wrapped in the envelope. */
export const HealthReport = component(
  'HealthReport',
  z.object({
    status: z.enum(['ok', 'degraded']),
    timestamp: Timestamp,
    checks: z.object({
      database: HealthCheck,
      redis: HealthCheck,
      imessage: HealthCheck,
      whatsapp: HealthCheck.extend({ experimental: z.literal(true) }),
      transcoding: doc(HealthCheck, {
        description:
          '`available` when FFmpeg can convert voice memos and video for the channels; `unavailable` otherwise, with the reason in `warnings` (sends that need a conversion then fail; others are unaffected). Does not affect the top-level status.',
      }),
    }),
  }),
  {
    description: 'Service health; `degraded` when the database or Redis is unreachable.',
    example: {
      status: 'ok',
      timestamp: '2026-11-21T10:00:00.000Z',
      checks: {
        database: { status: 'ok' },
        redis: { status: 'not_configured' },
        imessage: { status: 'healthy' },
        whatsapp: { status: 'not_enabled', experimental: true },
        transcoding: { status: 'available' },
      },
    },
  },
);
/** The health report. */
export type HealthReport = z.infer<typeof HealthReport>;

/** `GET /`: where to go from the server's root. */
export const ServiceIndex = component(
  'ServiceIndex',
  z.object({
    name: z.literal('Switchboard'),
    health: doc(z.string(), { description: 'The health report, `/health`.', example: '/health' }),
    documentation: doc(z.string(), {
      description: 'Where the API reference lives.',
      example: 'openapi/openapi.json and docs/ in the Switchboard repository',
    }),
    message: z.string(),
  }),
  { description: 'A pointer to the health report and the API documentation.' },
);
/** `GET /`. */
export type ServiceIndex = z.infer<typeof ServiceIndex>;
