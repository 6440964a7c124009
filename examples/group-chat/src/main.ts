import { existsSync } from 'node:fs';
import { resolveServerUrl, Switchboard } from '@switchboard/sdk';
import { runGroupChat } from './group-chat';

// The repository's .env (the server's own settings) applies here too; the environment wins.
const serverEnv = new URL('../../../.env', import.meta.url);
if (existsSync(serverEnv)) process.loadEnvFile(serverEnv);
// The API key comes from SWITCHBOARD_API_KEY; the server is found as every Switchboard tool finds
// it: SWITCHBOARD_URL, else PUBLIC_BASE_URL, else the server's HOST and PORT.
const client = new Switchboard({ baseUrl: resolveServerUrl(process.env) });

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
