import { WORD_CHARS } from './otp-lexicon';
import type { OtpProvider } from './otp-providers';

/** A token shaped like a verification code, found where nothing marks it as another number. */
export interface CodeCandidate {
  /** Index of the token's first character in the scanned text. */
  readonly start: number;
  /** Index just past the token's last character. */
  readonly end: number;
  /** What a user types: digits without separators or prefix, or the letters and digits as sent. */
  readonly code: string;
  /** `alphanumeric` codes mix capitals and digits and are trusted only after a clear keyword. */
  readonly kind: 'digits' | 'alphanumeric';
  /** The service implied by the token itself ("G-123456" is Google's format). */
  readonly providerHint?: OtpProvider;
}

// One pass finds three token shapes; the first alternative wins at a given index, so "G-123456"
// is read as a prefixed code before its digits could be read as a run.
//  - prefixed: "G-123456" (Google), "FB-12345" (Facebook)
//  - run: digits joined by single separators ("123-456", "1.234,56", "12:30", "+1 415 555 0199");
//    the whole run is kept so that a fragment of a longer number is never taken alone
//  - alnum: 4-8 capitals and digits with at least one of each ("A7K9Q2")
const TOKEN = new RegExp(
  `(?<![${WORD_CHARS}])(?:` +
    '(?<prefix>G|FB)-(?<prefixed>\\d{4,8})' +
    '|(?<run>\\d+(?:[ \\-.,:/]\\d+)*)' +
    '|(?<alnum>(?=[A-Z\\d]*\\d)(?=[A-Z\\d]*[A-Z])[A-Z\\d]{4,8})' +
    `)(?![${WORD_CHARS}])`,
  'gu',
);

const PREFIX_PROVIDERS: Readonly<Record<string, OtpProvider>> = { G: 'google', FB: 'facebook' };

// Runs a code can take: 4-8 digits, or two groups of three or of four (WhatsApp's "123-456",
// Instagram's "123 456"). 3+4 is a local phone number and 2+2+2 a date, so neither is accepted.
const CODE_RUN = /^(?:\d{4,8}|\d{3}([- ])\d{3}|\d{4}([- ])\d{4})$/u;

// Shapes of alphanumeric tokens that are words with a number, not random codes: "SAVE20",
// "UA1234", "COVID19" (letters then digits) and "4512B", "1230PM" (digits then a suffix).
const WORD_WITH_NUMBER = /^(?:[A-Z]{2,}\d+|\d+[A-Z]{1,2})$/u;

const BEFORE_WINDOW = 40;
const AFTER_WINDOW = 16;

