import { existsSync } from 'node:fs';
import { resolveServerUrl, Switchboard } from '@switchboard/sdk';
import { sendAndTrack, type TrackedEvent } from './send-and-track';

// The repository's .env (the server's own settings) applies here too; the environment wins.
const serverEnv = new URL('../../../.env', import.meta.url);
if (existsSync(serverEnv)) process.loadEnvFile(serverEnv);
// The API key comes from SWITCHBOARD_API_KEY; the server is found as every Switchboard tool finds
// it: SWITCHBOARD_URL, else PUBLIC_BASE_URL, else the server's HOST and PORT.
const client = new Switchboard({ baseUrl: resolveServerUrl(process.env) });
// A simulator number whose last two digits (04) mean "iMessage delivered, then read".
const to = process.argv[2] ?? '+12125550104';

function describe(event: TrackedEvent): string {
  switch (event.type) {
    case 'message.fallback':
      return `${event.data.fromChannel} → ${event.data.toChannel} (${event.data.reason})`;
    case 'message.failed':
      return `${event.data.errorCode}: ${event.data.errorMessage}`;
    default:
      return event.data.channel ?? '';
  }
}

const result = await sendAndTrack(client, {
  to,
  text: 'Hello from the send-and-track example',
  onEvent: (event) =>
    console.log(`${event.timestamp}  ${event.type.padEnd(18)} ${describe(event)}`),
});
console.log(`\n${result.messageId} ${result.status}`);
process.exitCode = result.status === 'delivered' ? 0 : 1;
