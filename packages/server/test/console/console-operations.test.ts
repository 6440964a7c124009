import type { Instance } from '@switchboard/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, adminPost, createCustomerWithNumber } from '../support/admin-helpers';
import { launchChromium } from '../support/chromium';
import { expectAccessible, saveScreenshot, signIn } from '../support/console-page';
import { buildListeningApp } from '../support/listening-app';
import { ADMIN_TOKEN, bearer, bodyOf, type TestApp } from '../support/test-app';

let browser: Browser;
let page: Page;
let t: TestApp;
let origin: string;
let instance: Instance;
let acme: { customerId: string; key: string };
let globex: { customerId: string; key: string };

beforeAll(async () => {
  ({ t, origin } = await buildListeningApp());
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(10_000);
  instance = await adminPost<Instance>(t.app, '/admin/v1/instances', {
    name: 'Lab simulator',
    provider: 'simulator',
    config: { ingressSecret: 'first-secret-1111' },
  });
  acme = await createCustomerWithNumber(t.app, 'Acme', '+14155550100', instance.id);
  globex = await createCustomerWithNumber(t.app, 'Globex', '+14155550177', instance.id);
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Sends `text` to `to` as the customer of `key`; answers the message id. */
async function send(key: string, to: string, text: string): Promise<string> {
  const sent = await t.app.inject({
    method: 'POST',
    url: '/v1/messages',
    headers: bearer(key),
    payload: { to, content: { text } },
  });
  expect(sent.statusCode, sent.body).toBe(202);
  return bodyOf<{ data: { id: string } }>(sent).data.id;
}

/** The instance as the operator API answers it now. */
async function storedInstance(): Promise<Instance> {
  const response = await t.app.inject({
    url: `/admin/v1/instances/${instance.id}`,
    headers: adminHeaders,
  });
  return bodyOf<{ data: Instance }>(response).data;
}

// A real browser on two shared cores: each flow gets a minute and a half.
describe('the console’s operator and sandbox tools in a real browser', { timeout: 90_000 }, () => {
  it("searches every customer's messages for the operator, by customer and channel", async () => {
    await send(acme.key, '+14155550102', 'Acme hello');
    const fallback = await send(acme.key, '+14155550111', 'Acme falls back to SMS');
    await send(globex.key, '+14155550103', 'Globex <i>hello</i>');
    await signIn(page, origin, ADMIN_TOKEN);
    await page.getByRole('link', { name: 'Messages' }).click();
    const table = page.getByRole('table', { name: 'Messages' });
    await table.getByText('Globex <i>hello</i>').waitFor();
    expect(await table.getByRole('row').count()).toBe(4);
    expect(await table.getByRole('row').filter({ hasText: 'Globex' }).count()).toBe(1);
    await saveScreenshot(page, 'operator-messages');
    await expectAccessible(page);

    await page.getByLabel('Customer').selectOption({ label: 'Acme' });
    await page.getByRole('button', { name: 'Search' }).click();
    await table.getByRole('row').nth(2).waitFor();
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    expect(await table.getByText('Globex <i>hello</i>').count()).toBe(0);
    // Once the fallback went out as SMS, the channel filter finds it alone.
    await page.getByLabel('Channel').selectOption('sms');
    // The whole answer is awaited: until a search's answer arrives, the table still shows the
    // previous one's rows, the fallback among them.
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Search' }).click();
        const rows = await table.getByRole('row').count();
        const hit = await table
          .getByRole('row')
          .filter({ hasText: 'Acme falls back to SMS' })
          .count();
        return rows === 2 && hit === 1;
      })
      .toBe(true);

    // The row opens the message through the operator's routes: its customer, its routing trace
    // and the events it emitted.
    await table
      .getByRole('row')
      .filter({ hasText: 'Acme falls back to SMS' })
      .getByRole('link')
      .click();
    await page.getByRole('heading', { name: `Message ${fallback}` }).waitFor();
    await page.getByRole('link', { name: 'Acme' }).waitFor();
    await page
      .getByRole('region', { name: 'Routing trace' })
      .getByRole('listitem')
      .first()
      .waitFor();
    const events = page.getByRole('region', { name: 'Events and their deliveries' });
    await events.getByText('message.queued').first().waitFor();
    await events.getByText('message.fallback').first().waitFor();
    expect(await events.getByRole('button', { name: /^Redeliver/ }).count()).toBe(0);
    await saveScreenshot(page, 'operator-message');
    await expectAccessible(page);
    // An unknown message answers the API's refusal.
    await page.goto(`${origin}/console#/messages/msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e`);
    await page.getByRole('alert').getByText('NOT_FOUND').first().waitFor();
    await page.goto(`${origin}/console#/messages`);
  });

  it('shows the last hour at a glance on the Overview', async () => {
    await page.getByRole('link', { name: 'Overview' }).click();
    const lastHour = page.getByRole('region', { name: 'The last hour' });
    await lastHour.getByText('Accepted').waitFor();
    // The counts are the database's: three messages accepted so far.
    await expect
      .poll(() => lastHour.locator('dt:text-is("Accepted") + dd').textContent())
      .toBe('3');
    await saveScreenshot(page, 'overview');
    await expectAccessible(page);
  });

  it('edits an instance: a blank secret keeps the stored one, a typed one replaces it', async () => {
    const before = await storedInstance();
    await page.getByRole('link', { name: 'Instances' }).click();
    await page.getByRole('button', { name: 'Edit Lab simulator' }).click();
    const form = page.getByRole('form', { name: 'Edit Lab simulator' });
    const secret = form.getByLabel('ingressSecret');
    expect(await secret.getAttribute('type')).toBe('password');
    expect(await secret.inputValue()).toBe('');
    await form.getByText(`Stored: ${before.config.ingressSecret as string}`).waitFor();
    await form.getByLabel('Name').fill('Lab simulator 2');
    await saveScreenshot(page, 'instance-edit');
    await expectAccessible(page);
    await form.getByRole('button', { name: /^Save/ }).click();
    await page.getByRole('heading', { name: 'Lab simulator 2' }).waitFor();
    const renamed = await storedInstance();
    expect(renamed.name).toBe('Lab simulator 2');
    expect(renamed.config.ingressSecret).toBe(before.config.ingressSecret);

    await page.getByRole('button', { name: 'Edit Lab simulator 2' }).click();
    const again = page.getByRole('form', { name: 'Edit Lab simulator 2' });
    await again.getByLabel('ingressSecret').fill('second-secret-2222');
    await again.getByRole('button', { name: /^Save/ }).click();
    await expect.poll(async () => (await storedInstance()).config.ingressSecret).toMatch(/2222$/);
    // The ingress token rotates from the same card.
    const ingress = renamed.ingressUrl;
    await page.getByRole('button', { name: 'Rotate the ingress token of Lab simulator 2' }).click();
    await expect.poll(async () => (await storedInstance()).ingressUrl).not.toBe(ingress);
  });

  it('tails a customer’s events live, filtered and pausable, texts as text', async () => {
    await signIn(page, origin, acme.key);
    await page.getByRole('link', { name: 'Live tail' }).click();
    await page.getByText('Stream connected, every type').waitFor();
    const events = page.getByRole('list', { name: 'Events' });
    await send(acme.key, '+14155550102', 'Tail <b>one</b>');
    await events.getByText('message.queued').first().waitFor();
    await events.getByText('Tail <b>one</b>').first().waitFor();
    expect(await events.locator('b').count()).toBe(0);

    await page.getByLabel('Event type').selectOption('message.read');
    await page.getByText('Stream connected, message.read only').waitFor();
    await send(acme.key, '+14155550102', 'Tail two');
    await events.getByText('message.read').first().waitFor();
    expect(await events.getByText('message.queued').count()).toBe(0);
    await saveScreenshot(page, 'live-tail');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Pause' }).click();
    const shown = await events.getByRole('listitem').count();
    await send(acme.key, '+14155550102', 'Tail three');
    await page.getByText('paused, 1 held').waitFor();
    expect(await events.getByRole('listitem').count()).toBe(shown);
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => events.getByRole('listitem').count()).toBe(shown + 1);
  });

  it('drives the simulator from the Sandbox: inbound, reaction, typing, status', async () => {
    const sent = await send(acme.key, '+14155550155', 'A message to receipt');
    await page.getByRole('link', { name: 'Sandbox' }).click();
    await page.getByLabel('Your number').selectOption('+14155550100');
    await page.getByLabel('Text').fill('Hi <script>x</script>');
    await page.getByRole('button', { name: 'Receive the message' }).click();
    const done = page.getByRole('status');
    await done.getByText('"messageId"').waitFor();
    const inbound = await t.app.inject({ url: '/v1/messages', headers: bearer(acme.key) });
    const listed = bodyOf<{
      data: { messages: { direction: string; content: { text: string } }[] };
    }>(inbound).data.messages;
    expect(
      listed.some((m) => m.direction === 'inbound' && m.content.text === 'Hi <script>x</script>'),
    ).toBe(true);

    await page.getByLabel('Message id').fill(sent);
    await page.getByRole('button', { name: 'React' }).click();
    await done.getByText(sent).first().waitFor();
    await page.getByRole('button', { name: 'Typing: start' }).click();
    await done.getByText('"status": "start"').waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('read');
    await page.getByRole('button', { name: 'Report the status' }).click();
    await done.getByText('"status": "read"').waitFor();
    await saveScreenshot(page, 'sandbox');
    await expectAccessible(page);
    // A number not served by the simulator is refused, the reason shown.
    await page.getByLabel('Your number').selectOption('');
    await page.getByRole('button', { name: 'Receive the message' }).click();
    await page.getByRole('alert').waitFor();
  });
});
