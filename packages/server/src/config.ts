import { isAbsolute, resolve } from 'node:path';
import { publicBaseUrlOf } from '@switchboard/contract';
import { z } from 'zod';
import { parseEncryptionKey } from './crypto/encryption-key';
import type { RetentionPeriods } from './store/retention-repository';
import { parseRetrySchedule } from './webhooks/retry-schedule';

/** Environment values that are empty count as unset, so `FOO=` falls back to the default. */
function unsetIfEmpty(value: unknown): unknown {
  return typeof value === 'string' && value.trim() === '' ? undefined : value;
}

function env<T extends z.ZodTypeAny>(schema: T) {
  return z.preprocess(unsetIfEmpty, schema);
}

const integer = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max);

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/**
 * Every environment variable the server reads, with its default. `docs/operators.md` documents
 * each of them (see {@link CONFIG_VARIABLES}).
 */
const EnvSchema = z.object({
  PORT: env(integer(0, 65_535).default(3000)),
  HOST: env(z.string().default('127.0.0.1')),
  DATABASE_URL: env(z.string().default('./data/switchboard.db')),
  PUBLIC_BASE_URL: env(z.string().url().optional()),
  SWITCHBOARD_ADMIN_TOKEN: env(
    z.string().min(16, 'must be at least 16 characters (use a long random value)').optional(),
  ),
  RATE_LIMIT_PER_MINUTE: env(integer(1).default(100)),
  REDIS_URL: env(
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
      .optional(),
  ),
  REDIS_KEY_PREFIX: env(z.string().min(1).default('switchboard:')),
  LOG_LEVEL: env(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  BODY_LIMIT_BYTES: env(integer(1024).default(25 * 1024 * 1024)),
  SHUTDOWN_TIMEOUT_MS: env(integer(0).default(10_000)),
  SIMULATOR_STEP_MS: env(integer(0).default(500)),
  SCHEDULER_INTERVAL_MS: env(integer(10).default(60_000)),
  RECONCILE_SENT_WINDOW_MS: env(integer(0).default(24 * 60 * 60 * 1000)),
  RECONCILE_DELIVERED_WINDOW_MS: env(integer(0).default(15 * 60 * 1000)),
  MESSAGE_TAKEOVER_AFTER_MS: env(integer(1000).default(5 * 60 * 1000)),
  WEBHOOK_RETRY_SCHEDULE: env(
    z
      .string()
      .default('30s,5m,30m,2h,8h,24h,24h')
      .transform((value, ctx) => {
        try {
          return parseRetrySchedule(value);
        } catch (error) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: (error as Error).message });
          return z.NEVER;
        }
      }),
  ),
  WEBHOOK_TIMEOUT_MS: env(integer(1).default(10_000)),
  WEBHOOK_ALLOW_PRIVATE_URLS: env(booleanFlag.default('false')),
  WEBHOOK_POLL_INTERVAL_MS: env(integer(10).optional()),
  WEBHOOK_CONCURRENCY: env(integer(1, 10_000).default(32)),
  WEBHOOK_SENDER_THREAD: env(booleanFlag.default('true')),
  SSE_HEARTBEAT_MS: env(integer(10).default(15_000)),
  SSE_MAX_BUFFER_BYTES: env(integer(1024).default(1024 * 1024)),
  SSE_REPLAY_WINDOW_MS: env(integer(0).default(5 * 60 * 1000)),
  CAPABILITY_CACHE_TTL_MS: env(integer(0).default(24 * 60 * 60 * 1000)),
  INSTANCE_HEALTH_INTERVAL_MS: env(integer(10).default(2 * 60 * 1000)),
  UNROUTED_INBOUND_RETENTION_MS: env(integer(0).default(30 * 24 * 60 * 60 * 1000)),
  UNROUTED_INBOUND_INTERVAL_MS: env(integer(10).default(60_000)),
  RETENTION_EVENT_LOG_DAYS: env(integer(0, 36_500).default(30)),
  RETENTION_DELIVERY_LOG_DAYS: env(integer(0, 36_500).default(30)),
  RETENTION_INBOUND_ATTACHMENTS_DAYS: env(integer(0, 36_500).default(90)),
  RETENTION_MESSAGE_CONTENT_DAYS: env(integer(0, 36_500).default(0)),
  RETENTION_INTERVAL_MS: env(integer(10).default(60 * 60 * 1000)),
  RETENTION_BATCH_SIZE: env(integer(1, 10_000).default(500)),
  RETENTION_BATCH_PAUSE_MS: env(integer(0, 60_000).default(20)),
  ATTACHMENT_SIGNING_SECRET: env(
    z.string().min(32, 'must be at least 32 characters (use a long random value)').optional(),
  ),
  INBOUND_ATTACHMENT_MAX_BYTES: env(integer(1).default(100 * 1024 * 1024)),
  SWITCHBOARD_ENCRYPTION_KEY: env(
    z
      .string()
      .refine((value) => {
        try {
          parseEncryptionKey(value);
          return true;
        } catch {
          return false;
        }
      }, 'must be 32 bytes as 64 hex digits or 44 base64 characters (openssl rand -base64 32)')
      .optional(),
  ),
  INGRESS_BODY_LIMIT_BYTES: env(integer(1024).default(5 * 1024 * 1024)),
  INGRESS_DEDUPE_RETENTION_MS: env(integer(60_000).default(30 * 24 * 60 * 60 * 1000)),
  REACHABILITY_BUDGET_MS: env(integer(0).default(2000)),
  PROVIDER_RETRY_WINDOW_MS: env(integer(0).default(60 * 60 * 1000)),
  PROVIDER_RETRY_BASE_MS: env(integer(1).default(5000)),
  SEND_POLICY_TIME_ZONE: env(z.string().min(1).default('UTC')),
  SEND_POLICY_HOLD_WINDOW_MS: env(integer(0).default(72 * 60 * 60 * 1000)),
  SEND_POLICY_RECHECK_MS: env(integer(1).default(60_000)),
  PROVIDER_HTTP_TIMEOUT_MS: env(integer(100).default(15_000)),
  SQLITE_BUSY_TIMEOUT_MS: env(integer(0).default(5000)),
  DATABASE_POOL_SIZE: env(integer(1, 1000).default(10)),
  DATABASE_NAMED_STATEMENTS: env(booleanFlag.default('true')),
  SQLITE_CHECKPOINT_INTERVAL_MS: env(integer(0).default(250)),
  HEAP_GROWING_PERCENT: env(integer(0, 1000).default(30)),
  FFMPEG_PATH: env(z.string().optional()),
  FFPROBE_PATH: env(z.string().optional()),
  MEDIA_TRANSCODE_CONCURRENCY: env(integer(0, 256).default(0)),
  MEDIA_TRANSCODE_TIMEOUT_MS: env(integer(100).default(120_000)),
  INBOUND_MEDIA_RENDITIONS: env(booleanFlag.default('false')),
  METRICS_TOKEN: env(
    z.string().min(16, 'must be at least 16 characters (use a long random value)').optional(),
  ),
  METRICS_OPEN: env(booleanFlag.default('false')),
});

