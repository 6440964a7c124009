// The words the OTP detector reads, per language. Kept apart from the detector so a new language is
// a data change: add its phrases to the lists below and a few messages to the corpus.

/** Characters that make up words in space-separated scripts; a keyword must not touch one. */
export const WORD_CHARS = '\\p{Script=Latin}\\p{Script=Cyrillic}\\p{Script=Greek}\\p{N}';

/** Compiles alternatives into one regex that matches them as whole words. */
function wholeWords(alternatives: readonly string[], flags = 'giu'): RegExp {
  return new RegExp(`(?<![${WORD_CHARS}])(?:${alternatives.join('|')})(?![${WORD_CHARS}])`, flags);
}

const SPACED_CODE_NOUN = wholeWords([
  // English
  '(?:verification|security|login|log-?in|sign-?in|sign in|signin|access|authentication|auth|authori[sz]ation|confirmation|one-?time|one time|temporary|2fa|2-step|two-factor|two-step|reset|recovery|backup|activation|validation|approval|otp|sms|guard) (?:pass)?codes?',
  'passcodes?',
  'otp',
  'one-?time (?:password|pin)',
  '(?:verification|security) pin',
  // Spanish and Portuguese
  'c[óo]digos? (?:de |do |da )?(?:verificaci[óo]n|verifica[çc][ãa]o|seguridad|seguran[çc]a|acceso|acesso|confirmaci[óo]n|confirma[çc][ãa]o|activaci[óo]n|ativa[çc][ãa]o|validaci[óo]n|valida[çc][ãa]o|autenticaci[óo]n|autentica[çc][ãa]o|autorizaci[óo]n|autoriza[çc][ãa]o|inicio de sesi[óo]n|login|un solo uso|uso [úu]nico|otp|sms|recuperaci[óo]n|recupera[çc][ãa]o)',
  'clave (?:din[áa]mica|de seguridad|de un solo uso|temporal|otp|de acceso|de verificaci[óo]n)',
  'contrase[ñn]a (?:de un solo uso|temporal|din[áa]mica)',
  'senha (?:tempor[áa]ria|de uso [úu]nico|[úu]nica|din[âa]mica)',
  // French
  "code (?:de |d')?(?:v[ée]rification|s[ée]curit[ée]|confirmation|validation|connexion|acc[èe]s|activation|authentification|r[ée]initialisation|usage unique|à usage unique|temporaire|unique|otp|sms)",
  'mot de passe (?:à usage unique|temporaire|unique)',
  // German
  '(?:best[äa]tigungs|sicherheits|verifizierungs|verifikations|anmelde|einmal|zugangs|login|authentifizierungs|aktivierungs|freigabe|pr[üu]f|sms)-?code',
  'einmal-?(?:passwort|kennwort)',
  '(?:m|push|sms|photo|chip)tan',
  // Italian
  "codice (?:di |per |d')?(?:verifica|sicurezza|accesso|conferma|attivazione|autenticazione|autorizzazione|monouso|temporaneo|otp|sms|usa e getta)",
  'password (?:monouso|temporanea|usa e getta)',
  // Dutch
  '(?:verificatie|beveiligings|bevestigings|inlog|toegangs|activerings|sms-?)code',
  'eenmalige (?:code|wachtwoord)',
  // Polish
  'kod(?:u)? (?:weryfikacyjny|potwierdzaj[ąa]cy|bezpiecze[ńn]stwa|sms|dost[ęe]pu|jednorazowy|autoryzacyjny)',
  // Turkish (the noun takes suffixes: kodu, kodunuz)
  '(?:do[ğg]rulama|onay|g[üu]venlik|giri[şs]|tek kullan[ıi]ml[ıi]k) kod\\p{L}*',
  // Russian
  'код(?:а)? (?:подтверждения|проверки|безопасности|для входа|доступа|активации)',
  'одноразовый (?:код|пароль)',
  // Indonesian and Malay
  'kode (?:verifikasi|otp|keamanan|rahasia|akses|konfirmasi)',
]);

