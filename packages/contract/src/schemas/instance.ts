import { z } from 'zod';
import { component, doc } from '../schema-annotations';
import { Channel, E164_PATTERN, HealthStatus, Timestamp, Uuid } from './common';
import { DeliveryWatchdogSettings } from './delivery-watchdog';
import { InstanceMediaLimits } from './media';

/** How fast an instance may hand messages to its upstream. */
export const InstancePacing = component(
  'InstancePacing',
  z
    .object({
      perSecond: doc(z.number().min(0).max(1000).optional(), {
        description:
          'Messages per second per sender number; `0` means no limit. Defaults: 1 on `bluebubbles`, `twilio` and `baileys` (iMessage lines and WhatsApp numbers get banned when they blast), no limit on `simulator`.',
        example: 1,
      }),
      concurrency: doc(z.number().int().min(1).max(256).optional(), {
        description:
          'Most messages of this instance handed to the upstream at once. Defaults: 1 on `bluebubbles` and `baileys`, 4 on `twilio`, 16 on `simulator`.',
        example: 1,
      }),
      jitter: doc(z.number().min(0).max(1).optional(), {
        description:
          'How far each gap between two sends of a sender number strays from `1 / perSecond`, at random: each gap is drawn evenly in `[1 - jitter, 1 + jitter]` × the interval, so the average rate is `perSecond` but no two gaps are alike (a fixed interval is what flags a number as a bot). `0`: a fixed interval. Defaults: 0.5 on `bluebubbles`, `twilio` and `baileys`, 0 on `simulator`.',
        example: 0.5,
      }),
    })
    .strict(),
  { description: 'Send rate, jitter and concurrency limits of one instance.' },
);
/** Send rate, jitter and concurrency limits of one instance. */
export type InstancePacing = z.infer<typeof InstancePacing>;

const pacing = InstancePacing.optional();
const mediaLimits = InstanceMediaLimits.optional();
const deliveryWatchdog = DeliveryWatchdogSettings.optional();

