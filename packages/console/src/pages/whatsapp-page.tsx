import type { WhatsAppListResponse } from '@switchboard/sdk';
import { useEffect, useState } from 'preact/hooks';
import { customerClient } from '../clients';
import { ActionButton } from '../components/action-button';
import { QrCode } from '../components/qr-code';
import { StatusView } from '../components/status-view';
import { useLoad } from '../use-load';

/** How often a session that is not connected is asked again (its QR code refreshes). */
const POLL_MS = 1_000;

/** The customer's WhatsApp sessions: enable, pair by QR code or pairing code, disconnect. */
export function WhatsAppPage({ token }: { token: string }) {
  const sessions = useLoad(() => customerClient(token).whatsapp.list(), [token]);
  return (
    <>
      <h1>WhatsApp</h1>
      <StatusView loaded={sessions}>
        {(list) =>
          list.length === 0 ? (
            <p>No number of yours is on a WhatsApp instance.</p>
          ) : (
            <ul class="cards">
              {list.map((session) => (
                <SessionCard key={session.phoneNumber} token={token} initial={session} />
              ))}
            </ul>
          )
        }
      </StatusView>
    </>
  );
}

/** One number's session, followed live while it pairs: its status, its QR code as it refreshes. */
function SessionCard({ token, initial }: { token: string; initial: WhatsAppListResponse[number] }) {
  const client = customerClient(token);
  const number = initial.phoneNumber;
  const [state, setState] = useState(initial.whatsapp);
  const [qr, setQr] = useState<string>();
  const [pairingCode, setPairingCode] = useState<string>();
  useEffect(() => {
    if (state.status === 'connected' || state.status === 'disconnected') return;
    const timer = setTimeout(async () => {
      const next = await client.whatsapp.status(number).catch(() => state);
      setQr(
        next.status === 'qr_pending'
          ? await client.whatsapp.qr(number).then(
              (answer) => answer.qrCode,
              () => undefined,
            )
          : undefined,
      );
      setState({ ...next });
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <li class="card">
      <h2>{number}</h2>
      <p role="status">
        Session: <strong>{state.status}</strong>
        {state.disconnectReason ? ` (${state.disconnectReason})` : ''}
        {state.jid ? ` · ${state.jid}` : ''}
      </p>
      <p>
        <ActionButton
          label={`Enable WhatsApp on ${number}`}
          action={async () => setState({ ...(await client.whatsapp.enable(number)).whatsapp })}
        />{' '}
        <ActionButton
          label={`Get a pairing code for ${number}`}
          action={async () =>
            setPairingCode((await client.whatsapp.pairingCode(number)).pairingCode)
          }
        />{' '}
        <ActionButton
          label={`Disconnect ${number}`}
          action={async () => setState({ ...(await client.whatsapp.disconnect(number)).whatsapp })}
        />
      </p>
      {qr && state.status === 'qr_pending' && (
        <figure>
          <QrCode text={qr} label={`Pairing QR code for ${number}`} />
          <figcaption>
            On the phone: WhatsApp → Settings → Linked devices → Link a device, then scan.
          </figcaption>
        </figure>
      )}
      {pairingCode && state.status !== 'connected' && (
        <p>
          Pairing code: <strong class="code">{pairingCode}</strong> (WhatsApp → Linked devices →
          Link with phone number instead)
        </p>
      )}
    </li>
  );
}
