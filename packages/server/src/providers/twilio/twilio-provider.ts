import type { Channel } from '@switchboard/contract';
import type {
  MessagingProvider,
  ProviderAvailability,
  ProviderAvailabilityRequest,
  ProviderCapabilities,
  ProviderHealth,
  ProviderMessageRef,
  ProviderOperation,
  ProviderSendRequest,
  ProviderSendResult,
  ProviderStartContext,
  ProviderStatusSnapshot,
  ProviderWebhookRequest,
  ProviderWebhookResponse,
} from '@switchboard/provider-kit';
import { healthWarning, ProviderError } from '@switchboard/provider-kit';
import {
  TwilioApi,
  TwilioApiError,
  type TwilioApiOptions,
  type TwilioIncomingNumber,
} from './twilio-api';
import { deliveryStatusOf, eventOfTwilioCall } from './twilio-callbacks';
import { TWILIO_RETRY_FRAGMENT, withRetryOverrides } from './twilio-connection-overrides';
import { twilioFailure } from './twilio-error-codes';
import { TwilioInboundCatchUp } from './twilio-inbound-catch-up';
import { TwilioSendLedger } from './twilio-send-ledger';
import {
  isValidTwilioSignature,
  parseTwilioForm,
  TWILIO_SIGNATURE_HEADER,
} from './twilio-signature';

/** The adapter name of Twilio instances. */
export const TWILIO_PROVIDER = 'twilio';

/** The channels a Twilio instance serves. */
export const TWILIO_CHANNELS: readonly Channel[] = ['sms'];

/** Media URLs Twilio takes per message. */
const TWILIO_MAX_MEDIA_PER_MESSAGE = 10;

/** The empty TwiML Twilio expects in answer to an inbound message: no auto-reply. */
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/** Line types of Lookup v2 that receive SMS. */
const SMS_LINE_TYPES = new Set(['mobile', 'fixedVoip', 'nonFixedVoip', 'personal', 'tollFree']);
/** Line types of Lookup v2 that do not; any other answer (`unknown`, none) is not a no. */
const NO_SMS_LINE_TYPES = new Set([
  'landline',
  'pager',
  'uan',
  'voicemail',
  'sharedCost',
  'premium',
]);

const E164 = /^\+[1-9]\d{6,14}$/;

/** Settings of one Twilio instance. */
export interface TwilioProviderOptions extends Omit<TwilioApiOptions, 'timeoutMs'> {
  /** The instance's friendly name. */
  instanceName: string;
  /** The auth token: Twilio signs its callbacks with it, whatever the API credentials. */
  authToken: string;
  /** Send through this Messaging Service instead of a `From` number. */
  messagingServiceSid?: string;
  /** Ask Lookup v2 line type intelligence for availability (a paid call). */
  lookup: boolean;
  /** Deadline of one API call (default 15 s). */
  timeoutMs?: number;
  /** The time source (epoch ms); tests inject one. */
  now?: () => number;
}

/** One Twilio message of a send. */
interface PlannedPart {
  body: string;
  media: string[];
  kind: 'text' | 'attachment';
}

/**
 * SMS and MMS through a Twilio account (see docs/providers/twilio.md). Sends are form posts to
 * the Messages resource with the instance's ingress URL as `StatusCallback`; statuses and inbound
 * messages arrive as calls Twilio signs with `X-Twilio-Signature`, checked against the auth token.
 * Twilio takes no idempotency key, so a send is written down before it is made and an uncertain
 * call is looked up in Twilio before it is made again ({@link TwilioSendLedger}).
 */
export class TwilioProvider implements MessagingProvider {
  /** The adapter name. */
  readonly provider = TWILIO_PROVIDER;
  /** The instance's friendly name. */
  readonly instanceName: string;
  /** SMS only. */
  readonly channels = TWILIO_CHANNELS;
  /**
   * None: SMS has no edits, unsends, reactions (a contact's arrive as text), typing, read state,
   * chats or groups; the gateway answers `CHANNEL_NOT_SUPPORTED` for them.
   */
  readonly capabilities: ProviderCapabilities = {};

