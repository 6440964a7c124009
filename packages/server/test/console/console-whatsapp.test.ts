import type { Instance } from '@switchboard/contract';
import type { FakeWhatsAppNetwork } from '@switchboard/provider-baileys/fake-socket';
import { freeLoopbackPort } from '@switchboard/testing';
import jsQR from 'jsqr';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPost, createCustomerWithNumber } from '../support/admin-helpers';
import { launchChromium } from '../support/chromium';
import { saveScreenshot, seriousViolations, unreachableByKeyboard } from '../support/console-page';
import { fakeWhatsApp, fakeWhatsAppGateway } from '../support/fake-whatsapp-gateway';
import { bearer, bodyOf, type TestApp } from '../support/test-app';

/** The number paired, on the fake WhatsApp. */
const WA = '+14155550170';

let browser: Browser;
let page: Page;
let t: TestApp;
let origin: string;
let network: FakeWhatsAppNetwork;

beforeAll(async () => {
  network = fakeWhatsApp([{ phoneNumber: WA, lid: '90000000000170@lid' }]);
  const port = await freeLoopbackPort();
  origin = `http://127.0.0.1:${port}`;
  t = await fakeWhatsAppGateway(network, { env: { PUBLIC_BASE_URL: origin } });
  await t.app.listen({ port, host: '127.0.0.1' });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(15_000);
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Reads the QR code the page shows, as a phone's camera would: from its pixels. */
async function scanFromScreen(): Promise<string> {
  const shot = PNG.sync.read(
    await page.getByRole('img', { name: `Pairing QR code for ${WA}` }).screenshot(),
  );
  const decoded = jsQR(new Uint8ClampedArray(shot.data), shot.width, shot.height);
  if (!decoded) throw new Error('no QR code could be read from the page');
  return decoded.data;
}

describe('WhatsApp pairing in the console', { timeout: 90_000 }, () => {
  it('shows the live QR code of a number on the fake WhatsApp; scanning it connects the number', async () => {
    const instance = await adminPost<Instance>(t.app, '/admin/v1/instances', {
      name: 'whatsapp',
      provider: 'baileys',
      channels: ['whatsapp'],
    });
    const { key } = await createCustomerWithNumber(t.app, 'Acme', WA, instance.id);

    await page.goto(`${origin}/console`);
    await page.getByLabel('Operator token or API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'WhatsApp' }).click();
    await page.getByRole('button', { name: `Enable WhatsApp on ${WA}` }).click();
    await page.getByRole('img', { name: `Pairing QR code for ${WA}` }).waitFor();

    // The code on the screen is the session's current one, as the API answers it.
    const shown = await scanFromScreen();
    const path = `/v1/whatsapp/numbers/${encodeURIComponent(WA)}/qr`;
    const current = await t.app.inject({ url: path, headers: bearer(key) });
    expect(shown).toBe(bodyOf<{ data: { qrCode: string } }>(current).data.qrCode);
    await saveScreenshot(page, 'whatsapp');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await unreachableByKeyboard(page)).toEqual([]);

    // The phone scans it: the page follows the session to connected, and the code goes away.
    await network.scanQr(WA);
    await page.getByRole('status').filter({ hasText: 'connected' }).waitFor();
    expect(await page.getByRole('img', { name: `Pairing QR code for ${WA}` }).count()).toBe(0);
  });
});