/** An absolute http(s) URL of an upstream API (loopback allowed: the operator chose it). */
const UpstreamUrl = z
  .string()
  .url()
  .refine((value) => /^https?:\/\//i.test(value), 'must be an http:// or https:// URL');

/** The URL of a proxy: http(s) or SOCKS5, host and port, no credentials in it. */
const ProxyUrl = z
  .string()
  .url()
  .refine(
    (value) => /^(https?|socks5h?):\/\//i.test(value),
    'must be an http://, https://, socks5:// or socks5h:// URL',
  )
  .refine(
    (value) => !/^[a-z0-9]+:\/\/[^/]*@/i.test(value),
    'must not hold credentials: give them as proxyUsername and proxyPassword',
  );

/** A secret setting: write-only, answered masked. */
function secret(description: string, min = 1) {
  return doc(z.string().min(min), {
    description: `${description} Secret: stored encrypted, answered masked.`,
  });
}

/** `config` of a `simulator` instance. */
export const SimulatorInstanceConfig = component(
  'SimulatorInstanceConfig',
  z
    .object({
      stepMs: doc(z.number().int().min(0).max(60_000).optional(), {
        description: 'Duration of each lifecycle step; defaults to `SIMULATOR_STEP_MS`.',
      }),
      qrRotationSteps: doc(z.number().int().min(1).max(10_000).optional(), {
        description: 'Steps between two WhatsApp QR codes.',
      }),
      qrMaxRotations: doc(z.number().int().min(1).max(100).optional(), {
        description: 'QR codes shown before pairing gives up.',
      }),
      ingressSecret: secret(
        'The key a simulated upstream signs its ingress calls with (`X-Simulator-Signature: sha256=<hex HMAC-SHA256 of the raw body>`); unset: unsigned calls are taken.',
        16,
      ).optional(),
      pacing,
      deliveryWatchdog,
      mediaLimits,
    })
    .strict(),
  { description: 'Settings of the built-in simulator.' },
);
/** `config` of a `simulator` instance. */
export type SimulatorInstanceConfig = z.infer<typeof SimulatorInstanceConfig>;

/** `config` of a `bluebubbles` instance (a Mac running BlueBubbles Server). */
export const BlueBubblesInstanceConfig = component(
  'BlueBubblesInstanceConfig',
  z
    .object({
      serverUrl: doc(UpstreamUrl, {
        description: 'Base URL of the BlueBubbles Server, e.g. `https://mac.example.com:1234`.',
        example: 'https://mac.example.com:1234',
      }),
      password: secret('The BlueBubbles Server password.'),
      address: doc(z.string().regex(E164_PATTERN, 'must be E.164').optional(), {
        description:
          "The Mac's iMessage phone number (E.164), as the customer's number names it: inbound messages are received on it. Defaults to the iMessage account BlueBubbles detects.",
        example: '+14155550100',
      }),
      sendMethod: doc(z.enum(['auto', 'private-api', 'apple-script']).default('auto'), {
        description:
          '`auto` (default): the Private API when its helper is connected, AppleScript otherwise.',
      }),
      pacing,
      deliveryWatchdog,
      mediaLimits,
    })
    .strict(),
  { description: 'Settings of a BlueBubbles Server (iMessage, and SMS through the iPhone).' },
);
/** `config` of a `bluebubbles` instance. */
export type BlueBubblesInstanceConfig = z.infer<typeof BlueBubblesInstanceConfig>;

/** `config` of a `twilio` instance. */
export const TwilioInstanceConfig = component(
  'TwilioInstanceConfig',
  z
    .object({
      accountSid: doc(
        z.string().regex(/^AC[0-9a-f]{32}$/, 'must be AC followed by 32 hex digits'),
        {
          description: 'The Twilio account SID.',
          example: 'AC0123456789abcdef0123456789abcdef',
        },
      ),
      authToken: secret(
        'The account auth token: verifies `X-Twilio-Signature` on callbacks, and authenticates API calls unless an API key is given.',
        32,
      ),
      apiKeySid: doc(
        z
          .string()
          .regex(/^SK[0-9a-f]{32}$/, 'must be SK followed by 32 hex digits')
          .optional(),
        { description: 'An API key SID for API calls (with `apiKeySecret`).' },
      ),
      apiKeySecret: secret('The API key secret.').optional(),
      messagingServiceSid: doc(
        z
          .string()
          .regex(/^MG[0-9a-f]{32}$/, 'must be MG followed by 32 hex digits')
          .optional(),
        { description: 'Send through this Messaging Service instead of a `From` number.' },
      ),
      apiBaseUrl: doc(UpstreamUrl.default('https://api.twilio.com'), {
        description: 'Base URL of the Messaging API (tests point it at a local fake).',
      }),
      lookupBaseUrl: doc(UpstreamUrl.default('https://lookups.twilio.com'), {
        description: 'Base URL of the Lookup API.',
      }),
      lookup: doc(z.boolean().default(false), {
        description:
          'Ask Lookup v2 line type intelligence before sms sends (a paid call). Off: every valid number is sms-reachable.',
      }),
      pacing,
      deliveryWatchdog,
      mediaLimits,
    })
    .strict()
    .superRefine((value, ctx) => {
      if ((value.apiKeySid === undefined) !== (value.apiKeySecret === undefined)) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [value.apiKeySid === undefined ? 'apiKeySid' : 'apiKeySecret'],
          message: 'apiKeySid and apiKeySecret go together',
        });
      }
    }),
  { description: 'Settings of a Twilio account (SMS and MMS).' },
);
/** `config` of a `twilio` instance. */
export type TwilioInstanceConfig = z.infer<typeof TwilioInstanceConfig>;

/** `config` of a `baileys` instance (WhatsApp through linked devices). */
export const BaileysInstanceConfig = component(
  'BaileysInstanceConfig',
  z
    .object({
      version: doc(z.tuple([z.number().int(), z.number().int(), z.number().int()]).optional(), {
        description:
          'The WhatsApp Web version to announce; the adapter default when omitted (update it when WhatsApp closes sessions with 405).',
        example: [2, 3000, 1027934701],
      }),
      browser: doc(z.tuple([z.string(), z.string(), z.string()]).optional(), {
        description: 'The linked-device name shown on the phone: `[os, browser, version]`.',
        example: ['Switchboard', 'Chrome', '1.0'],
      }),
      markOnlineOnConnect: doc(z.boolean().default(false), {
        description: 'Appear online when connected (phones then stop showing notifications).',
      }),
      proxyUrl: doc(ProxyUrl.optional(), {
        description:
          "A proxy the instance's WhatsApp sockets and media uploads go out through, so numbers do not share one IP: `http://`, `https://` or `socks5://` (`socks5h://` resolves names at the proxy), host and port only; credentials go in `proxyUsername` and `proxyPassword`.",
        example: 'socks5://proxy.example.com:1080',
      }),
      proxyUsername: doc(z.string().min(1).max(255).optional(), {
        description: 'The proxy user name (with `proxyPassword`).',
      }),
      proxyPassword: secret('The proxy password.').optional(),
      pacing,
      deliveryWatchdog,
    })
    .strict()
    .superRefine((value, ctx) => {
      if (value.proxyUrl === undefined && value.proxyUsername !== undefined) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['proxyUsername'],
          message: 'proxyUsername needs a proxyUrl',
        });
      }
      if (value.proxyPassword !== undefined && value.proxyUsername === undefined) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['proxyPassword'],
          message: 'proxyPassword needs a proxyUsername',
        });
      }
    }),
  { description: 'Settings of the Baileys WhatsApp adapter.' },
);
/** `config` of a `baileys` instance. */
export type BaileysInstanceConfig = z.infer<typeof BaileysInstanceConfig>;