  readonly #options: TwilioProviderOptions;
  readonly #api: TwilioApi;
  readonly #now: () => number;
  #context: ProviderStartContext | undefined;
  #ledger: TwilioSendLedger | undefined;
  #catchUp: TwilioInboundCatchUp | undefined;
  /** The inbound catch-up under way, if one is: runs never overlap. */
  #catchingUp: Promise<void> | undefined;
  /** The callback of each message being recorded: the next one of that message waits for it. */
  readonly #inFlight = new Map<string, Promise<void>>();

  /** A Twilio instance; nothing happens until `start`. */
  constructor(options: TwilioProviderOptions) {
    this.instanceName = options.instanceName;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#api = new TwilioApi({ ...options, timeoutMs: options.timeoutMs ?? 15_000 });
  }

  /**
   * Remembers where events go: Twilio calls in through `handleWebhook`. The inbound messages that
   * came while the instance was away are taken up by the health check, which the gateway runs as
   * it starts and every interval after.
   */
  async start(context: ProviderStartContext): Promise<void> {
    this.#context = context;
    this.#ledger = new TwilioSendLedger(context.state, this.#api, this.#now);
    this.#catchUp = new TwilioInboundCatchUp(this.#api, context.state, this.#now);
    if (context.webhookUrl === undefined) {
      context.logger.warn(
        { instance: this.instanceName },
        'no public ingress URL: Twilio cannot report statuses; set PUBLIC_BASE_URL',
      );
    }
  }

  /** Stops taking Twilio's calls, once a catch-up under way has finished. */
  async stop(): Promise<void> {
    await this.#catchingUp?.catch(() => undefined);
    this.#context = undefined;
    this.#ledger = undefined;
    this.#catchUp = undefined;
  }

  /**
   * Sends one attempt as one or more Twilio messages: each attachment is an MMS of its own (spec
   * rule 5) and media URLs go ten per message, the text riding with the first.
   */
  async send(request: ProviderSendRequest): Promise<ProviderSendResult> {
    const { ledger, context } = this.#started(request, 'send');
    if (request.to.type === 'chat') {
      throw new ProviderError('CHANNEL_NOT_SUPPORTED', 'SMS has no group chats', {
        channel: 'sms',
      });
    }
    const to = request.to.address;
    if (!E164.test(to)) throw ProviderError.unreachable('sms', to);
    const parts = planParts(request);
    const sids: string[] = [];
    let segments = 0;
    for (const [index, part] of parts.entries()) {
      const sent = await this.#sendPart(ledger, context, request, to, index, part);
      sids.push(sent.sid);
      segments += sent.segments;
    }
    const [first] = sids;
    if (first === undefined) throw new Error('a send makes at least one message');
    return {
      externalId: first,
      ...(segments > 0 ? { segments } : {}),
      ...(sids.length > 1
        ? { parts: sids.map((externalId, i) => ({ externalId, kind: parts[i]?.kind ?? 'text' })) }
        : {}),
    };
  }

