import type { VerificationCode } from './otp-detector';

/** One realistic message and what the detector must answer for it. */
export interface OtpCorpusEntry {
  /** The message text as a phone would receive it. */
  readonly text: string;
  /** The code and provider to find, or null for a near miss that must pass through untouched. */
  readonly expected: VerificationCode | null;
}

const code = (value: string, provider: VerificationCode['provider']): VerificationCode => ({
  code: value,
  provider,
});

/** Messages that carry a verification code, across providers, languages and formats. */
export const VERIFICATION_MESSAGES: readonly OtpCorpusEntry[] = [
  // WhatsApp, in six languages
  {
    text: "Your WhatsApp code: 123-456\n\nYou can also tap on this link to verify your phone: v.whatsapp.com/123456\n\nDon't share this code with others",
    expected: code('123456', 'whatsapp'),
  },
  {
    text: 'Tu código de WhatsApp es 482-913. No compartas este código con nadie.',
    expected: code('482913', 'whatsapp'),
  },
  {
    text: 'Seu código do WhatsApp: 705-118. Não compartilhe esse código com ninguém.',
    expected: code('705118', 'whatsapp'),
  },
  {
    text: 'Votre code WhatsApp : 339-204. Ne le communiquez à personne.',
    expected: code('339204', 'whatsapp'),
  },
  {
    text: 'Dein WhatsApp-Code: 640-872. Teile diesen Code mit niemandem.',
    expected: code('640872', 'whatsapp'),
  },
  {
    text: 'Il tuo codice WhatsApp è 218-557. Non condividerlo con nessuno.',
    expected: code('218557', 'whatsapp'),
  },
  // Google
  { text: 'G-123456 is your Google verification code.', expected: code('123456', 'google') },
  {
    text: 'G-804211 es tu código de verificación de Google.',
    expected: code('804211', 'google'),
  },
  { text: 'Your Google verification code is 551093', expected: code('551093', 'google') },
  // Apple, with and without its Web OTP line
  {
    text: "Your Apple Account code is: 123456. Don't share it with anyone.\n\n@apple.com #123456 %apple.com",
    expected: code('123456', 'apple'),
  },
  {
    text: "Your Apple ID Verification Code is: 772018. Don't share it with anyone.",
    expected: code('772018', 'apple'),
  },
  // Microsoft
  {
    text: 'Use 8273641 as Microsoft account security code',
    expected: code('8273641', 'microsoft'),
  },
  {
    text: 'Utilisez le code de sécurité 4821 pour le compte Microsoft ro***@outlook.com.',
    expected: code('4821', 'microsoft'),
  },
  // Meta
  { text: 'FB-40217 is your Facebook confirmation code', expected: code('40217', 'facebook') },
  {
    text: "<#> 312 874 is your Instagram code. Don't share it. Laz+nxCarLW",
    expected: code('312874', 'instagram'),
  },
  // Telegram and Signal
  {
    text: 'Telegram code: 58231\n\nYou can also tap on this link to log in:\nhttps://t.me/login/58231\n\nDo not give this code to anyone, even if they say they are from Telegram!',
    expected: code('58231', 'telegram'),
  },
  {
    text: 'Your Signal registration code is 492-017. Do not share this code.',
    expected: code('492017', 'signal'),
  },
  // Amazon, Uber, PayPal, Discord
  {
    text: '123456 is your Amazon OTP. Do not share it with anyone.',
    expected: code('123456', 'amazon'),
  },
  {
    text: 'Your Uber code: 4821. Never share this code. Reply STOP ABC to 81107.',
    expected: code('4821', 'uber'),
  },
  {
    text: 'Tu código de verificación de Uber es 7302. No lo compartas.',
    expected: code('7302', 'uber'),
  },
  {
    text: "PayPal: Your security code is 904172. Your code expires in 10 minutes. Please don't reply.",
    expected: code('904172', 'paypal'),
  },
  { text: 'Your Discord login code is 661204', expected: code('661204', 'discord') },
  // Banks
  {
    text: "Chase: Your one-time code is 12345678. Don't share it. We'll never call you to ask for it.",
    expected: code('12345678', 'bank'),
  },
  {
    text: 'BBVA: Tu clave de seguridad es 482913. No la compartas con nadie, ni con empleados del banco.',
    expected: code('482913', 'bank'),
  },
  {
    text: 'Santander: El código para confirmar tu compra de 45,00 EUR en AMAZON es 732819. No lo compartas.',
    expected: code('732819', 'bank'),
  },
  {
    text: '482913 is your OTP for the transaction of INR 5,000.00 at FLIPKART on card ending 1234. Valid for 10 mins. Do not share.',
    expected: code('482913', 'bank'),
  },
  {
    text: 'Sparkasse: Ihre mTAN für die Überweisung über 1.250,00 EUR lautet 583920.',
    expected: code('583920', 'bank'),
  },
  {
    text: 'O seu código de verificação Nubank é 309182. Não compartilhe com ninguém.',
    expected: code('309182', 'bank'),
  },
  // Generic services, all six required languages and more
  { text: 'Your code is 123-456', expected: code('123456', 'generic') },
  { text: '123456 is your verification code.', expected: code('123456', 'generic') },
  { text: 'Your login code: A7K9Q2', expected: code('A7K9Q2', 'generic') },
  { text: 'Your Steam Guard code: 7XK2P', expected: code('7XK2P', 'generic') },
  {
    text: 'Your verification code is 847261.\n\n@example.com #847261',
    expected: code('847261', 'generic'),
  },
  {
    text: 'Enter 902113 to verify your Acme account. It expires in 10 minutes.',
    expected: code('902113', 'generic'),
  },
  {
    text: 'Votre code de vérification est 550127. Il expire dans 5 minutes.',
    expected: code('550127', 'generic'),
  },
  {
    text: 'Ihr Bestätigungscode lautet: 774019. Geben Sie diesen Code nicht weiter.',
    expected: code('774019', 'generic'),
  },
  {
    text: 'Il tuo codice di verifica è 318845. Scade tra 10 minuti.',
    expected: code('318845', 'generic'),
  },
  {
    text: 'Código de verificación: 665201. Válido por 5 minutos.',
    expected: code('665201', 'generic'),
  },
  {
    text: 'Seu código de acesso é 5531. Não compartilhe.',
    expected: code('5531', 'generic'),
  },
  {
    text: 'Use 4417 como código para redefinir sua senha.',
    expected: code('4417', 'generic'),
  },
  { text: 'Je verificatiecode is 208814', expected: code('208814', 'generic') },
  { text: 'Twój kod weryfikacyjny to 390022', expected: code('390022', 'generic') },
  { text: 'Doğrulama kodunuz: 731904', expected: code('731904', 'generic') },
  {
    text: 'Код подтверждения: 518274. Никому не сообщайте этот код.',
    expected: code('518274', 'generic'),
  },
  {
    text: '【腾讯科技】验证码123456，用于QQ登录，5分钟内有效。',
    expected: code('123456', 'generic'),
  },
  {
    text: '認証コード：８４２１９０ このコードを他人に教えないでください。',
    expected: code('842190', 'generic'),
  },
  {
    text: 'Kode OTP Anda adalah 5524. Jangan berikan kode ini kepada siapa pun.',
    expected: code('5524', 'generic'),
  },
  {
    text: 'Your backup code is 1234-5678. Keep it somewhere safe.',
    expected: code('12345678', 'generic'),
  },
  { text: 'Your LinkedIn verification code is 204417.', expected: code('204417', 'linkedin') },
  { text: 'Snapchat code: 880412. Happy Snapping!', expected: code('880412', 'snapchat') },
  {
    text: 'Dear customer, OTP for login is 663018. Valid 5 min. HDFC Bank',
    expected: code('663018', 'bank'),
  },
  {
    text: 'Il codice di accesso temporaneo è 120934',
    expected: code('120934', 'generic'),
  },
  {
    text: 'Password reset code: 660391. If you did not request a reset, ignore this message.',
    expected: code('660391', 'generic'),
  },
];