// Text just before a token that makes it something else: an amount, a hash-numbered record, a
// phone number, the tail of a masked card, an identifier with a letter prefix ("INV-123456").
const NOT_A_CODE_BEFORE = [
  /[#№$€£¥₹+*•]\s?$/u,
  /[\p{L}]-$/u,
  /[x*•·]{2,}\s*$/iu,
  new RegExp(
    `(?<![${WORD_CHARS}])(?:R\\$|US\\$|usd|eur|gbp|brl|mxn|ars|cop|clp|inr|chf|jpy|cad|aud|rs\\.?|no\\.|nr\\.|n\\.?[°º]|n\\.o\\.?|n[úu]m\\.|nro\\.?)\\s?$`,
    'iu',
  ),
  /(?:ending|ends|end)\s+(?:in|with)\s*:?\s*$|last\s+(?:\d|four|two)\s+digits?\s*(?:are|:)?\s*$|termin\p{L}*\s+(?:en|em|con|in|par|por)\s*$|endet\s+(?:auf|mit)\s*$|(?:se\s+terminant|finissant)\s+par\s*$|finali?zad[oa]\s+(?:en|em)\s*$/iu,
  new RegExp(
    `(?<![${WORD_CHARS}])(?:order|pedido|commande|bestellung|ordine|encomenda|invoice|factura|facture|rechnung|fattura|fatura|ticket|case|room|habitaci[óo]n|chambre|zimmer|camera|quarto|flight|vuelo|vol|flug|volo|voo|table|mesa|gate|account|acct|cuenta|conta|compte|konto|conto|ref|reference|referencia|refer[êe]ncia|r[ée]f[ée]rence|riferimento|id|tracking|shipment|package|parcel|paquete|colis|paket|pacco|store|tienda|loja|magasin|apt|apartment|suite|unit|floor|route|bus|train|line|ext|extension|sent|send|texted|text|call|dial|calling|contact|phone|mobile|number|n[úu]mero|nummer|numero|t[ée]l[ée]phone|tel|fax)\\.?\\s*(?:number|no\\.?|nr\\.?|n[°º]|#|num\\.?|id)?\\s*:?\\s*$`,
    'iu',
  ),
] as const;

// Text just after a token that makes it a quantity, an amount or a time of day.
const NOT_A_CODE_AFTER = [
  /^-[\p{L}\p{N}]/u,
  new RegExp(
    `^\\s?(?:%|€|\\$|£|¥|₹|(?:usd|eur|gbp|brl|mxn|ars|cop|clp|inr|chf|jpy|cad|aud|dollars?|euros?|pesos|reais|reales|rupees|km|kg|mi|miles|lbs?|pts|points|puntos|pontos|punkte|punti|mins?|minutes?|minutos|minuten|hours?|hrs?|horas|heures|stunden|am|pm|gb|mb|tb)(?![${WORD_CHARS}]))`,
    'iu',
  ),
] as const;

const YEAR = /^(?:19|20)\d{2}$/u;
const MONTH = new RegExp(
  `(?<![${WORD_CHARS}])(?:jan|feb|f[ée]v|mar|m[äa]r|apr|avr|abr|may|mai|mag|jun|juin|giu|jul|juil|lug|aug|ago|ao[ûu]|sep|set|oct|okt|ott|out|nov|dec|d[ée]c|dez|dic|ene|gen)\\p{L}*\\.?`,
  'iu',
);
const DATE_WINDOW = 16;

function isYearInDate(text: string, start: number, end: number, digits: string): boolean {
  if (!YEAR.test(digits)) return false;
  const around = text.slice(Math.max(0, start - DATE_WINDOW), end + DATE_WINDOW);
  return MONTH.test(around);
}

function hasNonCodeContext(text: string, start: number, end: number): boolean {
  const before = text.slice(Math.max(0, start - BEFORE_WINDOW), start);
  const after = text.slice(end, end + AFTER_WINDOW);
  return (
    NOT_A_CODE_BEFORE.some((pattern) => pattern.test(before)) ||
    NOT_A_CODE_AFTER.some((pattern) => pattern.test(after))
  );
}

/**
 * Lists, in text order, every token of `text` that could be a verification code on its own.
 *
 * Whether it is one depends on the keywords around it, which the detector judges.
 */
export function findCodeCandidates(text: string): CodeCandidate[] {
  const candidates: CodeCandidate[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const start = match.index;
    const end = start + match[0].length;
    const { prefix, prefixed, run, alnum } = match.groups ?? {};
    if (hasNonCodeContext(text, start, end)) continue;

    if (prefix !== undefined && prefixed !== undefined) {
      const providerHint = PREFIX_PROVIDERS[prefix];
      candidates.push({
        start,
        end,
        code: prefixed,
        kind: 'digits',
        ...(providerHint ? { providerHint } : {}),
      });
    } else if (run !== undefined) {
      if (!CODE_RUN.test(run)) continue;
      const digits = run.replace(/[- ]/gu, '');
      if (isYearInDate(text, start, end, digits)) continue;
      candidates.push({ start, end, code: digits, kind: 'digits' });
    } else if (alnum !== undefined) {
      if (WORD_WITH_NUMBER.test(alnum)) continue;
      candidates.push({ start, end, code: alnum, kind: 'alphanumeric' });
    }
  }
  return candidates;
}