  async #sendPart(
    ledger: TwilioSendLedger,
    context: ProviderStartContext,
    request: ProviderSendRequest,
    to: string,
    index: number,
    part: PlannedPart,
  ): Promise<{ sid: string; segments: number }> {
    const service = this.#options.messagingServiceSid;
    const from = service === undefined ? request.from : null;
    const known = await ledger.before(request.attemptId, index, {
      to,
      from,
      body: part.body,
      media: part.media.length,
    });
    if (known !== undefined) return { sid: known, segments: 0 };
    const form: [string, string][] = [['To', to]];
    form.push(service === undefined ? ['From', request.from] : ['MessagingServiceSid', service]);
    if (part.body !== '') form.push(['Body', part.body]);
    for (const url of part.media) form.push(['MediaUrl', url]);
    if (context.webhookUrl !== undefined) {
      const callback = new URL(context.webhookUrl);
      callback.searchParams.set('attempt', request.attemptId);
      form.push(['StatusCallback', withRetryOverrides(callback.href)]);
    }
    try {
      const created = await this.#api.createMessage(form);
      await ledger.created(request.attemptId, index, created.sid);
      return { sid: created.sid, segments: Number(created.num_segments ?? '0') || 0 };
    } catch (error) {
      if (!(error instanceof TwilioApiError)) throw error;
      if (error.uncertain) {
        // The message may exist: look before anyone sends it again.
        const found = await ledger.reconcile(request.attemptId, index).catch(() => undefined);
        if (found !== undefined) return { sid: found, segments: 0 };
        throw new ProviderError(
          error.timedOut ? 'PROVIDER_TIMEOUT' : 'INTERNAL_ERROR',
          `${error.message}; the send is checked against Twilio before it is tried again`,
          { retryable: true, fallback: false, channel: 'sms', cause: error },
        );
      }
      await ledger.refused(request.attemptId, index);
      throw providerErrorOf(error);
    }
  }

  /** Checks the signature of a Twilio call and reports what it says. */
  async handleWebhook(request: ProviderWebhookRequest): Promise<ProviderWebhookResponse> {
    const context = this.#context;
    if (!context) return { status: 503, body: 'The instance is not running' };
    if (request.method !== 'POST') return { status: 405, body: 'Twilio calls are POSTs' };
    const params = parseTwilioForm(request.rawBody);
    const signature = request.headers[TWILIO_SIGNATURE_HEADER];
    const signed = isValidTwilioSignature(this.#options.authToken, signature, request.url, params, [
      TWILIO_RETRY_FRAGMENT,
    ]);
    if (!signed) {
      return { status: 403, body: 'Invalid X-Twilio-Signature' };
    }
    const event = eventOfTwilioCall(params, {
      url: request.url,
      now: new Date(this.#now()),
      mediaAuthorization: this.#api.authorization,
    });
    // Twilio posts callbacks concurrently: those of one message reach the sink one at a time.
    // A call the gateway did not record answers 5xx: Twilio tries it again as the URL's connection
    // overrides ask (TWILIO_RETRY_FRAGMENT), then the inbound catch-up takes up what it gave up.
    if (event) await this.#serially(event.externalId, () => context.sink(event));
    return event?.kind === 'message.inbound'
      ? { status: 200, headers: { 'content-type': 'text/xml' }, body: EMPTY_TWIML }
      : { status: 204 };
  }

  /** Twilio's current status of a message, for reconciliation. */
  async fetchStatus(
    request: ProviderOperation & { message: ProviderMessageRef },
  ): Promise<ProviderStatusSnapshot | null> {
    this.#started(request, 'status lookups');
    const message = await this.#api.fetchMessage(request.message.externalId).catch((error) => {
      throw providerErrorOf(error);
    });
    const status = message ? deliveryStatusOf(message.status) : undefined;
    if (!message || status === undefined) return null;
    if (status !== 'failed') return { status };
    return {
      status,
      error: twilioFailure(message.error_code ?? undefined, message.error_message ?? 'Failed'),
    };
  }

  /**
   * Whether an address receives SMS: every valid E.164 number when Lookup is off; with Lookup,
   * the line types that take SMS, no for those that do not. A line type Twilio withholds (an
   * `error_code` such as 60601 for Canadian numbers without approval, `type` null or `unknown`)
   * answers "unknown": the send lets Twilio decide. A Lookup that fails answers "unknown" too and
   * is not cached.
   */
  async checkAvailability(request: ProviderAvailabilityRequest): Promise<ProviderAvailability> {
    const checkedAt = this.#now();
    const answer = (sms: boolean | undefined, transient = false): ProviderAvailability => ({
      address: request.address,
      channels: sms === undefined ? {} : { sms },
      checkedAt,
      ...(transient ? { transient: true } : {}),
    });
    if (!E164.test(request.address)) return answer(false);
    if (!this.#options.lookup) return answer(true);
    try {
      const found = await this.#api.lookup(request.address);
      if (!found.valid) return answer(false);
      const line = found.line_type_intelligence;
      const type = line?.error_code == null ? (line?.type ?? null) : null;
      if (type !== null && SMS_LINE_TYPES.has(type)) return answer(true);
      if (type !== null && NO_SMS_LINE_TYPES.has(type)) return answer(false);
      return answer(undefined);
    } catch {
      return answer(undefined, true);
    }
  }

  /**
   * Lists the account's numbers (a resource every key may read: a Standard API key may not read
   * the Account): unhealthy when Twilio refuses the credentials or does not answer. Then takes up
   * the inbound messages Twilio could not hand over since the last check.
   */
  async health(): Promise<ProviderHealth> {
    const checkedAt = this.#now();
    await this.#ledger?.prune().catch(() => undefined);
    let numbers: TwilioIncomingNumber[];
    try {
      numbers = await this.#api.listIncomingNumbers();
    } catch (error) {
      const rejected =
        error instanceof TwilioApiError && (error.status === 401 || error.status === 403);
      return {
        status: 'unhealthy',
        warnings: [healthWarning(rejected ? 'credentials_rejected' : 'upstream_unreachable')],
        checkedAt,
      };
    }
    await this.#catchUpInbound(numbers).catch(() => undefined);
    return { status: 'healthy', warnings: [], checkedAt };
  }

  /** Runs the inbound catch-up over `numbers`, or waits for the one under way. */
  #catchUpInbound(numbers: readonly TwilioIncomingNumber[]): Promise<void> {
    const context = this.#context;
    const catchUp = this.#catchUp;
    const ingressUrl = context?.webhookUrl;
    if (!context || !catchUp || ingressUrl === undefined) return Promise.resolve();
    this.#catchingUp ??= (async () => {
      try {
        const taken = await catchUp.run(numbers, ingressUrl, (event) =>
          this.#serially(event.externalId, () => context.sink(event)),
        );
        if (taken > 0) {
          context.logger.info(
            { instance: this.instanceName, messages: taken },
            'took up inbound messages Twilio could not hand over',
          );
        }
      } finally {
        this.#catchingUp = undefined;
      }
    })();
    return this.#catchingUp;
  }

  async #serially(key: string, run: () => Promise<void>): Promise<void> {
    const before = this.#inFlight.get(key) ?? Promise.resolve();
    const current = before.then(run, run);
    const settled = current.catch(() => undefined);
    this.#inFlight.set(key, settled);
    try {
      await current;
    } finally {
      if (this.#inFlight.get(key) === settled) this.#inFlight.delete(key);
    }
  }

  #started(request: ProviderOperation, operation: string) {
    const context = this.#context;
    const ledger = this.#ledger;
    if (!context || !ledger) {
      throw new ProviderError(
        'INTERNAL_ERROR',
        `Twilio instance "${this.instanceName}" is not started`,
      );
    }
    if (request.channel !== 'sms')
      throw ProviderError.channelNotSupported(request.channel, operation);
    return { context, ledger };
  }
}

