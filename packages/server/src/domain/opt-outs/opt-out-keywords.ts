import type { OptOutStatusValue } from '../../store/opt-out-repository';

/** Words that opt a recipient out, as carriers and Twilio's default handling know them. */
const OPT_OUT_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);

/** Words that opt a recipient back in. */
const OPT_IN_WORDS = new Set(['START', 'UNSTOP']);

/**
 * The opt-out keyword a message is, if it is one: the whole text, trimmed, any case, with
 * trailing punctuation ignored (`Stop.`, `STOP!`). A sentence that contains the word is not one
 * ("please don't stop"), as carriers count it.
 */
export function optOutKeywordOf(
  text: string,
): { keyword: string; status: OptOutStatusValue } | undefined {
  const word = text
    .trim()
    .replace(/[\s.!?]+$/u, '')
    .toUpperCase();
  if (OPT_OUT_WORDS.has(word)) return { keyword: word, status: 'opted_out' };
  if (OPT_IN_WORDS.has(word)) return { keyword: word, status: 'opted_in' };
  return undefined;
}
