import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freeLoopbackPort } from '@switchboard/testing';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { createCustomerWithNumber, createInstance } from '../support/admin-helpers';
import { runEntry } from '../support/child-process';
import { buildListeningApp } from '../support/listening-app';
import { buildTestApp, tempDir } from '../support/test-app';

/** Runs a long-running customer command until `until` matches its output, then stops it. */
async function runUntil(
  args: string[],
  env: Record<string, string>,
  until: RegExp,
): Promise<{ code: number; output: string }> {
  const controller = new AbortController();
  let output = '';
  const code = await new Promise<number>((resolve) => {
    const running = runCli(args, {
      env,
      stdout: {
        write: (text: string) => {
          output += text;
          if (until.test(output)) controller.abort();
        },
      },
      stderr: { write: (text: string) => (output += text) },
      signal: controller.signal,
    });
    void running.then(resolve);
  });
  return { code, output };
}

/** A listening server on a free port other than 3000, with a customer who owns a number. */
async function serverWithCustomer() {
  const { t, origin } = await buildListeningApp();
  const instance = await createInstance(t.app);
  const { key } = await createCustomerWithNumber(t.app, 'Acme', '+14155550100', instance.id);
  const port = new URL(origin).port;
  expect(port).not.toBe('3000');
  return { origin, port, key };
}

describe('every CLI command finds the server where its settings say it is', () => {
  it('quickstart prints the address from PORT in .env, and the printed request reaches the server', async () => {
    const dir = tempDir();
    const port = await freeLoopbackPort();
    writeFileSync(join(dir, '.env'), `PORT=${port}\nDATABASE_URL=switchboard.db\n`);
    // `INIT_CWD` is where `pnpm switchboard` was run: the CLI reads its `.env` there.
    const printed = await runEntry('src/cli.ts', ['--create-database', 'quickstart'], {
      INIT_CWD: dir,
    });
    expect(printed.code, printed.stderr).toBe(0);
    const url = /curl -X POST (\S+) /.exec(printed.stdout)?.[1];
    expect(url).toBe(`http://127.0.0.1:${port}/v1/messages`);
    const key = /\b(sk_[0-9A-Za-z]{43})\b/.exec(printed.stdout)?.[1] ?? '';

    const { app } = await buildTestApp({ dir, store: 'sqlite' });
    await app.listen({ host: '127.0.0.1', port });
    const body = /-d '(.+)'$/m.exec(printed.stdout)?.[1] ?? '';
    const sent = await fetch(url ?? '', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    });
    expect(sent.status).toBe(202);
  }, 120_000);

  it('listen finds a server on PORT, on SWITCHBOARD_URL, and on --url', async () => {
    const { origin, port, key } = await serverWithCustomer();
    const listen = ['listen', '--forward-to', 'http://127.0.0.1:9/unused'];
    for (const [args, env] of [
      [listen, { PORT: port }],
      [listen, { SWITCHBOARD_URL: origin, PORT: '1' }],
      [[...listen, '--url', origin], { SWITCHBOARD_URL: 'http://127.0.0.1:1' }],
    ] as const) {
      const run = await runUntil([...args], { SWITCHBOARD_API_KEY: key, ...env }, /Ready:/);
      expect(run.output, JSON.stringify(env)).toContain('Ready: forwarding every event');
      expect(run.code).toBe(0);
    }
  }, 120_000);

  it('whatsapp pair finds a server on HOST:PORT, a wildcard host read as loopback', async () => {
    const { port, key } = await serverWithCustomer();
    const run = await runUntil(
      ['whatsapp', 'pair', '+14155550100'],
      { SWITCHBOARD_API_KEY: key, HOST: '0.0.0.0', PORT: port },
      /[▀▄█]/,
    );
    expect(run.output).toContain('Scan with WhatsApp on the phone of +14155550100');
  });
});
