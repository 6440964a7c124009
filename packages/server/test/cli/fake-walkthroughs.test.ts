import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freeLoopbackPort } from '@switchboard/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { PACKAGE_ROOT } from '../support/child-process';
import { buildTestApp, tempDir } from '../support/test-app';

const REPO_ROOT = join(PACKAGE_ROOT, '..', '..');
const run = promisify(execFile);

/**
 * Each `pnpm fake:*` command prints a walkthrough: `./switchboard …` and `curl …` commands to run
 * in order. These tests start the fake as a user would, then run every printed command against a
 * fresh server on a port that is not 3000 (found through `PORT` alone), so the printout cannot
 * drift from the product: a renamed option, a missing setting or a wrong address fails here.
 */

/** Placeholders the printouts leave to the reader, with no value a walkthrough produces. */
const ILLUSTRATIVE = new Set(['<message GUID>', '<message id>', '<code>']);

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

/** Starts a fake's command and resolves with its printout once `complete` matches it. */
function startFake(args: string[], env: Record<string, string>, complete: RegExp): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (complete.test(output)) resolve(output);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the fake exited with ${code}:\n${output}`)));
  });
}

/** The printed commands, each on one line (a trailing `\` continues it). */
function printedCommands(printout: string): string[] {
  const joined = printout.replace(/\\\n\s*/g, '');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^([A-Z_]+=\S+ )*(\.\/switchboard|curl) /.test(line));
}

/** Splits a command line as sh does for these commands: quotes, escapes, whitespace. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i] ?? '';
    if (char === "'" || char === '"') {
      const end = line.indexOf(char, i + 1);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (char === '\\') {
      word = (word ?? '') + (line[++i] ?? '');
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * Runs the printed commands in order: `./switchboard` through the CLI with `env` (and the
 * command's own `VAR=value` prefixes), `curl` as itself, failing on an HTTP error. The values the
 * printout leaves to the reader are taken from what earlier commands printed.
 * @returns every command's output, in order.
 */
async function runWalkthrough(commands: string[], env: Record<string, string>) {
  const values = new Map<string, string>();
  const outputs: string[] = [];
  for (const printed of commands) {
    let line = printed;
    for (const [placeholder, value] of values) line = line.replaceAll(placeholder, value);
    const unknown = /<[a-zA-Z ]+>/.exec(line)?.[0];
    if (unknown !== undefined) {
      expect(ILLUSTRATIVE, `${unknown} in: ${printed}`).toContain(unknown);
      continue;
    }
    const words = shellWords(line);
    const prefix: Record<string, string> = {};
    while (/^[A-Z_]+=/.test(words[0] ?? '')) {
      const [name, ...value] = (words.shift() ?? '').split('=');
      prefix[name ?? ''] = value.join('=');
    }
    let output = '';
    if (words[0] === './switchboard') {
      const code = await runCli(words.slice(1), {
        env: { ...env, ...prefix },
        stdout: { write: (text: string) => (output += text) },
        stderr: { write: (text: string) => (output += text) },
      });
      expect(code, `${printed}\n${output}`).toBe(0);
    } else {
      const result = await run('curl', ['--fail-with-body', '-sS', ...words.slice(1)]).catch(
        (error: { stdout?: string; stderr?: string }) => {
          throw new Error(`${printed}\n${error.stdout ?? ''}${error.stderr ?? ''}`);
        },
      );
      output = result.stdout;
    }
    outputs.push(output);
    const customerId = /Created customer (\S+)/.exec(output)?.[1];
    if (customerId) values.set('<customerId>', customerId);
    const apiKey = /\b(sk_[0-9A-Za-z]{43})\b/.exec(output)?.[1];
    if (apiKey) values.set('<apiKey>', apiKey);
    const ingress = /ingress URL: (\S+)/.exec(output)?.[1];
    if (ingress) values.set('<ingress URL>', ingress);
  }
  return { outputs, apiKey: values.get('<apiKey>') ?? '' };
}

/** A fresh server on a free port (not 3000), and the environment that names it by `PORT` only. */
async function freshServer() {
  const dir = tempDir();
  const port = await freeLoopbackPort();
  const env = {
    PORT: String(port),
    DATABASE_URL: join(dir, 'switchboard.db'),
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  };
  const t = await buildTestApp({ dir, store: 'sqlite', env });
  await t.app.listen({ host: '127.0.0.1', port });
  return { env, origin: `http://127.0.0.1:${port}` };
}

