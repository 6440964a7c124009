import { type CodeCandidate, findCodeCandidates } from './code-candidates';
import {
  BARE_CODE_NOUN,
  COPULA_AFTER_CODE,
  IMPERATIVE_BEFORE_CODE,
  NON_OTP_CONTEXT,
  OTP_CUE,
  POSSESSIVE_BEFORE_NOUN,
  QUALIFIER_AFTER_NOUN,
  QUALIFIER_BEFORE_NOUN,
  STRONG_CODE_NOUNS,
} from './otp-lexicon';
import { identifyOtpProvider, type OtpProvider } from './otp-providers';

/** A verification code found in a message: what to type, and who sent it. */
export interface VerificationCode {
  /** The code as a user types it: "123-456" → "123456", "G-123456" → "123456", "A7K9Q2" as is. */
  readonly code: string;
  /** The service that sent it, `generic` when the message names none. */
  readonly provider: OtpProvider;
}

// How sure we are that a word names a verification code:
//  strong — "verification code", "OTP", "Bestätigungscode": nothing else uses these words;
//  owned  — a bare "code" with a possessive ("your code", "tu código de WhatsApp");
//  cued   — a bare "code" in a message with a brand or a verification phrase ("never share").
type NounStrength = 'strong' | 'owned' | 'cued';

interface CodeNoun {
  readonly start: number;
  readonly end: number;
  readonly strength: NounStrength;
}

interface Finding {
  readonly candidate: CodeCandidate;
  /** Lower is more trustworthy; the best-ranked finding wins, then the earliest. */
  readonly rank: number;
}

const NOUN_RANK: Readonly<Record<NounStrength, number>> = { strong: 1, owned: 2, cued: 3 };
const IMPERATIVE_RANK = 4;

/** How far after its noun a code may sit ("código de verificación de WhatsApp es 123-456"). */
const FOLLOWING_WINDOW = 60;
/** How far before its noun a code may sit ("123456 is your Google verification code"). */
const LEADING_WINDOW = 45;
const QUALIFIER_WINDOW = 30;
const IMPERATIVE_WINDOW = 40;

const SENTENCE_BREAK = /[.!?。！？](?=\s|$)|\n\s*\n/u;
const DIGIT = /\d/u;
const ANY_DIGIT = /\p{Nd}/u;

// The Web OTP line ("@example.com #123456 %other.example") is a format made for machines: the
// domain names the sender and the hash marks the code, so it needs no keyword.
const WEB_OTP_LINE =
  /^@(?<domain>[a-z0-9-]+(?:\.[a-z0-9-]+)+) #(?<code>[a-z0-9-]{4,12})(?: %[a-z0-9.-]+)?\s*$/imu;

// Links carry ids and numbers that are not codes ("v.whatsapp.com/123456" repeats the code at
// best, "t.co/Ab12Cd" is noise at worst), so they are blanked before any token is read.
const LINK = /(?:https?:\/\/|www\.)\S+|(?<![@\w.])[a-z0-9-]+(?:\.[a-z0-9-]+)+\/\S*/giu;

/**
 * Finds the one-time passcode, 2FA or password-reset code in a message, or null when there is none.
 *
 * Built for precision: a code counts only next to a keyword that names it (in English, Spanish,
 * French, German, Portuguese, Italian, Dutch, Polish, Turkish, Russian, Indonesian, Chinese,
 * Japanese, Korean or Arabic) and only when it is not an amount, a date, a time, a phone number or
 * an order, tracking or booking number. Pure and synchronous.
 *
 * @example detectVerificationCode('Your WhatsApp code: 123-456') // { code: '123456', provider: 'whatsapp' }
 * @example detectVerificationCode('Your order #123456 has shipped') // null
 */
export function detectVerificationCode(text: string): VerificationCode | null {
  // Every code holds a digit (of any script); most messages are rejected here without more work.
  if (!ANY_DIGIT.test(text)) return null;
  const normalized = normalizeText(text);

  const webOtp = readWebOtpLine(normalized);
  if (webOtp) return webOtp;

  const readable = normalized.replace(LINK, ' ');
  if (NON_OTP_CONTEXT.some((pattern) => pattern.test(readable))) return null;

  const candidates = findCodeCandidates(readable);
  if (candidates.length === 0) return null;

  const provider = identifyOtpProvider(readable);
  const best = pickBest(findCodes(readable, candidates, provider));
  if (!best) return null;
  return { code: best.candidate.code, provider: best.candidate.providerHint ?? provider };
}

