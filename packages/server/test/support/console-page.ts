import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { findUp } from '../../src/find-up';

const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

/** An axe-core violation, as the test reports it. */
export interface AxeFinding {
  id: string;
  impact: string | null;
  nodes: string[];
}

/**
 * The serious and critical accessibility violations of what `page` shows (axe-core, WCAG 2 A and
 * AA and best practices). axe is evaluated through the DevTools protocol, which the page's CSP
 * does not apply to: the console itself never allows an inline script.
 */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  await page.evaluate(axeSource);
  // A string, run in the page: the server's TypeScript has no DOM types.
  const found = (await page.evaluate(`axe
    .run(document, {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
      },
    })
    .then((result) =>
      result.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        nodes: violation.nodes.map((node) => JSON.stringify(node.target)),
      })),
    )`)) as AxeFinding[];
  return found.filter((finding) => finding.impact === 'serious' || finding.impact === 'critical');
}

/** What the page keeps in `sessionStorage`: how many entries. */
export async function sessionEntries(page: Page): Promise<number> {
  return (await page.evaluate('sessionStorage.length')) as number;
}

/**
 * Milliseconds, timed in the page, from a click on `link` to `count` elements matching `rows` in
 * the document. Fails after `timeoutMs`, saying how many rows showed and what the page alerted.
 */
export async function timeToRows(
  page: Page,
  link: string,
  rows: string,
  count: number,
  timeoutMs = 30_000,
): Promise<number> {
  const result = (await page.evaluate(`new Promise((resolve) => {
    const start = performance.now();
    const found = () => document.querySelectorAll(${JSON.stringify(rows)}).length;
    const observer = new MutationObserver(() => {
      if (found() < ${count}) return;
      observer.disconnect();
      resolve(performance.now() - start);
    });
    observer.observe(document.body, { childList: true, subtree: true });
    setTimeout(() => {
      observer.disconnect();
      const alerts = [...document.querySelectorAll('[role="alert"]')].map((a) => a.textContent);
      resolve('after ' + ${timeoutMs} + ' ms at ' + location.hash + ': ' + found() + ' rows; alerts: ' + JSON.stringify(alerts));
    }, ${timeoutMs});
    document.querySelector(${JSON.stringify(link)}).click();
  })`)) as number | string;
  if (typeof result === 'string') throw new Error(`${count} rows never showed, ${result}`);
  return result;
}

/**
 * The interactive elements of the page that Tab never reaches: pressing Tab, a few times per
 * element (a date-time input takes one stop per part, and Tab starts after the last control
 * clicked, then wraps around), must focus each of them.
 */
export async function unreachableByKeyboard(page: Page): Promise<string[]> {
  const selector =
    'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), summary, textarea';
  const names = await page.$$eval(selector, (elements) =>
    elements.map((element, index) => {
      element.setAttribute('data-focus-probe', String(index));
      return `${element.tagName.toLowerCase()}#${element.id || index}:${(element.textContent ?? '').trim().slice(0, 30)}`;
    }),
  );
  await page.evaluate('document.activeElement && document.activeElement.blur()');
  const reached = new Set<string>();
  for (let press = 0; press < names.length * 8 + 3 && reached.size < names.length; press += 1) {
    await page.keyboard.press('Tab');
    const probe = (await page.evaluate(
      "document.activeElement && document.activeElement.getAttribute('data-focus-probe')",
    )) as string | null;
    if (probe) reached.add(probe);
  }
  return names.filter((_name, index) => !reached.has(String(index)));
}

/**
 * Writes a screenshot of `page` to `docs/console/<name>.png` when `UPDATE_SCREENSHOTS=1` (the
 * console's docs and the README show them, so they stay true).
 */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  const dir = join(dirname(findUp('docs/console.md', __dirname)), 'console');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

/** Checks what the page shows: no serious or critical axe violation, every control reachable by Tab. */
export async function expectAccessible(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
  expect(await unreachableByKeyboard(page)).toEqual([]);
}

/** Signs in with `token` through the sign-in form of the console at `origin`. */
export async function signIn(page: Page, origin: string, token: string): Promise<void> {
  await page.goto(`${origin}/console`);
  const signOut = page.getByRole('button', { name: 'Sign out' });
  if (await signOut.isVisible()) await signOut.click();
  await page.getByLabel('Operator token or API key').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}