/** The config schema of each provider adapter. */
export const INSTANCE_CONFIG_SCHEMAS = {
  simulator: SimulatorInstanceConfig,
  bluebubbles: BlueBubblesInstanceConfig,
  twilio: TwilioInstanceConfig,
  baileys: BaileysInstanceConfig,
} as const;

/** The config fields of each adapter that are secrets: stored encrypted, answered masked. */
export const INSTANCE_SECRET_FIELDS = {
  simulator: ['ingressSecret'],
  bluebubbles: ['password'],
  twilio: ['authToken', 'apiKeySecret'],
  baileys: ['proxyPassword'],
} as const satisfies Record<keyof typeof INSTANCE_CONFIG_SCHEMAS, readonly string[]>;

/** The channels each adapter can serve. */
export const PROVIDER_CHANNELS = {
  simulator: ['imessage', 'sms', 'whatsapp'],
  bluebubbles: ['imessage', 'sms'],
  twilio: ['sms'],
  baileys: ['whatsapp'],
} as const satisfies Record<keyof typeof INSTANCE_CONFIG_SCHEMAS, readonly Channel[]>;

/** The provider adapters an instance can use. */
export const InstanceProvider = doc(z.enum(['simulator', 'bluebubbles', 'twilio', 'baileys']), {
  description:
    'The provider adapter behind the instance: `simulator` (built in), `bluebubbles` (iMessage through a Mac), `twilio` (SMS/MMS), `baileys` (WhatsApp; needs the optional `@switchboard/provider-baileys` package).',
  example: 'simulator',
});
/** A provider adapter name. */
export type InstanceProvider = z.infer<typeof InstanceProvider>;

const InstanceName = doc(z.string().trim().min(1).max(100), {
  description: 'Unique friendly name, shown as `instanceName` on sender numbers.',
  example: 'simulator',
});

const InstanceChannels = doc(
  z
    .array(Channel)
    .min(1)
    .refine((list) => new Set(list).size === list.length, 'must not repeat a channel'),
  { description: 'The channels this instance serves.', example: ['imessage', 'sms'] },
);

/**
 * Why `channels` cannot be served by `provider`'s adapter, or undefined when it can. The request
 * schemas and the server's merged updates share this one rule.
 */
export function instanceChannelsProblem(
  provider: InstanceProvider,
  channels: readonly Channel[],
): string | undefined {
  const supported: readonly Channel[] = PROVIDER_CHANNELS[provider];
  const unsupported = channels.filter((channel) => !supported.includes(channel));
  return unsupported.length === 0
    ? undefined
    : `provider "${provider}" cannot serve ${unsupported.join(', ')} (it serves ${supported.join(', ')})`;
}

/**
 * The issues of `config` against `provider`'s schema, with paths inside the config; empty when it
 * is valid. The request schemas and the server's merged updates share this one rule.
 */
export function instanceConfigIssues(provider: InstanceProvider, config: unknown): z.ZodIssue[] {
  const parsed = INSTANCE_CONFIG_SCHEMAS[provider].safeParse(config);
  return parsed.success ? [] : parsed.error.issues;
}

/** Checks the channels of an instance against what its adapter can serve. */
function refineChannels(
  value: { provider: InstanceProvider; channels?: readonly Channel[] | undefined },
  ctx: z.RefinementCtx,
): void {
  const problem = instanceChannelsProblem(value.provider, value.channels ?? []);
  if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['channels'], message: problem });
}

/** Validates `config` against the schema of `provider`, reporting issues under `config.…`. */
function refineConfig(
  value: { provider: InstanceProvider; config?: unknown },
  ctx: z.RefinementCtx,
): void {
  if (value.config === undefined) return;
  for (const issue of instanceConfigIssues(value.provider, value.config)) {
    ctx.addIssue({ ...issue, path: ['config', ...issue.path] } as z.IssueData);
  }
}

