import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP } from '../../src/http/console-assets';
import { buildTestApp, type TestApp } from '../support/test-app';

describe('the console the server serves at /console', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves its page under a strict CSP, revalidated on every load, with no inline script', async () => {
    for (const url of ['/console', '/console/']) {
      const page = await t.app.inject({ url });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toBe(CONSOLE_CSP);
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(page.headers['cache-control']).toBe('no-cache');
      // Every script names its file; none is inline, none comes from elsewhere.
      const scripts = [...page.body.matchAll(/<script([^>]*)>/g)].map((match) => match[1]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const attributes of scripts) expect(attributes).toMatch(/src="\/console\/assets\//);
      expect(page.body).not.toMatch(/style=|https?:\/\//);
    }
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).not.toMatch(/unsafe|https?:|\*/);
  });

  it('serves its assets compressed, with an ETag, cached for good (their names carry their hash)', async () => {
    const page = await t.app.inject({ url: '/console' });
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(page.body)?.[1] ?? '';
    const plain = await t.app.inject({ url: script });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const br = await t.app.inject({ url: script, headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    const again = await t.app.inject({
      url: script,
      headers: { 'if-none-match': String(plain.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('answers 404 for anything but its files, and never reads outside them', async () => {
    for (const url of [
      '/console/assets/missing.js',
      '/console/assets/..%2F..%2Fpackage.json',
      '/console/assets/../index.html',
      '/console/index.html.map',
      '/console/other',
    ]) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(404);
    }
  });

  it('needs no credential: the page signs in through the API itself', async () => {
    const page = await t.app.inject({ url: '/console', headers: { authorization: 'Bearer nope' } });
    expect(page.statusCode).toBe(200);
  });
});
