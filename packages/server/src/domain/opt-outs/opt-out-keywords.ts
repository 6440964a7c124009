import type { OptOutStatusValue } from '../../store/opt-out-repository';

/**
 * Words that opt a recipient out, as carriers and Twilio's default handling know them
 * (help.twilio.com/articles/223134027: REVOKE and OPTOUT joined in 2025).
 */
const OPT_OUT_WORDS = new Set([
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'REVOKE',
  'OPTOUT',
]);

/** Words that opt a recipient back in, as Twilio's default handling knows them. */
const OPT_IN_WORDS = new Set(['START', 'YES', 'UNSTOP']);

/** What an upstream that reads keywords itself says a message is (Twilio's `OptOutType`). */
export type UpstreamOptOutType = 'stop' | 'start' | 'help';

/**
 * The opt-out keyword a message is, if it is one: the whole text, trimmed, any case, with
 * trailing punctuation ignored (`Stop.`, `STOP!`). A sentence that contains the word is not one
 * ("please don't stop"), as carriers count it. When the upstream read the keyword itself
 * (`upstream`: Twilio's Advanced Opt-Out, whose keywords the customer chooses, `ARRET` say), its
 * reading wins; a help keyword changes nothing.
 */
export function optOutKeywordOf(
  text: string,
  upstream?: UpstreamOptOutType,
): { keyword: string; status: OptOutStatusValue } | undefined {
  const word = text
    .trim()
    .replace(/[\s.!?]+$/u, '')
    .toUpperCase();
  if (upstream === 'stop') return { keyword: word, status: 'opted_out' };
  if (upstream === 'start') return { keyword: word, status: 'opted_in' };
  if (upstream === 'help') return undefined;
  if (OPT_OUT_WORDS.has(word)) return { keyword: word, status: 'opted_out' };
  if (OPT_IN_WORDS.has(word)) return { keyword: word, status: 'opted_in' };
  return undefined;
}
