import { useState } from 'preact/hooks';
import { CustomersPage } from './pages/customers-page';
import { InstancesPage } from './pages/instances-page';
import { LiveTailPage } from './pages/live-tail-page';
import { MessagePage } from './pages/message-page';
import { MessagesPage } from './pages/messages-page';
import { OperatorMessagePage } from './pages/operator-message-page';
import { OperatorMessagesPage } from './pages/operator-messages-page';
import { OverviewPage } from './pages/overview-page';
import { SandboxPage } from './pages/sandbox-page';
import { SignInPage } from './pages/sign-in-page';
import { WebhooksPage } from './pages/webhooks-page';
import { WhatsAppPage } from './pages/whatsapp-page';
import { hrefOf, useRoute } from './route';
import { forgetSession, loadSession, type Session, saveSession } from './session';

/** The views each kind of credential can open, in the navigation's order. */
const VIEWS = {
  operator: [
    ['overview', 'Overview'],
    ['instances', 'Instances'],
    ['customers', 'Customers'],
    ['messages', 'Messages'],
  ],
  customer: [
    ['overview', 'Overview'],
    ['messages', 'Messages'],
    ['webhooks', 'Webhooks'],
    ['whatsapp', 'WhatsApp'],
    ['tail', 'Live tail'],
    ['sandbox', 'Sandbox'],
  ],
} as const;

/** The console: the sign-in page, or the navigation and the current view. */
export function App() {
  const [session, setSession] = useState(() => loadSession());
  if (!session) {
    return (
      <SignInPage
        onSignedIn={(signedIn) => {
          saveSession(signedIn);
          setSession(signedIn);
        }}
      />
    );
  }
  const signOut = () => {
    forgetSession();
    window.location.hash = '';
    setSession(undefined);
  };
  return <SignedIn session={session} onSignOut={signOut} />;
}

/** The signed-in layout. */
function SignedIn({ session, onSignOut }: { session: Session; onSignOut: () => void }) {
  const route = useRoute();
  const views = VIEWS[session.kind];
  const current = route[0] ?? 'overview';
  return (
    <>
      <header class="top">
        <span class="brand">Switchboard</span>
        <nav aria-label="Console">
          <ul>
            {views.map(([view, label]) => (
              <li key={view}>
                <a href={hrefOf(view)} aria-current={view === current ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">{session.kind === 'operator' ? 'Operator' : 'Customer key'}</span>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main>{viewOf(session, route)}</main>
    </>
  );
}

/** The page of `route` for `session`. */
function viewOf(session: Session, route: string[]) {
  const [view, id] = route;
  if (session.kind === 'operator') {
    if (view === 'instances') return <InstancesPage token={session.token} />;
    if (view === 'customers') return <CustomersPage token={session.token} selected={id} />;
    if (view === 'messages' && id) return <OperatorMessagePage token={session.token} id={id} />;
    if (view === 'messages') return <OperatorMessagesPage token={session.token} />;
    return <OverviewPage session={session} />;
  }
  if (view === 'messages' && id) return <MessagePage token={session.token} id={id} />;
  if (view === 'messages') return <MessagesPage token={session.token} />;
  if (view === 'webhooks') return <WebhooksPage token={session.token} />;
  if (view === 'whatsapp') return <WhatsAppPage token={session.token} />;
  if (view === 'tail') return <LiveTailPage token={session.token} />;
  if (view === 'sandbox') return <SandboxPage token={session.token} />;
  return <OverviewPage session={session} />;
}
