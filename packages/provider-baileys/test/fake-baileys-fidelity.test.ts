import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemTimerClock } from '@switchboard/provider-kit';
import { initAuthCreds } from 'baileys';
import { describe, expect, it } from 'vitest';
import { ADAPTER_RELIES_ON, FAKE_FIDELITY, type FidelityRow } from './fake-baileys-fidelity';
import { FakeBaileysSocket, FakeWhatsAppNetwork } from './fake-baileys-socket';

const here = dirname(fileURLToPath(import.meta.url));
/** The installed Baileys' compiled code (the package's own node_modules link). */
const baileysLib = join(realpathSync(join(here, '..', 'node_modules', 'baileys')), 'lib');
const fakeSource = readFileSync(join(here, 'fake-baileys-socket.ts'), 'utf8');

/** Members of the fake that are test controls, not part of Baileys' socket. */
const TEST_CONTROLS = new Set([
  'constructor',
  'emit',
  'ended',
  'showingQr',
  'owner',
  'pendingCode',
  'pendingPhone',
  'sent',
]);

/** The socket members the fake implements: its methods and its public fields. */
function fakeSocketMembers(): string[] {
  const network = new FakeWhatsAppNetwork(systemTimerClock);
  const socket = network.socketFactory({
    auth: { creds: initAuthCreds(), keys: { get: async () => ({}), set: async () => {} } },
  }) as FakeBaileysSocket;
  void socket.end(undefined);
  const names = new Set([
    ...Object.getOwnPropertyNames(FakeBaileysSocket.prototype),
    ...Object.keys(socket),
    // Declared without an initial value until the connection opens.
    'user',
  ]);
  return [...names].filter((name) => !TEST_CONTROLS.has(name)).sort();
}

/** The events the fake's source emits. */
function fakeEvents(): string[] {
  const names = [...fakeSource.matchAll(/emit\(\s*'([\w.-]+)'/g)].map((match) => match[1] ?? '');
  return [...new Set(names)].sort();
}

function subjects(rows: readonly FidelityRow[], prefix: 'method' | 'event'): string[] {
  return rows
    .map((row) => row.subject)
    .filter((subject) => subject.startsWith(`${prefix}:`))
    .map((subject) => subject.slice(prefix.length + 1))
    .sort();
}

describe('the fake Baileys socket answers to Baileys 7.0.0-rc14', () => {
  it('has a row for each method it implements, and no row for a method it lacks', () => {
    expect(subjects(FAKE_FIDELITY, 'method')).toEqual(fakeSocketMembers());
  });

  it('has a row for each event it emits, and no row for an event it never emits', () => {
    expect(subjects(FAKE_FIDELITY, 'event')).toEqual(fakeEvents());
  });

  it('cites lines of the installed Baileys that still hold their evidence', () => {
    const stale = [...FAKE_FIDELITY, ...ADAPTER_RELIES_ON].flatMap((row) => {
      const match = /^baileys@7\.0\.0-rc14 lib\/(.+):(\d+)$/.exec(row.upstream);
      if (!match) return [`${row.subject}: unreadable citation ${row.upstream}`];
      const lines = readFileSync(join(baileysLib, match[1] ?? ''), 'utf8').split('\n');
      const line = lines[Number(match[2]) - 1] ?? '';
      return line.includes(row.evidence)
        ? []
        : [`${row.subject}: ${row.upstream} reads "${line.trim()}"`];
    });
    expect(stale).toEqual([]);
  });

  it('names each subject once', () => {
    const all = [...FAKE_FIDELITY, ...ADAPTER_RELIES_ON].map((row) => row.subject);
    expect(all.length).toBe(new Set(all).size);
  });
});