function normalizeText(text: string): string {
  return (
    text
      // Full-width digits and colons, ligatures and compatibility spaces become plain ASCII.
      .normalize('NFKC')
      // Arabic-Indic, Persian and Devanagari digits become ASCII digits.
      .replace(/[\u0660-\u0669]/gu, (d) => String(d.charCodeAt(0) - 0x0660))
      .replace(/[\u06f0-\u06f9]/gu, (d) => String(d.charCodeAt(0) - 0x06f0))
      .replace(/[\u0966-\u096f]/gu, (d) => String(d.charCodeAt(0) - 0x0966))
      .replace(/[\u2010-\u2015\u2212]/gu, '-')
      .replace(/[\u00a0\u2000-\u200a\u202f\u205f\u3000]/gu, ' ')
      .replace(/[\u200b-\u200d\u2060\ufeff]/gu, '')
      .replace(/[\u2018\u2019\u02bc]/gu, "'")
  );
}

function readWebOtpLine(text: string): VerificationCode | null {
  const groups = WEB_OTP_LINE.exec(text)?.groups;
  const domain = groups?.domain;
  const code = groups?.code?.replace(/-/gu, '');
  if (domain === undefined || code === undefined || !DIGIT.test(code)) return null;
  const fromDomain = identifyOtpProvider(domain);
  return { code, provider: fromDomain === 'generic' ? identifyOtpProvider(text) : fromDomain };
}

function findCodeNouns(text: string, provider: OtpProvider): CodeNoun[] {
  const nouns: CodeNoun[] = [];
  const strongRanges: Array<readonly [number, number]> = [];
  for (const pattern of STRONG_CODE_NOUNS) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      strongRanges.push([start, end]);
      if (!isQualified(text, start, end)) nouns.push({ start, end, strength: 'strong' });
    }
  }

  // A bare "code" counts only with support; banks are not support on their own, as statements
  // and card alerts mention them next to plenty of numbers.
  const hasCue = OTP_CUE.test(text) || (provider !== 'generic' && provider !== 'bank');
  for (const match of text.matchAll(BARE_CODE_NOUN)) {
    const start = match.index;
    const end = start + match[0].length;
    if (strongRanges.some(([from, to]) => start < to && end > from)) continue;
    if (isQualified(text, start, end)) continue;
    const before = text.slice(Math.max(0, start - QUALIFIER_WINDOW), start);
    if (POSSESSIVE_BEFORE_NOUN.test(before)) nouns.push({ start, end, strength: 'owned' });
    else if (hasCue) nouns.push({ start, end, strength: 'cued' });
  }
  return nouns;
}

function isQualified(text: string, start: number, end: number): boolean {
  return (
    QUALIFIER_BEFORE_NOUN.test(text.slice(Math.max(0, start - QUALIFIER_WINDOW), start)) ||
    QUALIFIER_AFTER_NOUN.test(text.slice(end, end + QUALIFIER_WINDOW))
  );
}

function findCodes(
  text: string,
  candidates: readonly CodeCandidate[],
  provider: OtpProvider,
): Finding[] {
  const findings: Finding[] = [];
  for (const noun of findCodeNouns(text, provider)) {
    const rank = NOUN_RANK[noun.strength];
    // Letters make a token look like many things (promo codes, plates, models): an alphanumeric
    // code needs a noun that is more than a cue away.
    const fits = (candidate: CodeCandidate) =>
      candidate.kind === 'digits' || noun.strength !== 'cued';

    // "Your code is 123-456", "Código de verificación: 123456".
    const following = candidates.find(
      (candidate) =>
        candidate.start >= noun.end &&
        candidate.start - noun.end <= FOLLOWING_WINDOW &&
        fits(candidate) &&
        !SENTENCE_BREAK.test(text.slice(noun.end, candidate.start)),
    );
    if (following) findings.push({ candidate: following, rank });

    // "123456 is your verification code", "Use 1234567 as Microsoft account security code".
    const leading = candidates.findLast((candidate) => {
      if (candidate.end > noun.start || noun.start - candidate.end > LEADING_WINDOW) return false;
      const gap = text.slice(candidate.end, noun.start);
      return (
        fits(candidate) &&
        COPULA_AFTER_CODE.test(gap) &&
        !DIGIT.test(gap) &&
        !SENTENCE_BREAK.test(gap)
      );
    });
    if (leading) findings.push({ candidate: leading, rank });
  }

  // "Enter 123456 to verify your account": no noun, but an instruction and a verification phrase.
  if (OTP_CUE.test(text)) {
    for (const candidate of candidates) {
      if (candidate.kind !== 'digits') continue;
      const before = text.slice(Math.max(0, candidate.start - IMPERATIVE_WINDOW), candidate.start);
      if (IMPERATIVE_BEFORE_CODE.test(before)) findings.push({ candidate, rank: IMPERATIVE_RANK });
    }
  }
  return findings;
}

function pickBest(findings: readonly Finding[]): Finding | undefined {
  let best: Finding | undefined;
  for (const finding of findings) {
    if (
      !best ||
      finding.rank < best.rank ||
      (finding.rank === best.rank && finding.candidate.start < best.candidate.start)
    ) {
      best = finding;
    }
  }
  return best;
}
