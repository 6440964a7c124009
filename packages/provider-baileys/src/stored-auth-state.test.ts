import { MemoryProviderStateStore } from '@switchboard/provider-kit';
import { BufferJSON, initAuthCreds, proto } from 'baileys';
import { describe, expect, it } from 'vitest';
import {
  authPrefix,
  loadStoredAuthState,
  storedAccountJid,
  wipeAuthState,
} from './stored-auth-state';

describe('stored Baileys auth state', () => {
  it('starts with fresh credentials, saves them and reads them back byte for byte', async () => {
    const store = new MemoryProviderStateStore();
    const first = await loadStoredAuthState(store, '+14155550100');
    expect(first.stored).toBe(false);
    first.state.creds.me = { id: '14155550100:3@s.whatsapp.net', name: 'Ana' };
    await first.saveCreds();
    const again = await loadStoredAuthState(store, '+14155550100');
    expect(again.stored).toBe(true);
    expect(JSON.stringify(again.state.creds, BufferJSON.replacer)).toBe(
      JSON.stringify(first.state.creds, BufferJSON.replacer),
    );
    expect(Buffer.isBuffer(again.state.creds.noiseKey.private)).toBe(true);
    expect(await storedAccountJid(store, '+14155550100')).toBe('14155550100:3@s.whatsapp.net');
  });

  it('writes one keys.set batch in one setMany, deletes nulls, and revives app-state keys as protos', async () => {
    const writes: number[] = [];
    const store = new (class extends MemoryProviderStateStore {
      override setMany(changes: ReadonlyMap<string, string | null>): Promise<void> {
        writes.push(changes.size);
        return super.setMany(changes);
      }
    })();
    const { state } = await loadStoredAuthState(store, '+14155550100');
    const keyPair = initAuthCreds().signedIdentityKey;
    await state.keys.set({
      'pre-key': { '1': keyPair, '2': keyPair },
      session: { 'a.0': new Uint8Array([1, 2, 3]) },
      'app-state-sync-key': { k1: { keyData: new Uint8Array([7]), timestamp: 5 } },
    });
    expect(writes).toEqual([4]);
    const got = await state.keys.get('pre-key', ['1', '2', '3']);
    expect(Object.keys(got)).toEqual(['1', '2']);
    expect(Buffer.from(got['1']?.public ?? []).equals(Buffer.from(keyPair.public))).toBe(true);
    const sessions = await state.keys.get('session', ['a.0']);
    expect([...(sessions['a.0'] ?? [])]).toEqual([1, 2, 3]);
    const appKeys = await state.keys.get('app-state-sync-key', ['k1']);
    expect(appKeys.k1).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    await state.keys.set({ 'pre-key': { '1': null } });
    expect(Object.keys(await state.keys.get('pre-key', ['1', '2']))).toEqual(['2']);
  });

  it('keeps sessions of different numbers apart and wipes one without the other', async () => {
    const store = new MemoryProviderStateStore();
    for (const number of ['+14155550100', '+141555501']) {
      const auth = await loadStoredAuthState(store, number);
      await auth.saveCreds();
      await auth.state.keys.set({ session: { x: new Uint8Array([1]) } });
    }
    await wipeAuthState(store, '+141555501');
    expect(await store.keys(authPrefix('+141555501'))).toEqual([]);
    expect((await store.keys(authPrefix('+14155550100'))).length).toBe(2);
  });
});