// Chinese, Japanese, Korean and Arabic phrases: CJK glues the code to the noun ("验证码123456"),
// so these carry no word boundary.
const UNSPACED_CODE_NOUN = new RegExp(
  [
    '验证码|驗證碼|校验码|校驗碼|动态码|動態碼|动态密码|确认码|確認碼',
    '認証コード|確認コード|認証番号|確認番号|ワンタイムパスワード|セキュリティコード|検証コード',
    '인증\\s?번호|인증\\s?코드|보안\\s?코드|확인\\s?코드',
    'رمز التحقق|رمز التأكيد|رمز التفعيل|كود التفعيل',
  ].join('|'),
  'gu',
);

// Acronyms that name a code only in capitals ("TAN", not the colour "tan").
const CODE_ACRONYM = wholeWords(['TAN'], 'gu');

/** Phrases that name a verification code unambiguously, whatever surrounds them (global regexes). */
export const STRONG_CODE_NOUNS: readonly RegExp[] = [
  SPACED_CODE_NOUN,
  UNSPACED_CODE_NOUN,
  CODE_ACRONYM,
];

/** Bare words for "code", which need an owner, a brand or an OTP cue before they count. */
export const BARE_CODE_NOUN = wholeWords(['codes?', 'c[óo]digos?', 'codice', 'kod', 'kode', 'код']);

/** Words right before a code noun that give it another meaning (zip code, promo code, door code). */
export const QUALIFIER_BEFORE_NOUN = new RegExp(
  `(?<![${WORD_CHARS}])(?:${[
    'zip',
    'postal',
    'post',
    'postleit',
    'area',
    'country',
    'promo',
    'promotional',
    'discount',
    'coupon',
    'voucher',
    'gift(?: card)?',
    'referral',
    'invite',
    'invitation',
    'tracking',
    'order',
    'booking',
    'reservation',
    'reference',
    'error',
    'status',
    'source',
    'dress',
    'qr',
    'bar',
    'colou?r',
    'tax',
    'product',
    'item',
    'html',
    'css',
    'morse',
    'cheat',
    'door',
    'gate',
    'garage',
    'alarm',
    'building',
    'room',
    'hotel',
    'parking',
    'pickup',
    'pick-up',
    'collection',
    'parcel',
    'package',
    'delivery',
    'courier',
    'driver',
    'rider',
    'locker',
    'wi-?fi',
    'rabatt',
    'gutschein',
    'aktions',
    'ticket',
    'event',
    'member(?:ship)?',
    'loyalty',
    'shipping',
    'meeting',
    'conference',
    'customer',
    'client',
    'employee',
    'student',
    'patient',
    'appointment',
  ].join('|')})[\\s-]*$`,
  'iu',
);

/** Words right after a code noun that give it another meaning (código postal, code review). */
export const QUALIFIER_AFTER_NOUN = new RegExp(
  `^[\\s-]*(?:${[
    'postal',
    'postale',
    'promo',
    'promocional',
    'promozionale',
    'promotionnel',
    "d'erreur",
    "d'invitation",
    'review',
    'reviews',
    'base',
    'of conduct',
    'snippet',
    'editor',
    'sample',
    'word',
    'name',
    'client',
    'cliente',
    'du client',
    'sconto',
    'wi-?fi',
    'del? (?:cliente|client|usuario|usu[áa]rio|descuento|desconto|promoci[óo]n|rastreo|rastreamento|seguimiento|suivi|r[ée]f[ée]rence|referencia|refer[êe]ncia|barras|error|erro|[áa]rea|pa[íi]s|pedido|commande|reserva|r[ée]servation|cup[óo]n|cupom|regalo|invitaci[óo]n|convite|conducta|conduta|retiro|retirada|la puerta|la porte)',
    'di (?:sconto|riferimento|errore|tracciamento|avviamento|condotta)',
  ].join('|')})(?![${WORD_CHARS}])`,
  'iu',
);

/** A possessive up to three words before a bare code noun ("your code", "tu código de"). */
export const POSSESSIVE_BEFORE_NOUN = new RegExp(
  `(?<![${WORD_CHARS}])(?:your|ur|tu|su|vuestro|votre|ton|dein|deine|ihr|tuo|suo|seu|sua|teu|je|uw|tw[óo]j|ваш|твой)(?:\\s+[\\p{L}\\p{N}'-]+){0,3}[\\s-]*$`,
  'iu',
);

