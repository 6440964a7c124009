/**
 * Where Twilio says the fake Twilio behaves as it does: one row per route, callback, error code,
 * default and quirk of `fake-twilio.ts`, and a last section of what the Twilio adapter
 * (`packages/server/src/providers/twilio/`) relies on. `fake-twilio-fidelity.test.ts` fails when
 * the fake serves a route or posts a callback (or a callback parameter) without a row here, or a
 * row names one the fake lacks.
 *
 * Citations: Twilio's OpenAPI files (github.com/twilio/twilio-oai `spec/json/`, as kept in
 * `/work/shared/research/twilio-openapi/`) by JSON path and line; twilio-node at commit
 * 45d3d65a4ea87652f4c7973af0e0998f3af31322 by file and line; Twilio's documentation by URL.
 */

/** What a row is about. */
type FidelityKind =
  /** A route the fake serves: `subject` is its `FakeTwilioRouteId`. */
  | 'route'
  /** A call the fake posts to the customer: `subject` is its `FakeTwilioCallbackKind`. */
  | 'callback'
  /** An error code the fake answers API calls with: `subject` is the code. */
  | 'error'
  /** A default the fake starts with. */
  | 'default'
  /** An upstream quirk the fake reproduces rather than repairs. */
  | 'quirk'
  /** A request the adapter makes or a field it reads, and what Twilio says of it. */
  | 'adapter';

/** One behaviour and where Twilio documents it. */
export interface FidelityRow {
  /** What the row is about. */
  kind: FidelityKind;
  /** The route id, callback kind, error code, or a short name of the behaviour. */
  subject: string;
  /** What the fake (or, for `adapter` rows, the adapter) does. */
  behaviour: string;
  /** The form parameters a callback posts (`MediaUrl{N}` for the numbered ones). */
  params?: readonly string[];
  /** Where Twilio says so: OpenAPI path and line, twilio-node file:line, or a docs URL. */
  sources: readonly string[];
}

const API = 'twilio_api_v2010.json';
const LOOKUPS = 'twilio_lookups_v2.json';
const NODE = 'twilio-node@45d3d65';