/**
 * The names of every environment variable the server reads, in the order `docs/operators.md`
 * documents them (a test keeps that table and the README's in step with this list).
 */
export const CONFIG_VARIABLES = Object.keys(
  EnvSchema.shape,
) as readonly (keyof typeof EnvSchema.shape)[];

/** The validated server configuration. */
export interface Config {
  /** TCP port to listen on. */
  port: number;
  /** Interface to bind. */
  host: string;
  /** Where the data lives: a SQLite file path (relative paths resolved, see {@link loadConfig}). */
  databaseUrl: string;
  /** The address clients reach the server at; used in signed attachment URLs and the CLI's hints. */
  publicBaseUrl: string;
  /** Operator token for `/admin/v1`; the admin API answers 404 when it is unset. */
  adminToken: string | undefined;
  /** Requests per API key per one-minute window. */
  rateLimitPerMinute: number;
  /**
   * Redis, shared by the server processes of one deployment (the rate limit and the event
   * stream's bus); unset: both stay in this process.
   */
  redisUrl: string | undefined;
  /** Prefix of every Redis key and channel, so deployments can share one Redis. */
  redisKeyPrefix: string;
  /** pino log level. */
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Largest accepted request body, in bytes. */
  bodyLimitBytes: number;
  /** How long a graceful shutdown may take before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** Duration of one lifecycle step of the simulator provider. */
  simulatorStepMs: number;
  /** How often the scheduler looks for due messages. */
  schedulerIntervalMs: number;
  /** At start-up, `sent` messages changed within this long are reconciled with their provider. */
  reconcileSentWindowMs: number;
  /** At start-up, `delivered` messages changed within this long are reconciled (read receipts). */
  reconcileDeliveredWindowMs: number;
  /**
   * With PostgreSQL: how long a `pending` message stays unchanged before another process takes
   * it over (its process died).
   */
  messageTakeoverAfterMs: number;
  /** Delays before each webhook retry attempt, in milliseconds. */
  webhookRetryScheduleMs: readonly number[];
  /** How long a webhook receiver has to answer. */
  webhookTimeoutMs: number;
  /** Allows http and private-network webhook/media URLs (development and tests only). */
  webhookAllowPrivateUrls: boolean;
  /**
   * How often the webhook dispatcher looks for due deliveries (it is also woken on commit); null
   * when unset: 1 s on SQLite, 30 s where processes wake each other (PostgreSQL).
   */
  webhookPollIntervalMs: number | null;
  /** Most webhook deliveries in flight at once (at most 2 per webhook). */
  webhookConcurrency: number;
  /** Sign and send webhook deliveries on a worker thread of their own. */
  webhookSenderThread: boolean;
  /** Interval of the `: heartbeat` comment on the event stream. */
  sseHeartbeatMs: number;
  /** Bytes an event-stream reader may leave unread before it is disconnected. */
  sseMaxBufferBytes: number;
  /** How far back a stream reconnecting with `Last-Event-ID` is replayed. */
  sseReplayWindowMs: number;
  /** How long a capability check result is served from cache. */
  capabilityCacheTtlMs: number;
  /** How often every provider instance's health is checked. */
  instanceHealthIntervalMs: number;
  /**
   * How long an inbound item no customer could receive (its receiving address assigned to nobody)
   * is kept for delivery once the address is assigned.
   */
  unroutedInboundRetentionMs: number;
  /** How often kept inbound items are delivered to addresses assigned since, and expired. */
  unroutedInboundIntervalMs: number;
  /**
   * The deployment's retention periods in days per kind (`RETENTION_*_DAYS`); null where the
   * setting is 0: kept forever. The delivery log is kept at most as long as the event log.
   */
  retentionPeriods: RetentionPeriods;
  /** How often the retention worker prunes. */
  retentionIntervalMs: number;
  /** Rows per pruning batch: each batch is one short transaction. */
  retentionBatchSize: number;
  /**
   * Least pause between two pruning batches (a pause is also at least as long as the batch took),
   * so sends and deliveries get the writer in between.
   */
  retentionBatchPauseMs: number;
  /**
   * Key of the pre-signed attachment download URLs; when unset one is generated and kept in the
   * database, so URLs survive restarts.
   */
  attachmentSigningSecret: string | undefined;
  /** Largest inbound attachment the server stores; bigger ones arrive with a `note`. */
  inboundAttachmentMaxBytes: number;
  /** The key of the secrets at rest; unset: the key file next to the database. */
  encryptionKey: string | undefined;
  /** Largest body the provider ingress takes. */
  ingressBodyLimitBytes: number;
  /** How long the ingress remembers an upstream event id to drop its redeliveries. */
  ingressDedupeRetentionMs: number;
  /** How long a write waits for another process's lock on the SQLite file before a 503. */
  sqliteBusyTimeoutMs: number;
  /** Most connections to PostgreSQL each process opens (its pool); unused with SQLite. */
  databasePoolSize: number;
  /** Whether PostgreSQL statements run named, parsed and planned once per connection. */
  databaseNamedStatements: boolean;
  /**
   * How often the server checkpoints the SQLite WAL from a worker thread (its own connection),
   * keeping checkpoints off the committing connection; 0: SQLite's own automatic checkpoints.
   */
  sqliteCheckpointIntervalMs: number;
  /**
   * How far the server's JavaScript heap may grow past its live size before a full collection,
   * in percent (see `applyHeapGrowth`); 0: V8's own heuristics.
   */
  heapGrowingPercent: number;
  /** How long a send waits for a reachability answer before accepting and routing later. */
  reachabilityBudgetMs: number;
  /** How long messages wait for an unreachable upstream, retried with backoff, before failing. */
  providerRetryWindowMs: number;
  /** The first delay of those retries; each next one doubles, up to 5 minutes. */
  providerRetryBaseMs: number;
  /** The IANA zone whose calendar day is "today" for send policies' daily caps (`UTC`). */
  sendPolicyTimeZone: string;
  /** How long a send policy may hold a queued message before it fails (72 h). */
  sendPolicyHoldWindowMs: number;
  /** How often a held message looks at its allowance again (1 min). */
  sendPolicyRecheckMs: number;
  /** Deadline of one call to an upstream's HTTP API (Twilio), in milliseconds. */
  providerHttpTimeoutMs: number;
  /** `FFMPEG_PATH`: the ffmpeg binary to run (else `PATH`'s, else the bundled package's). */
  ffmpegPath: string | undefined;
  /** `FFPROBE_PATH`: the ffprobe binary (else the one beside `FFMPEG_PATH`, `PATH`'s, the package's). */
  ffprobePath: string | undefined;
  /** Media conversions at once; 0 means one per core. */
  mediaTranscodeConcurrency: number;
  /** Longest one media conversion may run before it is killed and its message fails. */
  mediaTranscodeTimeoutMs: number;
  /** Make browser-playable copies (AAC M4A, H.264 MP4) of inbound voice notes and videos. */
  inboundMediaRenditions: boolean;
  /**
   * A bearer token `GET /metrics` takes besides the operator token (`SWITCHBOARD_ADMIN_TOKEN`),
   * for a scraper that must not hold the operator's credential.
   */
  metricsToken: string | undefined;
  /** `GET /metrics` answers without any credential (`METRICS_OPEN`, for a private network). */
  metricsOpen: boolean;
}