/** `POST /admin/v1/instances` body. */
export const CreateInstanceRequest = z
  .object({
    name: InstanceName,
    provider: InstanceProvider,
    channels: doc(InstanceChannels.optional(), {
      description:
        'The channels this instance serves; every channel its provider can serve when omitted.',
      example: ['imessage', 'sms'],
    }),
    config: doc(z.record(z.string(), z.unknown()).default({}), {
      description:
        "Provider settings, validated against the provider's schema (`SimulatorInstanceConfig`, `BlueBubblesInstanceConfig`, `TwilioInstanceConfig`, `BaileysInstanceConfig`). Secrets are stored encrypted and answered masked.",
      example: {},
    }),
    enabled: doc(z.boolean().default(true), {
      description: 'A disabled instance does not run: its messages wait, its ingress answers 503.',
    }),
  })
  .strict()
  .superRefine((value, ctx) => {
    refineChannels(value, ctx);
    refineConfig(value, ctx);
  });
/** `POST /admin/v1/instances` body. */
export type CreateInstanceRequest = z.input<typeof CreateInstanceRequest>;

/** `PATCH /admin/v1/instances/:id` body: any of the fields, at least one. */
export const UpdateInstanceRequest = z
  .object({
    name: InstanceName.optional(),
    channels: InstanceChannels.optional(),
    config: doc(z.record(z.string(), z.unknown()).optional(), {
      description:
        'Settings to change, merged into the stored ones (a `null` value removes an optional setting). A secret sent back exactly as it was answered (masked) keeps its value. Changing the config restarts the instance.',
      example: { pacing: { perSecond: 2 } },
    }),
    enabled: doc(z.boolean().optional(), {
      description: 'Stop (`false`) or start (`true`) the instance.',
    }),
  })
  .strict()
  .refine((value) => Object.values(value).some((field) => field !== undefined), {
    message: 'give at least one of name, channels, config, enabled',
  });
/** `PATCH /admin/v1/instances/:id` body. */
export type UpdateInstanceRequest = z.input<typeof UpdateInstanceRequest>;

/** A provider instance as the operator API answers it. */
export const Instance = component(
  'Instance',
  z.object({
    id: Uuid,
    name: z.string(),
    provider: InstanceProvider,
    channels: z.array(Channel),
    config: doc(z.record(z.string(), z.unknown()), {
      description: 'The settings, secrets masked (`****` and their last 4 characters at most).',
    }),
    enabled: z.boolean(),
    ingressUrl: doc(z.string(), {
      description:
        'Where the upstream posts its webhooks (`PUBLIC_BASE_URL/providers/<id>/webhook/<token>`); the token in it is a credential: rotate it if it leaks.',
      example:
        'https://switchboard.example.com/providers/0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f/webhook/ingr_Jx…',
    }),
    healthStatus: HealthStatus,
    healthWarnings: doc(z.array(z.string()), {
      description: 'Why the instance is not healthy, from its last health check.',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
  {
    description: 'A provider instance; its secrets are never returned in clear.',
    example: {
      id: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
      name: 'simulator',
      provider: 'simulator',
      channels: ['imessage', 'sms', 'whatsapp'],
      config: {},
      enabled: true,
      ingressUrl:
        'http://127.0.0.1:3000/providers/0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f/webhook/ingr_Jx2m…',
      healthStatus: 'unknown',
      healthWarnings: [],
      createdAt: '2026-11-21T10:00:00.000Z',
      updatedAt: '2026-11-21T10:00:00.000Z',
    },
  },
);
/** A provider instance. */
export type Instance = z.infer<typeof Instance>;

/** `:id` path parameter of the instance routes. */
export const InstanceIdParams = z.object({ id: Uuid });

/** `DELETE /admin/v1/instances/:id` query. */
export const DeleteInstanceQuery = z.object({
  force: doc(
    z
      .enum(['true', 'false'])
      .default('false')
      .transform((value) => value === 'true'),
    {
      description:
        '`true` deletes the instance even while sender numbers use it, withdrawing those numbers.',
    },
  ),
});

/** `DELETE /admin/v1/instances/:id` answer. */
export const InstanceDeleted = z.object({
  id: Uuid,
  deleted: z.literal(true),
  releasedNumbers: doc(z.array(z.string()), {
    description: 'The sender numbers withdrawn with the instance (with `force=true`).',
  }),
});
/** `DELETE /admin/v1/instances/:id` answer. */
export type InstanceDeleted = z.infer<typeof InstanceDeleted>;

/** Path parameters of the upstream ingress route. */
export const IngressParams = z.object({
  instanceId: z.string().max(100),
  token: z.string().max(200),
});