/** The fake Twilio's behaviours, each with where Twilio says so. */
export const FAKE_TWILIO_FIDELITY: readonly FidelityRow[] = [
  // ---- Routes ---------------------------------------------------------------------------------
  {
    kind: 'route',
    subject: 'POST /2010-04-01/Accounts/{AccountSid}/Messages.json',
    behaviour:
      'Creates a message from a form (To, From or MessagingServiceSid, Body, repeated MediaUrl, StatusCallback): 201 with the Message resource, status `queued` (`accepted` through a Messaging Service), an SM SID (MM with media), no date_sent yet.',
    sources: [
      `${API} paths["/2010-04-01/Accounts/{AccountSid}/Messages.json"].post line 24320 (201 at line 24341)`,
      `${API} components.schemas["api.v2010.account.message"] line 3687`,
      `${NODE} src/rest/api/v2010/account/message.ts:1110`,
      'https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource',
    ],
  },
  {
    kind: 'route',
    subject: 'GET /2010-04-01/Accounts/{AccountSid}/Messages.json',
    behaviour:
      'Lists messages newest first, filtered by To, From and DateSent / DateSent< / DateSent> (GMT dates: a full date-time counts its day; a message not sent yet matches no date filter), paged by PageSize (default 50, at most 1000) and Page, with the list page shape.',
    sources: [
      `${API} paths["/2010-04-01/Accounts/{AccountSid}/Messages.json"].get line 24820 (DateSent> line 24944, PageSize line 24970, 200 line 24999)`,
      `${NODE} src/rest/api/v2010/account/message.ts:1296`,
    ],
  },
  {
    kind: 'route',
    subject: 'GET /2010-04-01/Accounts/{AccountSid}/Messages/{Sid}.json',
    behaviour: 'Fetches one message: 200 with the Message resource, 404 / 20404 when unknown.',
    sources: [
      `${API} paths["/2010-04-01/Accounts/{AccountSid}/Messages/{Sid}.json"].get line 25316 (200 line 25349)`,
    ],
  },
  {
    kind: 'route',
    subject: 'GET /2010-04-01/Accounts/{AccountSid}/Messages/{MessageSid}/Media/{Sid}',
    behaviour:
      'The media URL of an inbound MMS (`MediaUrl{N}`): behind Basic auth (HTTP Basic authentication for media on), answers a redirect to a CDN URL that needs no auth.',
    sources: [
      `${API} paths["/2010-04-01/Accounts/{AccountSid}/Messages/{MessageSid}/Media/{Sid}.json"] line 23348`,
      'https://www.twilio.com/docs/messaging/api/media-resource#fetch-media-file',
      'https://www.twilio.com/docs/usage/security#http-authentication',
    ],
  },
  {
    kind: 'route',
    subject: 'GET /2010-04-01/Accounts/{AccountSid}/Messages/{MessageSid}/Media.json',
    behaviour:
      'Lists the media of a message (`media_list`: sid, content_type, parent_sid, uri ending `.json`; the URI without `.json` is the file itself).',
    sources: [
      `${API} paths["/2010-04-01/Accounts/{AccountSid}/Messages/{MessageSid}/Media.json"].get line 23549 (200 line 23647)`,
      `${API} components.schemas["api.v2010.account.message.media"] line 3594`,
      'https://www.twilio.com/docs/messaging/api/media-resource#read-multiple-media-resources',
    ],
  },
  {
    kind: 'route',
    subject: 'GET /2010-04-01/Accounts/{Sid}.json',
    behaviour:
      'Fetches the Account resource (status `active`, type `Full`) for the auth token or a Main API key; a Standard key is answered 401 / 20003 "Authenticate".',
    sources: [
      `${API} paths["/2010-04-01/Accounts/{Sid}.json"].get line 7851 (200 line 7872)`,
      `${API} components.schemas["api.v2010.account"] line 10`,
      'https://www.twilio.com/docs/iam/api-keys/keys-in-console',
      'https://github.com/twilio/twilio-python/issues/259',
    ],
  },
  {
    kind: 'route',
    subject: 'GET /2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers.json',
    behaviour:
      'Lists the account’s numbers (filter PhoneNumber, PageSize) with the IncomingPhoneNumber shape, `sms_url` being the URL Twilio posts inbound messages to, as configured (connection-override fragment included). Readable with a Standard API key.',
    sources: [
      `${API} paths["/2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers.json"].get line 19448 (PhoneNumber line 19506, 200 line 19560)`,
      `${API} components.schemas["api.v2010.account.incoming_phone_number"] line 2252`,
      `${NODE} src/rest/api/v2010/account/incomingPhoneNumber.ts:1459`,
    ],
  },
  {
    kind: 'route',
    subject: 'GET /v2/PhoneNumbers/{PhoneNumber}',
    behaviour:
      'Lookup v2: 200 with `valid` and, when `Fields=line_type_intelligence`, the line type package (`type`, `carrier_name`, `error_code: null`); packages not asked for are null; an invalid number is `valid: false` with `validation_errors`.',
    sources: [
      `${LOOKUPS} paths["/v2/PhoneNumbers/{PhoneNumber}"].get line 39 (Fields line 62, 200 line 374, example fetchLineTypeIntelligence line 649)`,
      `${LOOKUPS} components.schemas.LineTypeIntelligenceInfo line 2929`,
      `${NODE} src/rest/lookups/v2/phoneNumber.ts:297`,
      'https://www.twilio.com/docs/lookup/v2-api/line-type-intelligence',
    ],
  },

  // ---- Callbacks ------------------------------------------------------------------------------
  {
    kind: 'callback',
    subject: 'status',
    behaviour:
      'A status callback per step (sending, sent, delivered; or undelivered / failed with ErrorCode) POSTed form-encoded to the message’s StatusCallback, signed X-Twilio-Signature over the URL as given (fragment included) and the sorted parameters.',
    params: [
      'SmsSid',
      'SmsStatus',
      'MessageStatus',
      'To',
      'MessageSid',
      'AccountSid',
      'From',
      'ApiVersion',
      'MessagingServiceSid',
      'ErrorCode',
      'RawDlrDoneDate',
    ],
    sources: [
      'https://www.twilio.com/docs/messaging/guides/track-outbound-message-status',
      'https://www.twilio.com/docs/messaging/api/message-resource#message-status-values',
      `${NODE} src/webhooks/webhooks.ts:149`,
    ],
  },
  {
    kind: 'callback',
    subject: 'inbound',
    behaviour:
      'An inbound SMS/MMS POSTed form-encoded to the number’s sms_url (SmsStatus `received`), signed like a status callback; media as MediaUrl{N} / MediaContentType{N}; OptOutType (STOP, START, HELP) when Advanced Opt-Out matched a keyword. The receiver answers TwiML.',
    params: [
      'ToCountry',
      'SmsMessageSid',
      'NumMedia',
      'SmsSid',
      'SmsStatus',
      'Body',
      'To',
      'NumSegments',
      'MessageSid',
      'AccountSid',
      'From',
      'FromCountry',
      'ApiVersion',
      'OptOutType',
      'MediaContentType{N}',
      'MediaUrl{N}',
    ],
    sources: [
      'https://www.twilio.com/docs/messaging/guides/webhook-request',
      'https://help.twilio.com/articles/360034798533-Getting-Started-with-Advanced-Opt-Out-for-Messaging-Services',
      `${NODE} src/webhooks/webhooks.ts:149`,
    ],
  },

  // ---- Errors ---------------------------------------------------------------------------------
  {
    kind: 'error',
    subject: '20003',
    behaviour:
      '401 {code: 20003, message: "Authenticate"} for missing or wrong credentials, and for a Standard API key on the Account resource.',
    sources: [
      'https://www.twilio.com/docs/api/errors/20003',
      'https://github.com/twilio/twilio-python/issues/259',
      `${NODE} src/base/RestException.ts:25`,
    ],
  },
  {
    kind: 'error',
    subject: '20404',
    behaviour: '404 for an unknown route, message or another account’s resources.',
    sources: ['https://www.twilio.com/docs/api/errors/20404'],
  },
  {
    kind: 'error',
    subject: '20429',
    behaviour: '429 with Retry-After (fault `rateLimited`).',
    sources: [
      'https://www.twilio.com/docs/api/errors/20429',
      'https://www.twilio.com/docs/usage/rest-api-best-practices#retry-with-exponential-backoff',
    ],
  },
  {
    kind: 'error',
    subject: '20500',
    behaviour: '5xx (faults `serverErrors`, `createdThenError`).',
    sources: ['https://www.twilio.com/docs/api/errors/20500'],
  },
  {
    kind: 'error',
    subject: '21211',
    behaviour: '400 for a To that is not a valid phone number.',
    sources: ['https://www.twilio.com/docs/api/errors/21211'],
  },
  {
    kind: 'error',
    subject: '21602',
    behaviour: '400 for a message with no Body, MediaUrl or ContentSid.',
    sources: ['https://www.twilio.com/docs/api/errors/21602'],
  },
  {
    kind: 'error',
    subject: '21603',
    behaviour: '400 when neither From nor MessagingServiceSid is given.',
    sources: ['https://www.twilio.com/docs/api/errors/21603'],
  },
  {
    kind: 'error',
    subject: '21604',
    behaviour: '400 when To is missing.',
    sources: ['https://www.twilio.com/docs/api/errors/21604'],
  },
  {
    kind: 'error',
    subject: '21606',
    behaviour:
      '400 when From is not a message-capable number of the account (or the Messaging Service has no sender).',
    sources: ['https://www.twilio.com/docs/api/errors/21606'],
  },
  {
    kind: 'error',
    subject: '21610',
    behaviour: '400 when the recipient texted an opt-out keyword to the sender.',
    sources: [
      'https://www.twilio.com/docs/api/errors/21610',
      'https://help.twilio.com/articles/223134027-Twilio-support-for-opt-out-keywords-SMS-STOP-filtering',
    ],
  },
  {
    kind: 'error',
    subject: '21617',
    behaviour: '400 for a Body longer than 1600 characters.',
    sources: ['https://www.twilio.com/docs/api/errors/21617'],
  },
  {
    kind: 'error',
    subject: '21623',
    behaviour: '400 for more than ten MediaUrl.',
    sources: [
      'https://www.twilio.com/docs/api/errors/21623',
      `${API} paths["/2010-04-01/Accounts/{AccountSid}/Messages.json"].post MediaUrl line 24686`,
    ],
  },
  {
    kind: 'error',
    subject: 'error body',
    behaviour: 'Every error answers JSON {code, message, more_info, status}.',
    sources: [
      `${NODE} src/base/RestException.ts:16`,
      'https://www.twilio.com/docs/usage/twilios-response#response-formats-exceptions',
    ],
  },

  // ---- Defaults -------------------------------------------------------------------------------
  {
    kind: 'default',
    subject: 'credentials',
    behaviour:
      'Basic auth as the account SID and auth token, or an API key SID and secret; API keys are Standard unless added to `mainApiKeys`.',
    sources: [
      `${API} components.securitySchemes line 3`,
      'https://www.twilio.com/docs/iam/api-keys/keys-in-console',
      'https://www.twilio.com/docs/usage/requests-to-twilio',
    ],
  },
  {
    kind: 'default',
    subject: 'opt-out keywords',
    behaviour:
      'Without Advanced Opt-Out, a message that is exactly STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE or OPTOUT opts the sender out (21610 from then on), START, YES or UNSTOP opts back in, HELP or INFO asks for help; no OptOutType parameter. With Advanced Opt-Out the service’s keywords apply and OptOutType is posted.',
    sources: [
      'https://help.twilio.com/articles/223134027-Twilio-support-for-opt-out-keywords-SMS-STOP-filtering',
      'https://help.twilio.com/articles/360034798533-Getting-Started-with-Advanced-Opt-Out-for-Messaging-Services',
    ],
  },
  {
    kind: 'default',
    subject: 'connection overrides',
    behaviour:
      'A callback URL’s fragment `#rc=N&rp=…` sets how often a failed call is tried again (rc, 0–5, default 1) and on which failures (rp: 4xx, 5xx, ct, rt, all; default ct). Every try carries the same I-Twilio-Idempotency-Token.',
    sources: [
      'https://www.twilio.com/docs/usage/webhooks/webhooks-connection-overrides',
      'https://www.twilio.com/docs/usage/webhooks/webhooks-overview#idempotency',
    ],
  },
  {
    kind: 'default',
    subject: 'lifecycle',
    behaviour:
      'A sent message walks queued (accepted → queued through a service), sending, sent, delivered, a step every `stepMs`; a recipient set to fail ends undelivered or failed with its ErrorCode (30008 by default).',
    sources: [
      `${API} components.schemas.message_enum_status line 3821`,
      'https://www.twilio.com/docs/messaging/api/message-resource#message-status-values',
    ],
  },

  // ---- Quirks reproduced ----------------------------------------------------------------------
  {
    kind: 'quirk',
    subject: 'Canadian line type',
    behaviour:
      'Lookup of a Canadian number (+1, Canadian area code) without approval answers 200, `country_code: "CA"`, and `line_type_intelligence` with `type: null` and `error_code: 60601` (every other field null).',
    sources: [
      'https://www.twilio.com/docs/lookup/v2-api/line-type-intelligence#coverage',
      'https://www.twilio.com/docs/api/errors/60601',
    ],
  },
  {
    kind: 'quirk',
    subject: 'nulls the OpenAPI file types otherwise',
    behaviour:
      'Lookup answers `error_code: null` in a package that succeeded, `validation_errors: null` for a valid number, and null for every package not asked for, although the OpenAPI file types them integer, array and object.',
    sources: [
      `${LOOKUPS} paths["/v2/PhoneNumbers/{PhoneNumber}"].get example fetchLineTypeIntelligence line 649`,
    ],
  },
  {
    kind: 'quirk',
    subject: 'signature with a fragment',
    behaviour:
      'The signature of a call to a URL with connection overrides covers the URL as configured, fragment included, though the fragment never reaches the receiver: a validator must put it back.',
    sources: [
      'https://www.twilio.com/docs/usage/webhooks/webhooks-connection-overrides',
      `${NODE} src/webhooks/webhooks.ts:77`,
    ],
  },
  {
    kind: 'quirk',
    subject: 'callbacks out of order and twice',
    behaviour:
      'Status callbacks of one message may arrive out of order or more than once (faults `outOfOrder`, `duplicateCallbacks`).',
    sources: ['https://www.twilio.com/docs/messaging/guides/track-outbound-message-status'],
  },

  // ---- What the adapter relies on -------------------------------------------------------------
  {
    kind: 'adapter',
    subject: 'send',
    behaviour:
      '`POST …/Messages.json` with To, From (or MessagingServiceSid), Body (omitted when empty), MediaUrl repeated up to ten, StatusCallback = the ingress URL with `?attempt=` and the `#rc=3&rp=all` override; reads `sid` and `num_segments` (a string) of the 201.',
    sources: [
      `${API} paths["/2010-04-01/Accounts/{AccountSid}/Messages.json"].post line 24320 (StatusCallback line 24590, MessagingServiceSid line 24675, MediaUrl line 24686)`,
      `${API} components.schemas["api.v2010.account.message"].num_segments line 3701`,
      `${NODE} src/rest/api/v2010/account/message.ts:1155`,
    ],
  },
  {
    kind: 'adapter',
    subject: 'errors',
    behaviour:
      'Reads `code` and `message` of an error body and `Retry-After` of a 429; 5xx or no answer is uncertain (the message may exist). Codes map to spec codes in `twilio-error-codes.ts` (30032, 30034, 21606, 21617 among them).',
    sources: [
      `${NODE} src/base/RestException.ts:25`,
      'https://www.twilio.com/docs/api/errors/30032',
      'https://www.twilio.com/docs/api/errors/30034',
      'https://www.twilio.com/docs/api/errors/21606',
      'https://www.twilio.com/docs/api/errors/21617',
    ],
  },
  {
    kind: 'adapter',
    subject: 'reconcile a send',
    behaviour:
      '`GET …/Messages.json?To=&From=&PageSize=50`: matches body, num_media and date_created (RFC 2822) of the newest messages to find a create that timed out.',
    sources: [
      `${API} paths["/2010-04-01/Accounts/{AccountSid}/Messages.json"].get line 24820`,
      `${API} components.schemas["api.v2010.account.message"].date_created line 3791`,
    ],
  },
  {
    kind: 'adapter',
    subject: 'status lookup',
    behaviour:
      '`GET …/Messages/{Sid}.json`: maps `status` (sent, delivered, read, undelivered, failed, canceled; the rest in progress) and `error_code` / `error_message`; 404 means unknown.',
    sources: [
      `${API} paths["/2010-04-01/Accounts/{AccountSid}/Messages/{Sid}.json"].get line 25316`,
      `${API} components.schemas.message_enum_status line 3821 (read is WhatsApp only)`,
    ],
  },
  {
    kind: 'adapter',
    subject: 'health and inbound catch-up',
    behaviour:
      '`GET …/IncomingPhoneNumbers.json?PageSize=100` (a Standard key may read it, unlike the Account): 401/403 is credentials_rejected, no answer upstream_unreachable. For each number whose sms_url is the instance’s ingress, `GET …/Messages.json?To=<number>&DateSent>=<day>` and every `direction: inbound` message sent since the last check is reported once (its MessageSid is its upstream event id).',
    sources: [
      `${API} paths["/2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers.json"].get line 19448`,
      `${API} components.schemas["api.v2010.account.incoming_phone_number"] line 2252`,
      `${API} paths["/2010-04-01/Accounts/{AccountSid}/Messages.json"].get DateSent> line 24944`,
      `${API} components.schemas["api.v2010.account.message"].direction line 3706`,
      'https://www.twilio.com/docs/iam/api-keys/keys-in-console',
    ],
  },
  {
    kind: 'adapter',
    subject: 'availability',
    behaviour:
      '`GET /v2/PhoneNumbers/{n}?Fields=line_type_intelligence`: `valid: false` cannot receive SMS; a package with an `error_code` (60601) or no `type` is unknown and not cached; mobile, fixedVoip, nonFixedVoip, personal and tollFree receive SMS.',
    sources: [
      `${LOOKUPS} paths["/v2/PhoneNumbers/{PhoneNumber}"].get line 39`,
      'https://www.twilio.com/docs/lookup/v2-api/line-type-intelligence',
      'https://www.twilio.com/docs/api/errors/60601',
    ],
  },
  {
    kind: 'adapter',
    subject: 'callback fields',
    behaviour:
      'Reads MessageSid (or SmsSid), MessageStatus (or SmsStatus), ErrorCode, From, To, Body, NumMedia, MediaUrl{N}, MediaContentType{N} and OptOutType; checks X-Twilio-Signature against the URL with and without its default port and with the override fragment put back.',
    sources: [
      'https://www.twilio.com/docs/messaging/guides/webhook-request',
      'https://www.twilio.com/docs/messaging/guides/track-outbound-message-status',
      `${NODE} src/webhooks/webhooks.ts:189`,
    ],
  },
];
