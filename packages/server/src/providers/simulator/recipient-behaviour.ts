import { type Channel, EMAIL_PATTERN, isE164 } from '@switchboard/contract';

/**
 * The simulator's test-mode table: how a recipient behaves, chosen by its address. This module is
 * the only place the table lives; `docs/simulator.md` shows it as {@link renderRecipientTable}
 * renders it, and a test fails when the two disagree.
 */

/** A lifecycle step the simulator reports, one every `stepMs`. */
export type LifecycleStep = 'sent' | 'delivered' | 'read';

/** What a send on one channel does. */
type ChannelOutcome =
  /** Accepted, then each step reported one `stepMs` after the previous one. */
  | { kind: 'deliver'; steps: readonly LifecycleStep[] }
  /** The recipient is not on this channel: the send is refused with `NO_CHANNEL_AVAILABLE`. */
  | { kind: 'unreachable' }
  /** Reachable, but the attempt fails after one step with `IMESSAGE_SEND_FAILED`. */
  | { kind: 'fail' }
  /** Fails like `fail` on a message's first attempt; a retry delivers with `retrySteps`. */
  | { kind: 'fail_first_attempt'; retrySteps: readonly LifecycleStep[] };

/** What an edit of a message to this recipient does. */
type EditOutcome = 'ok' | 'EDIT_FAILED' | 'PROVIDER_TIMEOUT';

/** How one kind of recipient behaves on every channel. */
export interface RecipientBehaviour {
  /** The row's name in the documented table. */
  label: string;
  /** The "What happens" column of the documented table. */
  summary: string;
  /** The outcome of a send on each channel. */
  channels: Readonly<Record<Channel, ChannelOutcome>>;
  /** Whether FaceTime reaches the recipient. */
  facetime: boolean;
  /** The active Focus mode, when the recipient has one on. */
  focusMode?: string;
  /** What an edit does. */
  edit: EditOutcome;
}

const READ: readonly LifecycleStep[] = ['sent', 'delivered', 'read'];
const DELIVERED: readonly LifecycleStep[] = ['sent', 'delivered'];
const DELIVER_READ: ChannelOutcome = { kind: 'deliver', steps: READ };
const DELIVER: ChannelOutcome = { kind: 'deliver', steps: DELIVERED };
const UNREACHABLE: ChannelOutcome = { kind: 'unreachable' };
const FAIL: ChannelOutcome = { kind: 'fail' };
const FAIL_FIRST: ChannelOutcome = { kind: 'fail_first_attempt', retrySteps: DELIVERED };

/** A row of magic numbers `+1NXX55501DD`, for DD from `from` to `to`. */
interface MagicRow extends RecipientBehaviour {
  from: number;
  to: number;
}

/** The fictional 555-01XX range: `+1`, an area code, an exchange, `55501`, then DD. */
const MAGIC_NUMBER = /^\+1[2-9]\d{2}55501(\d{2})$/;

/** First match wins: DD 31 comes before the rest of 30–39. */
const MAGIC_ROWS: readonly MagicRow[] = [
  {
    from: 0,
    to: 9,
    label: '00–09',
    summary: 'iMessage: sent → delivered → read',
    channels: { imessage: DELIVER_READ, sms: DELIVER, whatsapp: UNREACHABLE },
    facetime: true,
    edit: 'ok',
  },
  {
    from: 10,
    to: 19,
    label: '10–19',
    summary:
      'iMessage unreachable → `message.fallback` (reason `unavailable`) → SMS sent → delivered',
    channels: { imessage: UNREACHABLE, sms: DELIVER, whatsapp: UNREACHABLE },
    facetime: false,
    edit: 'ok',
  },
  {
    from: 20,
    to: 29,
    label: '20–29',
    summary:
      'the iMessage attempt fails → `message.fallback` (reason `send_failed`) → SMS sent → delivered; with `fallback: false` the message fails',
    channels: { imessage: FAIL, sms: DELIVER, whatsapp: UNREACHABLE },
    facetime: true,
    edit: 'ok',
  },
  {
    from: 31,
    to: 31,
    label: '31',
    summary:
      "a message's first attempt fails on every channel; its retry succeeds: iMessage sent → delivered",
    channels: { imessage: FAIL_FIRST, sms: FAIL_FIRST, whatsapp: UNREACHABLE },
    facetime: true,
    edit: 'ok',
  },
  {
    from: 30,
    to: 39,
    label: '30, 32–39',
    summary:
      'every channel fails → `failed` with `errorCode` `IMESSAGE_SEND_FAILED` and an `errorMessage`',
    channels: { imessage: FAIL, sms: FAIL, whatsapp: UNREACHABLE },
    facetime: true,
    edit: 'ok',
  },
  {
    from: 40,
    to: 49,
    label: '40–49',
    summary: 'unreachable: 400 `NO_CHANNEL_AVAILABLE` at send',
    channels: { imessage: UNREACHABLE, sms: UNREACHABLE, whatsapp: UNREACHABLE },
    facetime: false,
    edit: 'ok',
  },
  {
    from: 50,
    to: 59,
    label: '50–59',
    summary:
      'Focus mode on (`focused: true`, `focusMode: "Do Not Disturb"`): iMessage sent → delivered, never read',
    channels: { imessage: DELIVER, sms: DELIVER, whatsapp: UNREACHABLE },
    facetime: true,
    focusMode: 'Do Not Disturb',
    edit: 'ok',
  },
  {
    from: 60,
    to: 69,
    label: '60–69',
    summary:
      'WhatsApp: sent → delivered → read when `routing.preference` puts whatsapp first; the default `[imessage, sms]` falls back to SMS (reason `unavailable`)',
    channels: { imessage: UNREACHABLE, sms: DELIVER, whatsapp: DELIVER_READ },
    facetime: false,
    edit: 'ok',
  },
  {
    from: 70,
    to: 74,
    label: '70–74',
    summary:
      'iMessage sent → delivered, but edits fail: 502 `EDIT_FAILED` (+ `message.edit_failed`)',
    channels: { imessage: DELIVER, sms: DELIVER, whatsapp: UNREACHABLE },
    facetime: true,
    edit: 'EDIT_FAILED',
  },
  {
    from: 75,
    to: 79,
    label: '75–79',
    summary: 'iMessage sent → delivered, but edits time out after one step: 504 `PROVIDER_TIMEOUT`',
    channels: { imessage: DELIVER, sms: DELIVER, whatsapp: UNREACHABLE },
    facetime: true,
    edit: 'PROVIDER_TIMEOUT',
  },
];

