import {
  SandboxMessageStatusRequest,
  SandboxReactionType,
  SandboxTypingRequest,
} from '@switchboard/contract';
import type { SandboxTypingParams } from '@switchboard/sdk';
import { useState } from 'preact/hooks';
import { customerClient } from '../clients';
import { SelectField, TextField } from '../components/labelled-fields';
import { StatusView } from '../components/status-view';
import { messageOf, useLoad } from '../use-load';

const CHANNELS = ['imessage', 'sms', 'whatsapp'] as const;
/** The choices the contract's sandbox schemas allow. */
const REACTION_TYPES = SandboxReactionType.options;
const TYPING_STATES = SandboxTypingRequest.shape.status.options;
const REPORTS = SandboxMessageStatusRequest.shape.status.options;

/** What the last action answered, or why it failed. */
type Outcome = { ok: string } | { error: string } | undefined;

/** The outcome of the last sandbox action, shown as text. */
function OutcomeView({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  if ('error' in outcome) {
    return (
      <p role="alert" class="error">
        {outcome.error}
      </p>
    );
  }
  return (
    <div role="status">
      <p>Done:</p>
      <pre class="json">{outcome.ok}</pre>
    </div>
  );
}

/** What the sandbox forms hold. */
const START = {
  to: '',
  from: '+14155550123',
  channel: 'imessage',
  text: 'Hello from the sandbox',
  messageId: '',
  reaction: 'love',
  emoji: '',
  report: 'delivered',
};

/** The actions on one message of the customer: a contact's reaction, a receipt. */
function MessageActions({
  form,
  set,
  run,
  contact,
  client,
}: {
  form: typeof START;
  set: (field: keyof typeof START) => (value: string) => void;
  run: (action: () => Promise<unknown>) => (event?: Event) => Promise<void>;
  contact: { channel: (typeof CHANNELS)[number]; from: string; to: string };
  client: ReturnType<typeof customerClient>['sandbox'];
}) {
  return (
    <>
      <form
        aria-label="Reaction"
        onSubmit={run(() =>
          client.reaction({
            ...contact,
            messageId: form.messageId,
            type: form.reaction as (typeof REACTION_TYPES)[number],
            ...(form.emoji ? { emoji: form.emoji } : {}),
          }),
        )}
      >
        <h2>Reaction</h2>
        <TextField
          id="sandbox-message"
          label="Message id"
          value={form.messageId}
          onInput={set('messageId')}
        />
        <SelectField
          id="sandbox-reaction"
          label="Reaction"
          value={form.reaction}
          options={REACTION_TYPES}
          onChange={set('reaction')}
        />
        <TextField
          id="sandbox-emoji"
          label="Emoji (for emoji)"
          value={form.emoji}
          onInput={set('emoji')}
        />
        <button type="submit">React</button>
      </form>
      <form
        aria-label="Status report"
        onSubmit={run(() =>
          client.messageStatus(form.messageId, {
            status: form.report as (typeof REPORTS)[number],
          }),
        )}
      >
        <h2>Status report</h2>
        <p>For the message id above, one of your sent messages.</p>
        <SelectField
          id="sandbox-report"
          label="Status"
          value={form.report}
          options={REPORTS}
          onChange={set('report')}
        />
        <button type="submit">Report the status</button>
      </form>
    </>
  );
}

/**
 * The simulator's controls on one of the customer's simulated numbers: a contact writes, reacts,
 * types, or a sent message gets a receipt — through `/v1/sandbox`, the same inbound path as a real
 * upstream's events.
 */
export function SandboxPage({ token }: { token: string }) {
  const client = customerClient(token).sandbox;
  const numbers = useLoad(() => customerClient(token).numbers.list(), [token]);
  const [form, setForm] = useState(START);
  const [outcome, setOutcome] = useState<Outcome>();
  const set = (field: keyof typeof form) => (value: string) => setForm({ ...form, [field]: value });
  const run = (action: () => Promise<unknown>) => async (event?: Event) => {
    event?.preventDefault();
    try {
      setOutcome({ ok: JSON.stringify(await action(), null, 2) });
    } catch (failure) {
      setOutcome({ error: messageOf(failure) });
    }
  };
  const contact = {
    channel: form.channel as (typeof CHANNELS)[number],
    from: form.from,
    to: form.to,
  };
  return (
    <>
      <h1>Sandbox</h1>
      <p>Only your numbers served by the simulator answer; any other is NOT_FOUND.</p>
      <StatusView loaded={numbers}>
        {(list) => (
          <form class="filters" aria-label="Who" onSubmit={(event) => event.preventDefault()}>
            <SelectField
              id="sandbox-to"
              label="Your number"
              value={form.to}
              options={['', ...list.map((number) => number.phoneNumber)]}
              onChange={set('to')}
            />
            <TextField id="sandbox-from" label="Contact" value={form.from} onInput={set('from')} />
            <SelectField
              id="sandbox-channel"
              label="Channel"
              value={form.channel}
              options={CHANNELS}
              onChange={set('channel')}
            />
          </form>
        )}
      </StatusView>
      <form
        aria-label="Inbound message"
        onSubmit={run(() => client.inboundMessage({ ...contact, text: form.text }))}
      >
        <h2>Inbound message</h2>
        <TextField id="sandbox-text" label="Text" value={form.text} onInput={set('text')} />
        <button type="submit">Receive the message</button>
      </form>
      <section aria-labelledby="sandbox-typing-title">
        <h2 id="sandbox-typing-title">Typing</h2>
        {TYPING_STATES.map((status) => (
          <button
            key={status}
            type="button"
            onClick={run(() => client.typing({ ...contact, status } as SandboxTypingParams))}
          >
            Typing: {status}
          </button>
        ))}
      </section>
      <MessageActions form={form} set={set} run={run} contact={contact} client={client} />
      <OutcomeView outcome={outcome} />
    </>
  );
}
