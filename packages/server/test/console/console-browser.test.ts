import { gzipSync } from 'node:zlib';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomerWithNumber, createInstance } from '../support/admin-helpers';
import { seedMessages } from '../support/bulk-messages';
import { launchChromium } from '../support/chromium';
import {
  expectAccessible as expectPageAccessible,
  saveScreenshot,
  sessionEntries,
  signIn as signInAs,
  timeToRows,
} from '../support/console-page';
import { buildListeningApp } from '../support/listening-app';
import { ADMIN_TOKEN, bearer, bodyOf, type TestApp } from '../support/test-app';
import { receiver } from '../webhooks/webhook-test-support';

/** The first load's budget: JavaScript and CSS, gzip. */
const FIRST_LOAD_BUDGET_BYTES = 150 * 1024;
/** The messages page's budget: its first page shown within this, for a customer with 100,000. */
const FIRST_PAGE_BUDGET_MS = 1_000;
const LARGE_HISTORY = 100_000;

let browser: Browser;
let page: Page;
let t: TestApp;
let origin: string;
/** Requests to anywhere but the server, and CSP violations the page reported. */
const elsewhere: string[] = [];
const cspViolations: string[] = [];

beforeAll(async () => {
  ({ t, origin } = await buildListeningApp({
    WEBHOOK_POLL_INTERVAL_MS: '20',
    WEBHOOK_TIMEOUT_MS: '2000',
  }));
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(10_000);
  page.on('request', (request) => {
    if (!request.url().startsWith(origin)) elsewhere.push(request.url());
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Writes the screenshot `docs/console/<name>.png` when asked to. */
function screenshot(name: string): Promise<void> {
  return saveScreenshot(page, name);
}

/** Checks what the page shows: no serious or critical axe violation, every control reachable by Tab. */
function expectAccessible(): Promise<void> {
  return expectPageAccessible(page);
}

/** Clicks `refresh` until `row` shows (the delivery log is read when asked, not pushed). */
async function refreshUntilShown(row: Locator, refresh: Locator): Promise<void> {
  for (let round = 0; round < 100 && (await row.count()) === 0; round += 1) {
    await refresh.click();
    await page.waitForTimeout(100);
  }
  await row.first().waitFor();
}

/** Signs in with `token` through the sign-in form. */
function signIn(token: string): Promise<void> {
  return signInAs(page, origin, token);
}

// A real browser on two shared cores: each flow gets a minute and a half.
describe('the console in a real browser', { timeout: 90_000 }, () => {
  let key = '';

  it('loads within its budget, from the server alone, under its CSP', async () => {
    const sizes: number[] = [];
    const assets: Promise<void>[] = [];
    page.on('response', (response) => {
      if (/\.(js|css)$/.test(response.url())) {
        assets.push(response.body().then((body) => void sizes.push(gzipSync(body).length)));
      }
    });
    await page.goto(`${origin}/console`);
    await page.getByRole('heading', { name: 'Switchboard console' }).waitFor();
    await Promise.all(assets);
    page.removeAllListeners('response');
    const total = sizes.reduce((sum, size) => sum + size, 0);
    console.info(`console first load: ${sizes.length} files, ${total} bytes gzip of JS+CSS`);
    expect(sizes.length).toBeGreaterThanOrEqual(2);
    expect(total).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
    await screenshot('sign-in');
    await expectAccessible();
    // A wrong token is refused, with the reason, and nothing is kept.
    await page.getByLabel('Operator token or API key').fill('sk_wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(await sessionEntries(page)).toBe(0);
  });

  it('lets the operator create a simulator instance, a customer, its key and its number', async () => {
    await signIn(ADMIN_TOKEN);
    await page.getByRole('heading', { name: 'Service health' }).waitFor();
    await page.getByText('database').waitFor();
    await expectAccessible();

    await page.getByRole('link', { name: 'Instances' }).click();
    await page.getByLabel('Name').fill('Lab simulator');
    await page.getByLabel('Provider').selectOption('simulator');
    // The form is the contract's config schema: its secret is a password field.
    expect(await page.getByLabel('ingressSecret').getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'Create instance' }).click();
    await page.getByRole('heading', { name: 'Lab simulator' }).waitFor();
    expect(await page.getByLabel('Ingress URL').inputValue()).toMatch(
      new RegExp(`^${origin}/providers/`),
    );
    await screenshot('instances');
    await expectAccessible();

    await page.getByRole('link', { name: 'Customers' }).click();
    await page.getByLabel('Name').fill('Acme <b>Corp</b>');
    await page.getByRole('button', { name: 'Create customer' }).click();
    // Customer strings are text, never markup.
    await page.getByRole('link', { name: 'Acme <b>Corp</b>' }).waitFor();
    await page.getByRole('button', { name: 'Create an API key' }).click();
    key = await page.getByLabel(/New API key/).inputValue();
    expect(key).toMatch(/^sk_/);
    await page.getByLabel('Phone number (E.164)').fill('+14155550100');
    await page.getByRole('button', { name: 'Assign number' }).click();
    await page.getByText('+14155550100 on Lab simulator').waitFor();
    await screenshot('customers');
    await expectAccessible();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Switchboard console' }).waitFor();
    expect(await sessionEntries(page)).toBe(0);
  });

  it('shows a customer its messages, and each message with its timeline and routing trace', async () => {
    const sent = await t.app.inject({
      method: 'POST',
      url: '/v1/messages',
      headers: bearer(key),
      payload: { to: '+14155550123', content: { text: 'Hello <script>alert(1)</script>' } },
    });
    expect(sent.statusCode, sent.body).toBe(202);
    const id = bodyOf<{ data: { id: string } }>(sent).data.id;
    // Another customer's message on another number: the key must never see it.
    const instance = await createInstance(t.app, 'other simulator');
    const other = await createCustomerWithNumber(t.app, 'Globex', '+14155550177', instance.id);
    const hidden = await t.app.inject({
      method: 'POST',
      url: '/v1/messages',
      headers: bearer(other.key),
      payload: { to: '+14155550124', content: { text: 'Globex only' } },
    });
    expect(hidden.statusCode).toBe(202);
    const hiddenId = bodyOf<{ data: { id: string } }>(hidden).data.id;

    await signIn(key);
    await page.getByRole('link', { name: 'Messages' }).click();
    const row = page.getByRole('row').filter({ hasText: '+14155550123' });
    await row.waitFor();
    expect(await row.getByText('Hello <script>alert(1)</script>').count()).toBe(1);
    expect(await page.getByText('Globex only').count()).toBe(0);
    expect(await page.getByRole('row').count()).toBe(2);
    await screenshot('messages');
    await expectAccessible();

    await row.getByRole('link').click();
    await page.getByRole('heading', { name: `Message ${id}` }).waitFor();
    await page.getByRole('list', { name: 'Timeline' }).getByText('queued').first().waitFor();
    // The trace shows what GET /v1/messages/{id}/routing answers.
    const routing = await t.app.inject({ url: `/v1/messages/${id}/routing`, headers: bearer(key) });
    const trace = page.getByRole('region', { name: 'Routing trace' });
    expect(routing.statusCode).toBe(200);
    const steps = bodyOf<{ data: { steps: { detail: string }[] } }>(routing).data.steps;
    expect(steps.length).toBeGreaterThan(0);
    // The first step was recorded when the message was first tried, before the page asked.
    await trace
      .getByText((steps[0] as { detail: string }).detail)
      .first()
      .waitFor();
    // The events it emitted, each with its deliveries: no webhook yet.
    const events = page.getByRole('region', { name: 'Events and their deliveries' });
    await events.getByText('message.queued').first().waitFor();
    await events.getByText('Delivered to no webhook.').first().waitFor();
    await screenshot('message');
    await expectAccessible();

    // Another customer's message is not found for this key.
    await page.goto(`${origin}/console#/messages/${hiddenId}`);
    // Both the message and its events answer NOT_FOUND: two alerts.
    await page.getByRole('alert').getByText('NOT_FOUND').first().waitFor();
    expect(elsewhere).toEqual([]);
    expect(cspViolations).toEqual([]);
  });

  it('redelivers a failed webhook delivery once the receiver is fixed', async () => {
    let healthy = false;
    const hook = await receiver((_request, response) => {
      response.writeHead(healthy ? 200 : 500).end(healthy ? 'ok' : 'receiver down');
    });
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Receiver URL').fill(`${hook.origin}/hook`);
    await page.getByRole('button', { name: 'Register webhook' }).click();
    expect(await page.getByLabel(/Signing secret/).inputValue()).toMatch(/^whsec_/);
    const label = `${hook.origin}/hook`;
    await page.getByRole('button', { name: `Send a test event to ${label}` }).click();
    const log = page.getByRole('table', { name: `Deliveries of ${label}` });
    const refresh = page.getByRole('button', { name: `Refresh the delivery log of ${label}` });
    // The row shows the receiver's own answer beside its status.
    const failed = log
      .getByRole('row')
      .filter({ hasText: 'test' })
      .filter({ hasText: '500' })
      .filter({ hasText: 'receiver down' });
    await refreshUntilShown(failed, refresh);
    await expectAccessible();

    healthy = true;
    await failed
      .first()
      .getByRole('button', { name: /^Redeliver/ })
      .click();
    const redelivered = log
      .getByRole('row')
      .filter({ hasText: 'redelivery' })
      .filter({ hasText: 'delivered' })
      .filter({ hasText: '200' });
    await refreshUntilShown(redelivered, refresh);
    expect(hook.requests.length).toBe(2);
    await screenshot('webhooks');
    await expectAccessible();

    // A message sent now shows, on its page, its events and each one's delivery to the webhook.
    const sent = await t.app.inject({
      method: 'POST',
      url: '/v1/messages',
      headers: bearer(key),
      payload: { to: '+14155550125', content: { text: 'Tracked' } },
    });
    expect(sent.statusCode, sent.body).toBe(202);
    const id = bodyOf<{ data: { id: string } }>(sent).data.id;
    await page.goto(`${origin}/console#/messages/${id}`);
    const events = page.getByRole('region', { name: 'Events and their deliveries' });
    const queued = events
      .getByRole('table', { name: `message.queued to ${label}` })
      .getByRole('row')
      .filter({ hasText: 'delivered' })
      .filter({ hasText: '200' });
    await refreshUntilShown(queued, events.getByRole('button', { name: 'Refresh the events' }));
    await queued
      .first()
      .getByRole('button', { name: /^Redeliver/ })
      .click();
    const again = events
      .getByRole('table', { name: `message.queued to ${label}` })
      .getByRole('row')
      .filter({ hasText: 'redelivery' })
      .filter({ hasText: 'delivered' });
    await refreshUntilShown(again, events.getByRole('button', { name: 'Refresh the events' }));
    await screenshot('message-events');
    await expectAccessible();
  });

  it(`shows the first page of a customer with ${LARGE_HISTORY} messages within ${FIRST_PAGE_BUDGET_MS} ms`, async () => {
    const instance = await createInstance(t.app, 'bulk simulator');
    const bulk = await createCustomerWithNumber(t.app, 'Bulk', '+14155550188', instance.id);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/v1/messages',
      headers: bearer(bulk.key),
      payload: { to: '+14155550125', content: { text: 'Newest' } },
    });
    const id = bodyOf<{ data: { id: string } }>(sent).data.id;
    const seeding = performance.now();
    await seedMessages(t, id, LARGE_HISTORY - 1);
    console.info(
      `seeded ${LARGE_HISTORY - 1} messages in ${Math.round(performance.now() - seeding)} ms`,
    );

    await signIn(bulk.key);
    // Measured in the page: from the click on Messages to its 50 rows in the document.
    const elapsed = await timeToRows(
      page,
      'a[href="#/messages"]',
      'table[aria-label="Messages"] tbody tr',
      50,
    );
    console.info(
      `messages page, ${LARGE_HISTORY} messages: first page in ${Math.round(elapsed)} ms`,
    );
    expect(await page.getByRole('row').count()).toBe(51);
    expect(elapsed).toBeLessThan(FIRST_PAGE_BUDGET_MS);
    // The next page is the server's too.
    await page.getByRole('button', { name: 'Next page' }).click();
    await page
      .getByRole('button', { name: 'Previous page' })
      .and(page.locator(':enabled'))
      .waitFor();
    expect(await page.getByRole('row').count()).toBe(51);

    // The operator's search across customers meets the same budget over the same history.
    await signIn(ADMIN_TOKEN);
    const operatorElapsed = await timeToRows(
      page,
      'a[href="#/messages"]',
      'table[aria-label="Messages"] tbody tr',
      50,
    );
    console.info(`operator messages page: first page in ${Math.round(operatorElapsed)} ms`);
    expect(operatorElapsed).toBeLessThan(FIRST_PAGE_BUDGET_MS);
  }, 180_000);
});
