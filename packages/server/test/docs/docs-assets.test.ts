import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseEncoding } from '../../src/http/compressed-assets';
import { buildTestApp, type TestApp } from '../support/test-app';

describe('the API reference’s script', () => {
  let t: TestApp;
  let script: string;
  beforeAll(async () => {
    t = await buildTestApp();
    const page = await t.app.inject({ url: '/docs' });
    script = /src="(\/docs\/js\/[^"]+)"/.exec(page.body)?.[1] ?? '';
    expect(script).not.toBe('');
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (headers: Record<string, string>) => t.app.inject({ url: script, headers });

  it('is served compressed by Accept-Encoding (brotli, gzip, or as it is), the same bytes', async () => {
    const plain = await get({});
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1_000_000);

    const br = await get({ 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(br.headers['content-type']).toBe(plain.headers['content-type']);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);

    const gz = await get({ 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(gunzipSync(gz.rawPayload).equals(plain.rawPayload)).toBe(true);
  });

  it('is cacheable: an ETag of its bytes and Cache-Control, and 304 when it did not change', async () => {
    const first = await get({ 'accept-encoding': 'br' });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=3600');
    const again = await get({ 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect((await get({ 'if-none-match': '"other"' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/docs/js/missing.js' })).statusCode).toBe(404);
  });

  it('reads Accept-Encoding with its weights', () => {
    expect(chooseEncoding(undefined)).toBeUndefined();
    expect(chooseEncoding('identity')).toBeUndefined();
    expect(chooseEncoding('gzip;q=1, br;q=0')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('br;q=0, gzip;q=0, *;q=1')).toBeUndefined();
  });
});