/** Phrases that only verification messages use: verify, sign in, do not share, 2FA… */
export const OTP_CUE = wholeWords(
  [
    'verif\\p{L}*',
    'v[ée]rif\\p{L}*',
    'log ?in',
    'sign[ -]?in',
    '2fa',
    'two-factor',
    '2-step',
    'two-step',
    'one-?time',
    'otp',
    'password',
    'passwort',
    'kennwort',
    'contrase[ñn]a',
    'senha',
    'mot de passe',
    "don'?t share",
    'do not share',
    'never share',
    'no (?:lo |la )?compart\\p{L}*',
    'n[ãa]o (?:o |a )?compartilh\\p{L}*',
    'ne (?:le |la )?(?:partagez|communiquez)',
    'nicht weiter\\p{L}*',
    'non condivider\\p{L}*',
    'authenticat\\p{L}*',
    'autentica\\p{L}*',
    'authentifi\\p{L}*',
    'anmeld\\p{L}*',
    'inicio de sesi[óo]n',
    'iniciar sesi[óo]n',
    'connexion',
    'accedi',
  ],
  'iu',
);

/** Whole-message contexts in which a code-looking number is never a verification code. */
export const NON_OTP_CONTEXT = [
  // Promotions: a percentage or a discount word.
  /\d\s?%(?![\w.])|%\s?off/iu,
  wholeWords(
    [
      'discount',
      'coupon',
      'promo',
      'promotional',
      'voucher',
      'checkout',
      'descuento',
      'cup[óo]n',
      'promoci[óo]n',
      'rabatt(?:code)?',
      'gutschein(?:code)?',
      'r[ée]duction',
      'remise',
      'sconto',
      'desconto',
      'cupom',
      'promo[çc][ãa]o',
      'korting(?:scode)?',
      'indirim',
    ],
    'iu',
  ),
  // Meetings and dial-ins, whose passcodes are not verification codes.
  wholeWords(
    [
      'meeting',
      'conference',
      'dial-?in',
      'webinar',
      'reuni[óo]n',
      'r[ée]union',
      'besprechung',
      'konferenz',
      'riunione',
      'reuni[ãa]o',
      'vergadering',
    ],
    'iu',
  ),
  // Physical access codes: doors, gates, lockers, Wi-Fi.
  wholeWords(
    [
      'door',
      'gate',
      'garage',
      'alarm',
      'lockbox',
      'locker',
      'keypad',
      'buzzer',
      'intercom',
      'wi-?fi',
      'puerta',
      'port[óo]n',
      'digicode',
      't[üu]r',
      'portone',
      'cancello',
      'port[ãa]o',
      'portaria',
    ],
    'iu',
  ),
  // Travel: booking references look exactly like alphanumeric codes.
  wholeWords(
    [
      'flight',
      'boarding',
      'itinerary',
      'pnr',
      'record locator',
      'vuelo',
      'embarque',
      'flug',
      'volo',
      'voo',
      'check-in',
    ],
    'iu',
  ),
] as const;

/** A copula or "as" right after a code and before its noun ("123456 is your code"). */
export const COPULA_AFTER_CODE = new RegExp(
  `^\\s*(?:[-:,]\\s*)?(?:is|es|est|ist|è|é|e|as|als|como|come|comme|adalah|это)(?![${WORD_CHARS}])`,
  'iu',
);

/** An instruction to type what follows ("enter 123456", "introduce el código"). */
export const IMPERATIVE_BEFORE_CODE = new RegExp(
  `(?<![${WORD_CHARS}])(?:use|enter|type|input|ingresa|ingrese|introduce|introduzca|digite|insira|saisissez|entrez|utilisez|gib|geben sie|inserisci|usa|utilizza|voer|gebruik)(?:\\s+(?:the|el|le|o|il|den|de)?\\s*(?:code|c[óo]digo|codice))?\\s*:?\\s*$`,
  'iu',
);
