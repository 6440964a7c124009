import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUp } from '../../src/find-up';
import { createCustomerWithNumber, createInstance } from '../support/admin-helpers';
import { launchChromium } from '../support/chromium';
import { buildListeningApp } from '../support/listening-app';
import { bearer, bodyOf } from '../support/test-app';

/** The committed document the server must serve as it is. */
const COMMITTED = JSON.parse(readFileSync(findUp('openapi/openapi.json', __dirname), 'utf8'));
/** Set to write the screenshot `docs/images/api-reference.png` (the docs show it). */
const SCREENSHOT = process.env.UPDATE_SCREENSHOTS === '1';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('the documentation the server serves', () => {
  it('serves the committed OpenAPI document at /openapi.json, without a key', async () => {
    const { t, origin } = await buildListeningApp();
    const response = await t.app.inject({ url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    // The committed document, naming this server (its PUBLIC_BASE_URL) as the one to call.
    expect(bodyOf(response)).toEqual({
      ...COMMITTED,
      servers: [{ url: origin, description: 'This Switchboard server' }],
    });
    const index = bodyOf<{ documentation: string }>(await t.app.inject({ url: '/' }));
    expect(index.documentation).toBe('/docs');
  });

  it('serves an interactive reference whose every asset comes from the server, and whose "Test Request" sends a message', async () => {
    const { t, origin } = await buildListeningApp();
    const instance = await createInstance(t.app);
    const { key } = await createCustomerWithNumber(t.app, 'Acme', '+14155550199', instance.id);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(origin) && !url.startsWith('data:')) elsewhere.push(url);
    });

    await page.goto(`${origin}/docs`);
    await page.getByText('Send a message').first().waitFor({ timeout: 20_000 });
    for (const group of ['Messages', 'Chats', 'Webhooks', 'WhatsApp', 'Events']) {
      await expect(page.getByText(group, { exact: true }).first().isVisible()).resolves.toBe(true);
    }
    await expect(page.getByText('List messages').first().isVisible()).resolves.toBe(true);
    if (SCREENSHOT) {
      await page.screenshot({
        path: join(dirname(findUp('docs/decisions.md', __dirname)), 'images', 'api-reference.png'),
      });
    }

    await page.goto(`${origin}/docs#tag/messages/POST/v1/messages`);
    await page.getByRole('button', { name: 'Test Request' }).first().click();
    await page.getByPlaceholder('Token').first().fill(key);
    const answer = page.waitForResponse(
      (response) =>
        response.url() === `${origin}/v1/messages` && response.request().method() === 'POST',
    );
    await page
      .getByRole('button', { name: /^Send post request/ })
      .first()
      .click();
    const response = await answer;
    expect(response.status()).toBe(202);
    const sent = (await response.json()) as { data: { id: string; to: string } };
    expect(sent.data.to).toBe('+14155550100');

    // The message exists for the customer whose key was entered.
    const stored = await t.app.inject({
      url: `/v1/messages/${sent.data.id}`,
      headers: bearer(key),
    });
    expect(stored.statusCode).toBe(200);
    expect(elsewhere).toEqual([]);
    await page.close();
    // The reference is a 3 MB script rendered by a real browser: ~18 s on a loaded host.
  }, 90_000);

  it('serves the reference’s script itself', async () => {
    const { t } = await buildListeningApp();
    const page = await t.app.inject({ url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const scripts = [...page.body.matchAll(/src="([^"]+)"/g)].map((match) => match[1]);
    expect(scripts).toEqual(['/docs/js/scalar.js']);
    expect(page.body).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    const script = await t.app.inject({ url: '/docs/js/scalar.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.rawPayload.length).toBeGreaterThan(1_000_000);
    expect((await t.app.inject({ url: '/docs/js/missing.js' })).statusCode).toBe(404);
  });
});
