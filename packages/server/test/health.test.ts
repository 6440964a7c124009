import { chmodSync, copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createInstance } from './support/admin-helpers';
import { bodyOf, buildTestApp, TEST_STORE, tempDir } from './support/test-app';

/** Redis as test apps see it: configured alongside PostgreSQL, not otherwise. */
const REDIS_STATUS = TEST_STORE === 'postgres' ? 'ok' : 'not_configured';

describe('GET /health', () => {
  it('reports the database, Redis not configured and no providers, outside the envelope', async () => {
    const { app } = await buildTestApp();
    const response = await app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(bodyOf(response)).toEqual({
      status: 'ok',
      timestamp: '2026-01-15T12:00:00.000Z',
      checks: {
        database: { status: 'ok' },
        redis: { status: REDIS_STATUS },
        imessage: { status: 'not_enabled' },
        whatsapp: { status: 'not_enabled', experimental: true },
        // With a warning when the FFmpeg found is older than the documented minimum (the bundled one).
        transcoding: expect.objectContaining({ status: 'available' }),
      },
    });
    expect(response.headers['x-request-id']).toMatch(/^req_/);
  });

  it('reports iMessage and WhatsApp from the instances serving them', async () => {
    const { app, clock } = await buildTestApp();
    const mac = await createInstance(app, 'mac', ['imessage', 'sms']);
    const spare = await createInstance(app, 'spare-mac', ['imessage']);
    const phone = await createInstance(app, 'phone', ['whatsapp']);
    const report = async () =>
      bodyOf<{ status: string; checks: Record<string, unknown> }>(
        await app.inject({ method: 'GET', url: '/health' }),
      );
    expect((await report()).checks.imessage).toEqual({ status: 'unknown' });

    const checkedAt = new Date(clock.now());
    await app.store.instances.updateHealth(mac.id, { status: 'healthy', warnings: [], checkedAt });
    await app.store.instances.updateHealth(spare.id, {
      status: 'healthy',
      warnings: [],
      checkedAt,
    });
    await app.store.instances.updateHealth(phone.id, {
      status: 'unhealthy',
      warnings: [],
      checkedAt,
    });
    expect((await report()).checks).toMatchObject({
      imessage: { status: 'healthy' },
      whatsapp: { status: 'unhealthy', experimental: true },
    });

    await app.store.instances.updateHealth(spare.id, {
      status: 'degraded',
      warnings: ['Private API disabled'],
      checkedAt,
    });
    const degraded = await report();
    expect(degraded.checks.imessage).toEqual({
      status: 'degraded',
      warnings: ['spare-mac: Private API disabled'],
    });
    // Provider health never changes the overall status.
    expect(degraded.status).toBe('ok');
  });

  it('reports degraded when the database does not answer', async () => {
    const { app } = await buildTestApp();
    await app.store.close();
    const response = await app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(bodyOf(response)).toMatchObject({
      status: 'degraded',
      checks: { database: { status: 'down' }, redis: { status: REDIS_STATUS } },
    });
  });
});

describe('an outdated FFmpeg', () => {
  it('is used, and said at start and in /health', async () => {
    // An FFmpeg 4.1 that has every encoder and muxer the channels need.
    const bin = tempDir();
    writeFileSync(
      join(bin, 'ffmpeg'),
      [
        '#!/bin/sh',
        'case "$*" in',
        `  *-encoders*) printf ' A..... libopus O\\n V..... libx264 H\\n A..... aac A\\n' ;;`,
        `  *-muxers*) printf ' E caf C\\n E ogg O\\n E mp4 M\\n' ;;`,
        `  *) echo 'ffmpeg version 4.1 Copyright (c) 2000-2018' ;;`,
        'esac',
        '',
      ].join('\n'),
    );
    chmodSync(join(bin, 'ffmpeg'), 0o755);
    copyFileSync(join(bin, 'ffmpeg'), join(bin, 'ffprobe'));
    const { app, logs } = await buildTestApp({ env: { FFMPEG_PATH: join(bin, 'ffmpeg') } });
    const health = bodyOf<{ checks: { transcoding: { status: string; warnings?: string[] } } }>(
      await app.inject({ method: 'GET', url: '/health' }),
    );
    expect(health.checks.transcoding.status).toBe('available');
    expect(health.checks.transcoding.warnings?.[0]).toMatch(/^FFmpeg 4\.1 is older than 5\.1/);
    await expect
      .poll(() => logs.find((line) => String(line.msg).startsWith('FFmpeg 4.1 is older')))
      .toMatchObject({ level: 40, source: 'FFMPEG_PATH' });
  });
});
