import { Switchboard } from '@switchboard/sdk';
import { runGroupChat } from './group-chat';

// The API key and server come from SWITCHBOARD_API_KEY and SWITCHBOARD_BASE_URL.
const client = new Switchboard();

// Simulator numbers (docs/simulator.md): messages to groups are delivered.
const { chat, message } = await runGroupChat(client, {
  participants: ['+12125550104', '+12125550105'],
  name: 'Dinner club',
  newName: 'Dinner club 🍝',
  newParticipant: '+12125550106',
  text: 'Friday at 8?',
  log: (line) => console.log(`- ${line}`),
});

console.log(`\n${chat.name}: ${chat.participants.length} members`);
// Give the simulator a moment, then show how far the message got.
await new Promise((resolve) => setTimeout(resolve, 2_000));
const latest = await client.messages.get(message.id);
console.log(`${latest.id} ${latest.status} on ${latest.channel}`);
