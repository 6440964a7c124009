import { getContentType, type proto, toNumber } from 'baileys';

/**
 * Content types that are not a message of their own (protocol, keys, votes, pins…) or that the
 * adapter maps elsewhere: never announced with a note.
 */
const NOT_MESSAGES = new Set([
  'protocolMessage',
  'reactionMessage',
  'encReactionMessage',
  'senderKeyDistributionMessage',
  'messageContextInfo',
  'pollUpdateMessage',
  'keepInChatMessage',
  'pinInChatMessage',
  'encEventResponseMessage',
  'secretEncryptedMessage',
  'callLogMesssage',
  'botInvokeMessage',
  'editedMessage',
]);

function coordinates(latitude: unknown, longitude: unknown): string {
  const lat = Number(latitude ?? 0);
  const long = Number(longitude ?? 0);
  return `${lat},${long}`;
}

/** The phone numbers (`waid`, else TEL) of a vCard. */
function vcardPhones(vcard: string | null | undefined): string[] {
  if (!vcard) return [];
  const waids = [...vcard.matchAll(/waid=(\d+)/g)].map((match) => `+${match[1]}`);
  if (waids.length > 0) return waids;
  return [...vcard.matchAll(/^TEL[^:]*:(.+)$/gm)].map((match) => (match[1] ?? '').trim());
}

function contactLine(contact: proto.Message.IContactMessage): string {
  const phones = vcardPhones(contact.vcard);
  return [contact.displayName ?? '', phones.join(', ')].filter(Boolean).join(' ');
}

/** "groupInviteMessage" → "group invite". */
function labelOf(type: string): string {
  return type
    .replace(/Message(V\d+)?$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

/**
 * A line of text for a WhatsApp message kind the gateway does not model (location, live
 * location, contact cards, polls, events, anything newer), so that it arrives as a message with a
 * note of what it was instead of being dropped: `[location] Café 52.52,13.40 https://maps…`.
 * Undefined for content the adapter maps itself or that is not a message.
 * @example unmodelledNote({ locationMessage: { degreesLatitude: 1, degreesLongitude: 2 } })
 */
export function unmodelledNote(content: proto.IMessage): string | undefined {
  if (content.locationMessage) {
    const location = content.locationMessage;
    const where = coordinates(location.degreesLatitude, location.degreesLongitude);
    const name = [location.name, location.address].filter(Boolean).join(', ');
    return `[location] ${name ? `${name} ` : ''}${where} https://maps.google.com/?q=${where}`;
  }
  if (content.liveLocationMessage) {
    const live = content.liveLocationMessage;
    const where = coordinates(live.degreesLatitude, live.degreesLongitude);
    return `[live location] ${where} https://maps.google.com/?q=${where}${live.caption ? ` ${live.caption}` : ''}`;
  }
  if (content.contactMessage) return `[contact] ${contactLine(content.contactMessage)}`;
  if (content.contactsArrayMessage) {
    const contacts = content.contactsArrayMessage.contacts ?? [];
    return `[contacts] ${contacts.map(contactLine).join('; ')}`;
  }
  const poll =
    content.pollCreationMessage ?? content.pollCreationMessageV2 ?? content.pollCreationMessageV3;
  if (poll) {
    const options = (poll.options ?? []).map((option) => option.optionName ?? '').join(' / ');
    return `[poll] ${poll.name ?? ''}${options ? `: ${options}` : ''}`;
  }
  if (content.eventMessage) {
    const event = content.eventMessage;
    const start = toNumber(event.startTime as number | null | undefined);
    const when = start > 0 ? ` (${new Date(start * 1000).toISOString()})` : '';
    return `[event] ${event.name ?? ''}${when}`;
  }
  const type = getContentType(content);
  if (!type || type === 'conversation' || NOT_MESSAGES.has(type)) return undefined;
  return `[${labelOf(type)}]`;
}
