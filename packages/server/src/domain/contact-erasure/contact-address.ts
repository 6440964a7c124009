import type { ErasureTarget } from '../../store/contact-erasure-repository';

/** Prefixes of one-to-one chat ids that carry the other party's address (iMessage, SMS). */
const DIRECT_CHAT_PREFIXES = ['iMessage;-;', 'SMS;-;', 'RCS;-;', 'any;-;'];

/** The canonical form of an address to erase: `+<digits>` for a phone, lower case for e-mail. */
export function canonicalAddress(address: string): string {
  const value = address.trim();
  const phone = /^(?:whatsapp:)?\+?(\d{2,15})(?:@(?:s\.whatsapp\.net|c\.us))?$/.exec(value);
  return phone ? `+${phone[1]}` : value.toLowerCase();
}

/**
 * Every form an address takes in the stores, and how free text names it: a phone number is
 * `+1415…`, `1415…`, `1415…@s.whatsapp.net`, `whatsapp:+1415…` or a direct chat id; free text
 * names it when its digits appear with no digit on either side. An e-mail address is matched
 * without regard to case.
 * @example erasureTarget('14155550101@s.whatsapp.net', null).forms // ['+14155550101', …]
 */
export function erasureTarget(address: string, customerId: string | null): ErasureTarget {
  const canonical = canonicalAddress(address);
  const raw = address.trim();
  if (canonical.startsWith('+')) {
    const digits = canonical.slice(1);
    const pattern = new RegExp(`(?<!\\d)${digits}(?!\\d)`);
    const forms = [
      canonical,
      digits,
      `${digits}@s.whatsapp.net`,
      `${digits}@c.us`,
      `whatsapp:${canonical}`,
      `tel:${canonical}`,
      ...DIRECT_CHAT_PREFIXES.map((prefix) => `${prefix}${canonical}`),
    ];
    return {
      customerId,
      forms: [...new Set([raw, ...forms])],
      needles: [digits],
      mentions: (text) => pattern.test(text),
    };
  }
  const forms = [canonical, ...DIRECT_CHAT_PREFIXES.map((prefix) => `${prefix}${canonical}`)];
  return {
    customerId,
    forms: [...new Set([raw, ...forms])],
    needles: [canonical],
    mentions: (text) => text.toLowerCase().includes(canonical),
  };
}