/** The customer's messages as the API lists them. */
async function messagesOf(origin: string, apiKey: string): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${origin}/v1/messages`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  const body = (await response.json()) as { data: { messages: Array<Record<string, unknown>> } };
  return body.data.messages;
}

describe("the fakes' printed walkthroughs, run in order against a fresh server", () => {
  it('pnpm fake:twilio', { timeout: 90_000 }, async () => {
    const { env, origin } = await freshServer();
    const printout = await startFake(
      ['packages/testing/src/twilio/fake-twilio-cli.ts', '--port', '0', '--step-ms', '20'],
      { PORT: env.PORT },
      /_fake\/messages\n/,
    );
    expect(printout).toContain(`for the Switchboard server at ${origin}`);
    const commands = printedCommands(printout);
    expect(commands.filter((c) => c.includes('./switchboard'))).toHaveLength(4);
    const { outputs, apiKey } = await runWalkthrough(commands, env);
    expect(outputs.at(-1)).toContain('Hello from Switchboard');
    await expect
      .poll(async () => (await messagesOf(origin, apiKey)).map((m) => m.direction), {
        timeout: 10_000,
      })
      .toContain('inbound');
  });

  it('pnpm fake:bluebubbles', { timeout: 90_000 }, async () => {
    const { env, origin } = await freshServer();
    const printout = await startFake(
      ['packages/testing/src/bluebubbles/fake-bluebubbles-cli.ts', '--port', '0'],
      { PORT: env.PORT },
      /_fake\/messages\n/,
    );
    expect(printout).toContain(`for the Switchboard server at ${origin}`);
    expect(printout).toContain('"address":"+14155550130"');
    const { apiKey } = await runWalkthrough(printedCommands(printout), env);
    // The inbound message to the Mac's number reached the customer who owns it.
    await expect
      .poll(async () => (await messagesOf(origin, apiKey)).map((m) => m.direction), {
        timeout: 10_000,
      })
      .toContain('inbound');
  });

  it('pnpm fake:whatsapp', async () => {
    const dir = tempDir();
    const port = await freeLoopbackPort();
    const env = {
      PORT: String(port),
      DATABASE_URL: join(dir, 'switchboard.db'),
      LOG_LEVEL: 'warn',
    };
    const printout = await startFake(
      [
        '--conditions=switchboard-source',
        'packages/server/test/support/fake-whatsapp-server.ts',
        '--control-port',
        '0',
      ],
      env,
      /starts over\.\n/,
    );
    const origin = `http://127.0.0.1:${port}`;
    expect(printout).toContain(`the API on ${origin}`);
    const { outputs, apiKey } = await runWalkthrough(printedCommands(printout), env);
    expect(outputs.at(-2)).toContain('Hello from Switchboard');
    await expect
      .poll(async () => (await messagesOf(origin, apiKey)).map((m) => m.direction), {
        timeout: 10_000,
      })
      .toContain('inbound');
  }, 90_000);
});

describe('--help on every fake', () => {
  it('prints the usage and exits 0; an unknown option prints it and exits 2, without a stack trace', {
    timeout: 240_000,
  }, async () => {
    for (const script of [
      'packages/testing/src/twilio/fake-twilio-cli.ts',
      'packages/testing/src/bluebubbles/fake-bluebubbles-cli.ts',
      'packages/server/test/support/fake-whatsapp-server.ts',
    ]) {
      const args = ['--import', 'tsx', '--conditions=switchboard-source', script];
      const help = await run(process.execPath, [...args, '--help'], { cwd: REPO_ROOT });
      expect(help.stdout, script).toMatch(/^Usage: pnpm fake:/);
      expect(help.stdout, script).toContain('--url <url>');
      const wrong = await run(process.execPath, [...args, '--nope'], { cwd: REPO_ROOT }).catch(
        (error: { code: number; stderr: string }) => error,
      );
      expect('code' in wrong ? wrong.code : 0, script).toBe(2);
      expect('stderr' in wrong ? wrong.stderr : '', script).toMatch(/--nope[\s\S]*Usage:/);
      expect('stderr' in wrong ? wrong.stderr : '', script).not.toMatch(/\n\s+at /);
    }
  });
});
