/**
 * Phone numbers of the simulator's fictional range, `+1NXX55501DD`: the last two digits choose
 * what the simulator does (see docs/simulator.md). Senders and recipients use different area
 * codes so that no sender is also a recipient.
 */
const SENDER_AREA_CODES = ['212', '312', '646', '718', '305', '404', '503', '617', '702', '805'];
const RECIPIENT_AREA_CODES = ['415', '510', '213', '206', '303', '512', '615', '713', '801', '919'];

function simulatorNumber(areaCode: string, dd: number): string {
  return `+1${areaCode}55501${String(dd).padStart(2, '0')}`;
}

/** The `index`-th distinct sender number (up to 1,000). */
export function senderNumber(index: number): string {
  const area = SENDER_AREA_CODES[Math.floor(index / 100) % SENDER_AREA_CODES.length] ?? '212';
  return simulatorNumber(area, index % 100);
}

/** What the simulator does with a recipient, by its last two digits. */
export type RecipientBehaviour =
  | 'imessage-read'
  | 'sms-delivered'
  | 'imessage-delivered'
  | 'whatsapp-read'
  | 'failed';

const BEHAVIOUR_DIGITS: Record<RecipientBehaviour, readonly [number, number]> = {
  // DD 00–09: iMessage, sent → delivered → read.
  'imessage-read': [0, 9],
  // DD 10–19: SMS only, sent → delivered (a fallback from iMessage).
  'sms-delivered': [10, 19],
  // DD 80–99: any other number, iMessage sent → delivered.
  'imessage-delivered': [80, 99],
  // DD 60–69: WhatsApp, sent → delivered → read (when routing puts whatsapp first).
  'whatsapp-read': [60, 69],
  // DD 30–39: every channel fails; 30 always does.
  failed: [30, 30],
};

/** The `index`-th recipient (of many) with the given simulator behaviour. */
export function recipientNumber(behaviour: RecipientBehaviour, index: number): string {
  const [low, high] = BEHAVIOUR_DIGITS[behaviour];
  const span = high - low + 1;
  const area =
    RECIPIENT_AREA_CODES[Math.floor(index / span) % RECIPIENT_AREA_CODES.length] ?? '415';
  return simulatorNumber(area, low + (index % span));
}

/** How many distinct recipients {@link recipientNumber} yields for a behaviour. */
export function recipientCount(behaviour: RecipientBehaviour): number {
  const [low, high] = BEHAVIOUR_DIGITS[behaviour];
  return (high - low + 1) * RECIPIENT_AREA_CODES.length;
}

/**
 * A recipient no other seeded message uses (an area code outside both lists): the growth
 * scenario puts two messages to it in the middle of a large table, to get a cursor deep inside
 * the list from the API itself.
 */
export const MARKER_RECIPIENT = '+18085550190';

/**
 * The recipient of the growth scenario's `to=` read (DD 85: the simulator delivers over iMessage;
 * an area code outside both lists): it gets {@link BUSY_RECIPIENT_MESSAGES} messages in every
 * database, so the filtered page holds the same 50 rows at 1,000 and at 1,000,000 messages.
 */
export const BUSY_RECIPIENT = '+18085550185';

/** How many messages the busy recipient gets, whatever the database's size (two full pages). */
export const BUSY_RECIPIENT_MESSAGES = 100;
