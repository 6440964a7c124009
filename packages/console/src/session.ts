/** Who is signed in: the operator token (the whole deployment) or one customer's API key. */
type CredentialKind = 'operator' | 'customer';

/** The credential of this tab. */
export interface Session {
  /** What the credential opens. */
  kind: CredentialKind;
  /** The bearer token: `SWITCHBOARD_ADMIN_TOKEN` or a customer's API key. */
  token: string;
}

/** The `sessionStorage` key the credential is kept under (this tab only, gone when it closes). */
const STORAGE_KEY = 'switchboard.console.session';

/** The credential kept by this tab, if any. */
export function loadSession(storage: Storage = sessionStorage): Session | undefined {
  const raw = storage.getItem(STORAGE_KEY);
  if (raw === null) return undefined;
  try {
    const parsed = JSON.parse(raw) as Partial<Session>;
    if ((parsed.kind === 'operator' || parsed.kind === 'customer') && parsed.token) {
      return { kind: parsed.kind, token: parsed.token };
    }
  } catch {
    // A value this console did not write: treat as signed out.
  }
  storage.removeItem(STORAGE_KEY);
  return undefined;
}

/** Keeps the credential in this tab. */
export function saveSession(session: Session, storage: Storage = sessionStorage): void {
  storage.setItem(STORAGE_KEY, JSON.stringify(session));
}

/** Forgets the credential (sign out). */
export function forgetSession(storage: Storage = sessionStorage): void {
  storage.removeItem(STORAGE_KEY);
}
