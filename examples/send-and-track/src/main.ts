import { Switchboard } from '@switchboard/sdk';
import { sendAndTrack, type TrackedEvent } from './send-and-track';

// The API key and server come from SWITCHBOARD_API_KEY and SWITCHBOARD_BASE_URL.
const client = new Switchboard();
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
