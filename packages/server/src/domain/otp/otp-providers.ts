import { OTP_PROVIDERS, type OtpProvider } from '@switchboard/contract';
import { WORD_CHARS } from './otp-lexicon';

export { OTP_PROVIDERS, type OtpProvider };

function brand(alternatives: string, flags = 'iu'): RegExp {
  return new RegExp(`(?<![${WORD_CHARS}])(?:${alternatives})(?![${WORD_CHARS}])`, flags);
}

// Order matters only for ties, which cannot happen between distinct words at the same index.
const BRAND_PATTERNS: ReadonlyArray<readonly [OtpProvider, RegExp]> = [
  ['whatsapp', brand('whats\\s?app(?:\\.com|\\.net)?')],
  ['google', brand('google|gmail')],
  ['apple', brand('apple|icloud')],
  ['microsoft', brand('microsoft|outlook|hotmail|live\\.com|xbox')],
  ['facebook', brand('facebook|fb\\.com|messenger\\.com')],
  ['instagram', brand('instagram')],
  ['telegram', brand('telegram|t\\.me')],
  // "signal" is an ordinary English word: only the capitalised app name or its domain counts.
  ['signal', brand('Signal|signal\\.org', 'u')],
  ['amazon', brand('amazon|aws')],
  ['uber', brand('uber')],
  ['paypal', brand('paypal')],
  ['twitter', brand('twitter|x\\.com')],
  ['tiktok', brand('tiktok')],
  ['discord', brand('discord')],
  ['linkedin', brand('linkedin')],
  ['snapchat', brand('snapchat')],
  [
    'bank',
    brand(
      [
        'bank(?:ing)?',
        'banco',
        'banque',
        'banca',
        'sparkasse',
        'volksbank',
        'chase',
        'wells fargo',
        'citibank',
        'barclays',
        'santander',
        'bbva',
        'revolut',
        'monzo',
        'ita[úu]',
        'bradesco',
        'nubank',
        'caixa(?:bank)?',
        'cr[ée]dit agricole',
        'soci[ée]t[ée] g[ée]n[ée]rale',
        'commerzbank',
        'intesa',
        'unicredit',
        'capital one',
        'lloyds',
        'natwest',
        'sabadell',
        'bankinter',
        'postepay',
        'card ending',
        'credit card',
        'debit card',
        'tarjeta',
        'cart[ãa]o',
        'carte bancaire',
        'carta',
        'karte',
        'transa(?:ction|cci[óo]n|[çc][ãa]o|zione|ktion)',
        'transferencia',
        'transfer[êe]ncia',
        'virement',
        '[üu]berweisung',
        'bonifico',
        '(?:m|push|sms|photo|chip)tan',
      ].join('|'),
    ),
  ],
  // Upper-case acronyms that are ordinary words in lower case ("ing", "tan").
  ['bank', brand('ING|HSBC|BNP|N26|TD|RBC|TAN', 'u')],
];

/**
 * Names the service that sent a verification code, from the first brand or bank the text mentions.
 *
 * @example identifyOtpProvider('Your Uber code: 1234') // 'uber'
 */
export function identifyOtpProvider(text: string): OtpProvider {
  let provider: OtpProvider = 'generic';
  let firstIndex = Number.POSITIVE_INFINITY;
  for (const [candidate, pattern] of BRAND_PATTERNS) {
    const match = pattern.exec(text);
    if (match && match.index < firstIndex) {
      firstIndex = match.index;
      provider = candidate;
    }
  }
  return provider;
}
