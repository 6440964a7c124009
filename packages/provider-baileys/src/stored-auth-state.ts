import type { ProviderStateStore } from '@switchboard/provider-kit';
import {
  type AuthenticationCreds,
  type AuthenticationState,
  BufferJSON,
  initAuthCreds,
  proto,
  type SignalDataSet,
  type SignalDataTypeMap,
} from 'baileys';

/** One session's Baileys auth state, kept in the instance's encrypted state store. */
export interface StoredAuthState {
  /** What `makeWASocket` takes as `auth` (wrap `keys` in the cacheable key store). */
  readonly state: AuthenticationState;
  /** True when credentials were stored before (a paired or pairing session). */
  readonly stored: boolean;
  /** Writes the current `creds` (on every `creds.update`). */
  saveCreds(): Promise<void>;
}

/** The state-store key prefix of the session of `phoneNumber`. */
export function authPrefix(phoneNumber: string): string {
  return `whatsapp/${phoneNumber}/`;
}

const CREDS = 'creds';

function keyOf(prefix: string, type: string, id: string): string {
  return `${prefix}keys/${type}/${id}`;
}

function encode(value: unknown): string {
  return JSON.stringify(value, BufferJSON.replacer);
}

function decode<T>(raw: string): T {
  return JSON.parse(raw, BufferJSON.reviver) as T;
}

/**
 * Loads (or starts) the auth state of one session from `store`, under `authPrefix(phoneNumber)`:
 * `creds` as one value and each Signal key by type and id, in Baileys' `BufferJSON` encoding.
 * Keys are read in one batch per `get` and written in one all-or-nothing batch per `set` (a
 * partially written batch is how sessions end in "Bad MAC"). Never the multi-file auth state.
 * @example const auth = await loadStoredAuthState(state, '+14155550100');
 */
export async function loadStoredAuthState(
  store: ProviderStateStore,
  phoneNumber: string,
): Promise<StoredAuthState> {
  const prefix = authPrefix(phoneNumber);
  const raw = await store.get(prefix + CREDS);
  const creds: AuthenticationCreds = raw === undefined ? initAuthCreds() : decode(raw);
  return {
    stored: raw !== undefined,
    state: {
      creds,
      keys: {
        async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
          const found = await store.getMany(ids.map((id) => keyOf(prefix, type, id)));
          const result: { [id: string]: SignalDataTypeMap[T] } = {};
          for (const id of ids) {
            const value = found.get(keyOf(prefix, type, id));
            if (value === undefined) continue;
            let parsed = decode<SignalDataTypeMap[T]>(value);
            if (type === 'app-state-sync-key') {
              parsed = proto.Message.AppStateSyncKeyData.fromObject(
                parsed as object,
              ) as unknown as SignalDataTypeMap[T];
            }
            result[id] = parsed;
          }
          return result;
        },
        async set(data: SignalDataSet) {
          const changes = new Map<string, string | null>();
          for (const [type, values] of Object.entries(data)) {
            for (const [id, value] of Object.entries(values ?? {})) {
              changes.set(keyOf(prefix, type, id), value ? encode(value) : null);
            }
          }
          if (changes.size > 0) await store.setMany(changes);
        },
        async clear() {
          await store.deletePrefix(`${prefix}keys/`);
        },
      },
    },
    saveCreds: () => store.set(prefix + CREDS, encode(creds)),
  };
}

/** The linked account's JID from the stored credentials, when paired. */
export async function storedAccountJid(
  store: ProviderStateStore,
  phoneNumber: string,
): Promise<string | undefined> {
  const raw = await store.get(authPrefix(phoneNumber) + CREDS);
  if (raw === undefined) return undefined;
  return decode<AuthenticationCreds>(raw).me?.id;
}

/** Wipes every credential and key of the session of `phoneNumber` (logged out). */
export function wipeAuthState(store: ProviderStateStore, phoneNumber: string): Promise<void> {
  return store.deletePrefix(authPrefix(phoneNumber));
}