/** Thrown by {@link loadConfig} with every invalid variable in its message. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /**
   * Directory relative paths (DATABASE_URL) are resolved against. Defaults to `INIT_CWD` (the
   * directory a `pnpm` script was started from) or else the process's working directory, so
   * `pnpm start` and `./switchboard` at the repository root share `./data`.
   */
  baseDir?: string;
}

/**
 * Reads and validates the configuration from environment variables.
 * @throws {ConfigError} when a variable is invalid.
 * @example const config = loadConfig(process.env);
 */
export function loadConfig(
  environment: Record<string, string | undefined>,
  options: LoadConfigOptions = {},
): Config {
  const parsed = EnvSchema.safeParse(environment);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.METRICS_OPEN && e.METRICS_TOKEN !== undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  METRICS_OPEN: is true while METRICS_TOKEN is set; choose one (open metrics need no token)',
    );
  }
  const baseDir = options.baseDir ?? environment.INIT_CWD ?? process.cwd();
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: resolveDatabaseUrl(e.DATABASE_URL, baseDir),
    publicBaseUrl: publicBaseUrlOf({
      PUBLIC_BASE_URL: e.PUBLIC_BASE_URL,
      HOST: e.HOST,
      PORT: e.PORT,
    }),
    adminToken: e.SWITCHBOARD_ADMIN_TOKEN,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    simulatorStepMs: e.SIMULATOR_STEP_MS,
    schedulerIntervalMs: e.SCHEDULER_INTERVAL_MS,
    reconcileSentWindowMs: e.RECONCILE_SENT_WINDOW_MS,
    reconcileDeliveredWindowMs: e.RECONCILE_DELIVERED_WINDOW_MS,
    messageTakeoverAfterMs: e.MESSAGE_TAKEOVER_AFTER_MS,
    webhookRetryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE,
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    webhookAllowPrivateUrls: e.WEBHOOK_ALLOW_PRIVATE_URLS,
    webhookPollIntervalMs: e.WEBHOOK_POLL_INTERVAL_MS ?? null,
    webhookConcurrency: e.WEBHOOK_CONCURRENCY,
    webhookSenderThread: e.WEBHOOK_SENDER_THREAD,
    sseHeartbeatMs: e.SSE_HEARTBEAT_MS,
    sseMaxBufferBytes: e.SSE_MAX_BUFFER_BYTES,
    sseReplayWindowMs: e.SSE_REPLAY_WINDOW_MS,
    capabilityCacheTtlMs: e.CAPABILITY_CACHE_TTL_MS,
    instanceHealthIntervalMs: e.INSTANCE_HEALTH_INTERVAL_MS,
    unroutedInboundRetentionMs: e.UNROUTED_INBOUND_RETENTION_MS,
    unroutedInboundIntervalMs: e.UNROUTED_INBOUND_INTERVAL_MS,
    retentionPeriods: {
      eventLog: e.RETENTION_EVENT_LOG_DAYS || null,
      deliveryLog: e.RETENTION_DELIVERY_LOG_DAYS || null,
      inboundAttachments: e.RETENTION_INBOUND_ATTACHMENTS_DAYS || null,
      messageContent: e.RETENTION_MESSAGE_CONTENT_DAYS || null,
    },
    retentionIntervalMs: e.RETENTION_INTERVAL_MS,
    retentionBatchSize: e.RETENTION_BATCH_SIZE,
    retentionBatchPauseMs: e.RETENTION_BATCH_PAUSE_MS,
    attachmentSigningSecret: e.ATTACHMENT_SIGNING_SECRET,
    inboundAttachmentMaxBytes: e.INBOUND_ATTACHMENT_MAX_BYTES,
    encryptionKey: e.SWITCHBOARD_ENCRYPTION_KEY,
    ingressBodyLimitBytes: e.INGRESS_BODY_LIMIT_BYTES,
    ingressDedupeRetentionMs: e.INGRESS_DEDUPE_RETENTION_MS,
    sqliteBusyTimeoutMs: e.SQLITE_BUSY_TIMEOUT_MS,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databaseNamedStatements: e.DATABASE_NAMED_STATEMENTS,
    sqliteCheckpointIntervalMs: e.SQLITE_CHECKPOINT_INTERVAL_MS,
    heapGrowingPercent: e.HEAP_GROWING_PERCENT,
    reachabilityBudgetMs: e.REACHABILITY_BUDGET_MS,
    providerRetryWindowMs: e.PROVIDER_RETRY_WINDOW_MS,
    providerRetryBaseMs: e.PROVIDER_RETRY_BASE_MS,
    sendPolicyTimeZone: e.SEND_POLICY_TIME_ZONE,
    sendPolicyHoldWindowMs: e.SEND_POLICY_HOLD_WINDOW_MS,
    sendPolicyRecheckMs: e.SEND_POLICY_RECHECK_MS,
    providerHttpTimeoutMs: e.PROVIDER_HTTP_TIMEOUT_MS,
    ffmpegPath: e.FFMPEG_PATH,
    ffprobePath: e.FFPROBE_PATH,
    mediaTranscodeConcurrency: e.MEDIA_TRANSCODE_CONCURRENCY,
    mediaTranscodeTimeoutMs: e.MEDIA_TRANSCODE_TIMEOUT_MS,
    inboundMediaRenditions: e.INBOUND_MEDIA_RENDITIONS,
    metricsToken: e.METRICS_TOKEN,
    metricsOpen: e.METRICS_OPEN,
  };
}

/** `0.0.0.0` and `::` are bind addresses, not addresses a client can reach. */
/**
 * Normalizes a SQLite DATABASE_URL (`file:path`, `sqlite:path` or a bare path) to an absolute
 * file path; `:memory:` and URLs of other schemes are returned unchanged.
 */
function resolveDatabaseUrl(url: string, baseDir: string): string {
  if (url === ':memory:') return url;
  const sqlitePath = url.replace(/^(file|sqlite):(\/\/)?/, '');
  if (sqlitePath !== url || !/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    return isAbsolute(sqlitePath) ? sqlitePath : resolve(baseDir, sqlitePath);
  }
  return url;
}
