import { useState } from 'preact/hooks';
import { customerClient, operatorClient } from '../clients';
import type { Session } from '../session';
import { messageOf } from '../use-load';

/**
 * What `token` opens: the operator API (it lists customers), else the customer API (it lists the
 * key's numbers); throws when it opens neither.
 */
async function identify(token: string): Promise<Session> {
  const operator = await operatorClient(token).listCustomers();
  if (operator.status === 200) return { kind: 'operator', token };
  await customerClient(token).numbers.list();
  return { kind: 'customer', token };
}

/** Sign in with the operator token or a customer API key. */
export function SignInPage({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onSignedIn(await identify(token.trim()));
    } catch (failure) {
      setError(`Not signed in: ${messageOf(failure)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="sign-in">
      <h1>Switchboard console</h1>
      <form onSubmit={submit}>
        <label for="token">Operator token or API key</label>
        <input
          id="token"
          type="password"
          autocomplete="off"
          required
          value={token}
          onInput={(event) => setToken(event.currentTarget.value)}
        />
        <p class="hint">
          Kept in this tab only (sessionStorage) and sent as a bearer token; signing out forgets it.
        </p>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