/**
 * The Twilio messages of one send: one per attachment (the text with the first), media URLs ten
 * per message, or the text alone.
 */
function planParts(request: ProviderSendRequest): PlannedPart[] {
  const text = request.text ?? '';
  const attachments = request.attachments ?? [];
  if (attachments.length > 0) {
    return attachments.map((attachment, index) => {
      const url = attachment.source.kind === 'url' ? attachment.source.url : attachment.publicUrl;
      if (url === undefined) {
        throw new ProviderError(
          'VALIDATION_ERROR',
          'Twilio fetches media by URL: uploaded files need the server’s public URL (PUBLIC_BASE_URL)',
          { channel: 'sms' },
        );
      }
      return {
        body: index === 0 ? text : '',
        media: [url],
        kind: index === 0 && text ? 'text' : 'attachment',
      };
    });
  }
  const urls = request.mediaUrls ?? [];
  if (urls.length === 0) return [{ body: text, media: [], kind: 'text' }];
  const parts: PlannedPart[] = [];
  for (let start = 0; start < urls.length; start += TWILIO_MAX_MEDIA_PER_MESSAGE) {
    parts.push({
      body: start === 0 ? text : '',
      media: urls.slice(start, start + TWILIO_MAX_MEDIA_PER_MESSAGE),
      kind: start === 0 && text ? 'text' : 'attachment',
    });
  }
  return parts;
}

/** The provider error of a Twilio API error that is certain (4xx, 429). */
function providerErrorOf(error: unknown): ProviderError {
  if (!(error instanceof TwilioApiError)) {
    return new ProviderError('INTERNAL_ERROR', String(error), { retryable: true, fallback: false });
  }
  if (error.status === 429 || error.uncertain) {
    return new ProviderError('INTERNAL_ERROR', error.message, {
      retryable: true,
      fallback: false,
      channel: 'sms',
      cause: error,
    });
  }
  if (error.status === 401) {
    return new ProviderError(
      'INTERNAL_ERROR',
      `Twilio refused the instance's credentials: ${error.message}`,
      { retryable: true, fallback: false, channel: 'sms', cause: error },
    );
  }
  const failure = twilioFailure(error.code, error.message);
  return new ProviderError(failure.code, failure.message, {
    channel: 'sms',
    cause: error,
    ...(failure.providerCode === undefined ? {} : { providerCode: failure.providerCode }),
  });
}
