import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCustomer, type TestCustomer } from '../support/customers';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server';
import { type SwitchboardServer, startServer } from '../support/switchboard-server';

// The built SDK under real Bun and Deno (installed from the registry as the `bun` and `deno`
// packages): `smoke.mjs` sends a message, follows it on the event stream and verifies a webhook
// delivery the server really made. `dist/` (what ships) is built by the suite's global setup.
const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, '..', '..');
const bin = (name: string) => join(packageDir, 'node_modules', '.bin', name);

let server: SwitchboardServer;
let receiver: LoopbackServer;
let customer: TestCustomer;
let delivery: { to: string; body: string; headers: Record<string, string>; secret: string };

beforeAll(async () => {
  server = await startServer();
  receiver = await startLoopbackServer((_request, response) => {
    response.writeHead(200).end();
  });
  customer = await createCustomer(server, 'Other runtimes', ['+14155550171']);
  const hook = await customer.client.webhooks.create({
    url: `${receiver.baseUrl}/runtimes`,
    events: ['*'],
  });
  const tested = await customer.client.webhooks.test(hook.id);
  const received = await vi.waitFor(() => {
    const found = receiver.requests.find((request) => request.body.includes(tested.eventId));
    if (!found) throw new Error('no delivery yet');
    return found;
  });
  delivery = {
    to: '+12125550171',
    body: received.body,
    headers: Object.fromEntries(
      Object.entries(received.headers).map(([name, value]) => [name, String(value)]),
    ),
    secret: hook.secret ?? '',
  };
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  await server?.close();
});

const runtimes: [string, () => [string, string[]]][] = [
  ['bun', () => [bin('bun'), ['run', join(here, 'smoke.mjs'), JSON.stringify(delivery)]]],
  [
    'deno',
    () => [
      bin('deno'),
      [
        'run',
        '--no-lock',
        '--allow-env',
        '--allow-read',
        '--allow-net=127.0.0.1',
        join(here, 'smoke.mjs'),
        JSON.stringify(delivery),
      ],
    ],
  ],
];

describe('the built SDK on other runtimes', () => {
  it.each(runtimes)(
    'sends, streams and verifies under %s',
    async (runtime, command) => {
      const [file, args] = command();
      const { stdout } = await run(file, args, {
        cwd: packageDir,
        timeout: 60_000,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '/tmp',
          DENO_DIR: join(packageDir, 'node_modules', '.cache', 'deno'),
          NO_COLOR: '1',
          SWITCHBOARD_BASE_URL: server.baseUrl,
          SWITCHBOARD_API_KEY: customer.apiKey,
        },
      });
      expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? '')).toEqual({
        runtime,
        sentStatus: 'queued',
        stream: ['message.sent', 'message.delivered'],
        finalStatus: 'delivered',
        verified: 'webhook.test',
        tampered: 'signature_mismatch',
      });
    },
    90_000,
  );
});
