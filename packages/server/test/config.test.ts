import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    expect(loadConfig({}, { baseDir: '/srv/switchboard' })).toEqual({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: '/srv/switchboard/data/switchboard.db',
      publicBaseUrl: 'http://127.0.0.1:3000',
      adminToken: undefined,
      rateLimitPerMinute: 100,
      redisUrl: undefined,
      redisKeyPrefix: 'switchboard:',
      logLevel: 'info',
      bodyLimitBytes: 26_214_400,
      shutdownTimeoutMs: 10_000,
      simulatorStepMs: 500,
      schedulerIntervalMs: 60_000,
      reconcileSentWindowMs: 86_400_000,
      reconcileDeliveredWindowMs: 900_000,
      messageTakeoverAfterMs: 300_000,
      webhookRetryScheduleMs: [
        30_000, 300_000, 1_800_000, 7_200_000, 28_800_000, 86_400_000, 86_400_000,
      ],
      webhookTimeoutMs: 10_000,
      webhookAllowPrivateUrls: false,
      webhookPollIntervalMs: null,
      webhookConcurrency: 32,
      webhookSenderThread: true,
      sseHeartbeatMs: 15_000,
      sseMaxBufferBytes: 1_048_576,
      sseReplayWindowMs: 300_000,
      unroutedInboundIntervalMs: 60_000,
      retentionPeriods: {
        eventLog: 30,
        deliveryLog: 30,
        inboundAttachments: 90,
        messageContent: null,
      },
      sendPolicyTimeZone: 'UTC',
      sendPolicyHoldWindowMs: 259_200_000,
      sendPolicyRecheckMs: 60_000,
      retentionIntervalMs: 3_600_000,
      retentionBatchSize: 500,
      retentionBatchPauseMs: 20,
      unroutedInboundRetentionMs: 2_592_000_000,
      capabilityCacheTtlMs: 86_400_000,
      instanceHealthIntervalMs: 120_000,
      attachmentSigningSecret: undefined,
      inboundAttachmentMaxBytes: 104_857_600,
      encryptionKey: undefined,
      ingressBodyLimitBytes: 5_242_880,
      ingressDedupeRetentionMs: 2_592_000_000,
      sqliteBusyTimeoutMs: 5000,
      databasePoolSize: 10,
      databaseNamedStatements: true,
      sqliteCheckpointIntervalMs: 250,
      heapGrowingPercent: 30,
      reachabilityBudgetMs: 2000,
      providerRetryWindowMs: 3_600_000,
      providerRetryBaseMs: 5000,
      providerHttpTimeoutMs: 15_000,
      ffmpegPath: undefined,
      ffprobePath: undefined,
      mediaTranscodeConcurrency: 0,
      mediaTranscodeTimeoutMs: 120_000,
      inboundMediaRenditions: false,
      metricsToken: undefined,
      metricsOpen: false,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'file:/var/lib/switchboard/db.sqlite',
      PUBLIC_BASE_URL: 'https://sb.example.com/',
      SWITCHBOARD_ADMIN_TOKEN: 'a-long-enough-operator-token',
      RATE_LIMIT_PER_MINUTE: '500',
      LOG_LEVEL: 'debug',
      WEBHOOK_RETRY_SCHEDULE: '100ms, 1s,2ms',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      SSE_HEARTBEAT_MS: '50',
      HEAP_GROWING_PERCENT: '0',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: '/var/lib/switchboard/db.sqlite',
      publicBaseUrl: 'https://sb.example.com',
      adminToken: 'a-long-enough-operator-token',
      rateLimitPerMinute: 500,
      logLevel: 'debug',
      webhookRetryScheduleMs: [100, 1000, 2],
      webhookAllowPrivateUrls: true,
      sseHeartbeatMs: 50,
      heapGrowingPercent: 0,
    });
  });

  it('resolves a relative database path against INIT_CWD, the directory pnpm ran from', () => {
    expect(loadConfig({ INIT_CWD: '/repo', DATABASE_URL: './db/x.db' }).databaseUrl).toBe(
      '/repo/db/x.db',
    );
    expect(loadConfig({ DATABASE_URL: 'sqlite:rel.db' }, { baseDir: '/b' }).databaseUrl).toBe(
      '/b/rel.db',
    );
  });

  it('treats empty values as unset', () => {
    const config = loadConfig({ PORT: '', SWITCHBOARD_ADMIN_TOKEN: '' });
    expect(config.port).toBe(3000);
    expect(config.adminToken).toBeUndefined();
  });

  it('names every invalid variable', () => {
    const attempt = () =>
      loadConfig({
        PORT: 'eighty',
        SWITCHBOARD_ADMIN_TOKEN: 'short',
        WEBHOOK_RETRY_SCHEDULE: '30s,soon',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'maybe',
        HEAP_GROWING_PERCENT: '-5',
      });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/PORT: Expected number/);
    expect(attempt).toThrow(/SWITCHBOARD_ADMIN_TOKEN: must be at least 16 characters/);
    expect(attempt).toThrow(/WEBHOOK_RETRY_SCHEDULE: retry schedule step 2 \("soon"\)/);
    expect(attempt).toThrow(/WEBHOOK_ALLOW_PRIVATE_URLS: /);
    expect(attempt).toThrow(/HEAP_GROWING_PERCENT: /);
  });

  it('refuses open metrics with a metrics token: one or the other', () => {
    expect(loadConfig({ METRICS_OPEN: 'true' }).metricsOpen).toBe(true);
    expect(() =>
      loadConfig({ METRICS_OPEN: 'true', METRICS_TOKEN: 'metrics-token-0123456789' }),
    ).toThrow(/METRICS_OPEN: is true while METRICS_TOKEN is set/);
  });
});