/** Any valid phone number outside the magic rows (including DD 80–99). */
export const OTHER_NUMBER: RecipientBehaviour = {
  label: 'any other valid number',
  summary: 'iMessage: sent → delivered (SMS and WhatsApp: sent → delivered)',
  channels: { imessage: DELIVER, sms: DELIVER, whatsapp: DELIVER },
  facetime: true,
  edit: 'ok',
};

/** An e-mail style address: an Apple ID. */
const EMAIL_ADDRESS: RecipientBehaviour = {
  label: 'e-mail style address',
  summary: 'iMessage only: sent → delivered',
  channels: { imessage: DELIVER, sms: UNREACHABLE, whatsapp: UNREACHABLE },
  facetime: true,
  edit: 'ok',
};

/** A group chat (`iMessage;+;chat…` or `<id>@g.us`); sms has no groups. */
export const GROUP_CHAT: RecipientBehaviour = {
  label: 'group chat',
  summary: 'iMessage and WhatsApp groups: sent → delivered',
  channels: { imessage: DELIVER, sms: UNREACHABLE, whatsapp: DELIVER },
  facetime: false,
  edit: 'ok',
};

/** Anything else: nothing reaches it. */
const UNKNOWN_ADDRESS: RecipientBehaviour = {
  label: 'anything else',
  summary: 'unreachable on every channel',
  channels: { imessage: UNREACHABLE, sms: UNREACHABLE, whatsapp: UNREACHABLE },
  facetime: false,
  edit: 'ok',
};

/** The two digits DD of a magic number `+1NXX55501DD`, or null for any other address. */
function magicDigits(address: string): number | null {
  const match = MAGIC_NUMBER.exec(address);
  return match?.[1] === undefined ? null : Number(match[1]);
}

/**
 * How the simulator treats an address: a magic number's row, any other E.164 number, an e-mail
 * style address, or nothing.
 * @example behaviourOf('+14155550123').label // '20–29'
 */
export function behaviourOf(address: string): RecipientBehaviour {
  const digits = magicDigits(address);
  if (digits !== null) {
    return MAGIC_ROWS.find((row) => digits >= row.from && digits <= row.to) ?? OTHER_NUMBER;
  }
  if (isE164(address)) return OTHER_NUMBER;
  if (EMAIL_PATTERN.test(address)) return EMAIL_ADDRESS;
  return UNKNOWN_ADDRESS;
}

/** True when `channel` can reach a recipient that behaves like `behaviour` (it may still fail). */
export function isReachable(behaviour: RecipientBehaviour, channel: Channel): boolean {
  return behaviour.channels[channel].kind !== 'unreachable';
}

/** The documented rows, in table order. */
function documentedRows(): readonly RecipientBehaviour[] {
  return [...MAGIC_ROWS, OTHER_NUMBER, EMAIL_ADDRESS, GROUP_CHAT];
}

/** The table as Markdown, exactly as `docs/simulator.md` shows it. */
export function renderRecipientTable(): string {
  const yesNo = (value: boolean): string => (value ? 'yes' : 'no');
  const lines = [
    '| DD / address | iMessage | SMS | WhatsApp | FaceTime | What happens |',
    '|---|---|---|---|---|---|',
  ];
  for (const row of documentedRows()) {
    const cells = [
      row.label,
      yesNo(isReachable(row, 'imessage')),
      yesNo(isReachable(row, 'sms')),
      yesNo(isReachable(row, 'whatsapp')),
      yesNo(row.facetime),
      row.summary,
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