/** Messages that look like they carry a code but do not; each must come back null. */
export const NEAR_MISS_MESSAGES: readonly OtpCorpusEntry[] = [
  // Orders, invoices, tracking
  { text: 'Your order #123456 has shipped and will arrive Tuesday.', expected: null },
  { text: 'Tu pedido n.º 123456 ha sido enviado.', expected: null },
  { text: 'Votre commande 123456 a été expédiée.', expected: null },
  { text: 'Ihre Bestellung 123456 wurde versandt. Gesamt: 49,99 €', expected: null },
  { text: 'Il tuo ordine 123456 è in consegna oggi.', expected: null },
  { text: 'Seu pedido 123456 foi enviado. Total R$ 1.234,56', expected: null },
  { text: 'Invoice INV-204518 is due on April 15, 2025.', expected: null },
  { text: 'Your UPS package 1Z999AA10123456784 is out for delivery.', expected: null },
  { text: 'Your tracking code is 1Z999AA10123456784', expected: null },
  { text: 'Reference code 123456 for your payment of 45.00 EUR', expected: null },
  // Money
  { text: 'The house sold for $123,456 last week!', expected: null },
  { text: 'Total: 1234.56 EUR. Thanks for shopping with us!', expected: null },
  { text: 'Your balance is 1234.56 USD', expected: null },
  { text: 'Your card ending in 4821 was charged $54.20 at Starbucks.', expected: null },
  // Dates and times
  { text: 'Your appointment is on 03/04/2025 at 10:30.', expected: null },
  { text: 'Happy new year 2025! 🎉', expected: null },
  {
    text: 'Your verification code expires on March 3, 2025. Request a new one from the app.',
    expected: null,
  },
  // Phone numbers
  { text: 'Call me at 555-1234 when you land', expected: null },
  { text: 'My number is +1 415 555 0199', expected: null },
  {
    text: 'Call 1-800-555-0199 if you did not request a security code.',
    expected: null,
  },
  { text: 'We sent a verification code to the number ending in 4567.', expected: null },
  // Travel
  { text: 'Flight UA1234 departs at 14:35 from gate B12.', expected: null },
  {
    text: 'Your confirmation code is K7XQ2P for flight BA283 on 12 March.',
    expected: null,
  },
  // Chat with numbers in it
  { text: 'Meet at 1230 by the fountain', expected: null },
  { text: "I'm in room 4512 on the fifth floor", expected: null },
  { text: 'ok the code is 4512, see you there', expected: null },
  { text: 'I wrote 1500 lines of code today lol', expected: null },
  { text: 'Your code review is scheduled for 1430', expected: null },
  // "Code" in other senses
  { text: 'Use code SAVE20 for 20% off your next order!', expected: null },
  { text: 'Use promo code WELCOME10 at checkout', expected: null },
  { text: 'Dein Rabattcode: SOMMER25 – gültig bis Sonntag', expected: null },
  { text: 'Código de descuento: VERANO2024', expected: null },
  { text: 'the zip code is 94107, can you send it there?', expected: null },
  { text: 'Código postal: 28013, Madrid', expected: null },
  { text: 'Error code 5001: payment could not be processed', expected: null },
  { text: 'Your invite code is X7K2P9. Share it with friends!', expected: null },
  { text: 'Your gift card code is 4821 9913 7720', expected: null },
  { text: 'The door code is 4512#', expected: null },
  { text: 'Your Amazon Locker pickup code is 482913', expected: null },
  { text: 'Meeting ID: 812 3456 7890 Passcode: 482913', expected: null },
  // Security texts without a code
  { text: 'Two-factor authentication is now enabled on your account.', expected: null },
  { text: 'Your verification code has expired. Please request a new one.', expected: null },
  { text: 'Never share your verification code with anyone, not even with us.', expected: null },
  {
    text: "Password changed on 12 March 2025 at 09:15. If this wasn't you, reset your password.",
    expected: null,
  },
  {
    text: 'New sign-in to your account from Windows 11 at 10:42 (IP 81.2.69.160).',
    expected: null,
  },
  { text: 'Tu código de cliente es 482913', expected: null },
  { text: 'Give the courier code 4821 when your order arrives', expected: null },
  { text: 'Your ride is 4 min away. Your PIN is 4821', expected: null },
  {
    text: 'Bank of America: your payment of $1,234.00 was received. Ref 482913',
    expected: null,
  },
  { text: 'Your account number 48291734 has been verified', expected: null },
  { text: 'Your Uber is arriving in 3 minutes. License plate 7ABC123.', expected: null },
];

/** The whole corpus, verification messages first. */
export const OTP_CORPUS: readonly OtpCorpusEntry[] = [
  ...VERIFICATION_MESSAGES,
  ...NEAR_MISS_MESSAGES,
];
