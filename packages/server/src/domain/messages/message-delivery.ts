import { performance } from 'node:perf_hooks';
import type { Channel, FallbackReason } from '@switchboard/contract';
import type {
  MessagingProvider,
  ProviderOutboundAttachment,
  ProviderSendRequest,
  ProviderSendResult,
} from '@switchboard/provider-kit';
import { isProviderError } from '@switchboard/provider-kit';
import type { Clock } from '../../clock';
import type { OutboundUrlPolicy } from '../../egress/outbound-url';
import type { ProviderHub } from '../../providers/provider-hub';
import type { MessageRecord } from '../../store/message-repository';
import type { Store } from '../../store/store';
import type { AvailabilityCache } from '../capabilities/availability-cache';
import type { OutboundMedia, PreparedFile } from '../media/outbound-media';
import type { OptOutLedger } from '../opt-outs/opt-out-ledger';
import { channelRoutes } from './channel-routes';
import { type EffectivePacing, type InstancePacer, senderKey } from './instance-pacer';
import type { MessageEvents } from './message-events';
import { patchOf } from './message-record';
import { destinationOf, providerRefOf } from './provider-message-ref';
import { attemptIdOf, channelsToTry, firstChoice } from './routing-plan';
import { type SenderTurn, SenderTurns } from './sender-turns';
import type { MessageStatusUpdates } from './status-updates';

/** Why the last channel considered was left. */
interface Departure {
  channel: Channel;
  reason: FallbackReason;
  code: string;
  message: string;
}

/** Dependencies of {@link MessageDelivery}. */
export interface MessageDeliveryOptions {
  /** The store. */
  store: Store;
  /** The running providers. */
  providers: ProviderHub;
  /** Cached reachability answers. */
  availability: AvailabilityCache;
  /** Records message events. */
  events: MessageEvents;
  /** Applies provider statuses (status look-ups after a restart). */
  statusUpdates: MessageStatusUpdates;
  /** The time source. */
  clock: Clock;
  /** The send rate and concurrency of an instance (starting it when it is not running). */
  pacingOf: (instanceId: string) => Promise<EffectivePacing>;
  /** Paces sends per instance and sender number. */
  pacer: InstancePacer;
  /** How long messages wait for an upstream that is down before failing (`PROVIDER_RETRY_WINDOW_MS`). */
  retryWindowMs: number;
  /** The first delay between tries of an upstream that is down (`PROVIDER_RETRY_BASE_MS`). */
  retryBaseMs: number;
  /** The signed public URL of a stored attachment's bytes (see `outboundMediaId`). */
  mediaUrlOf: (messageId: string, position: number) => Promise<string>;
  /** The opt-out ledger: checked before a send, told when an upstream reports an opt-out. */
  optOuts?: Pick<OptOutLedger, 'refusalOfMessage' | 'recordRefusal'>;
  /**
   * The URL-safety policy's use-time check of the customer's `mediaUrls` and attachment `url`s
   * (their hosts resolved now, against DNS rebinding since the send was accepted).
   */
  urlPolicy?: Pick<OutboundUrlPolicy, 'refusalAtUse'>;
  /**
   * Gets a message's files ready for a channel (real types, limits, conversions); without it
   * files go to the provider as they were given.
   */
  media?: OutboundMedia;
  /** The signed public URL of converted bytes (their id in the conversion cache). */
  renditionUrlOf?: (renditionId: string) => Promise<string>;
}

/** The longest wait between two tries of an upstream that is down. */
const MAX_RETRY_DELAY_MS = 5 * 60 * 1000;
/**
 * How long a process that leaves a message to the process holding its sender's connection waits
 * before it looks again (the holder's sweep takes it within seconds; if the holder died meanwhile,
 * this process may hold the connection by then).
 */
const SENDS_ELSEWHERE_RECHECK_MS = 5_000;

/**
 * What became of a delivery turn: nothing to do later (`undefined`), or the message is still
 * `queued` and comes back once `resume` settles, its pacing reservation kept when `reserved`.
 */
export type DeliveryTurn = { resume: Promise<void>; reserved: boolean } | undefined;

/** A promise that settles after `ms` without holding the process open. */
function after(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Hands one message to its instance's provider: tries the channels of its routing in order,
 * skipping those that cannot reach the recipient (reason `unavailable`) and moving on when an
 * attempt fails (`send_failed`), with `message.fallback` for every move. The provider's `sent`,
 * `delivered` and `read` then arrive through the sink; when no channel takes the message it fails
 * with `message.failed`.
 */
export class MessageDelivery {
  /** The order paced messages of one sender are decided in (see {@link SenderTurns}). */
  readonly #turns = new SenderTurns();

  /** Delivery over the given dependencies. */
  constructor(private readonly options: MessageDeliveryOptions) {}

  /**
   * Takes a `queued` message when its instance's pacing allows: reserves its sender's next
   * instant (unless `reserved` already) and one of the instance's slots, claims it (queued →
   * pending; another worker's claim wins) and delivers it. When it must wait (its instant is
   * later, every slot is busy, the upstream is down) it stays `queued` and the answer says when
   * to come back, so a waiting message holds no worker.
   */
  async deliverQueued(messageId: string, reserved = false): Promise<DeliveryTurn> {
    // The turn is taken before the first await: a sender's messages reach their reservation and
    // their slot in the order workers started on them (the order they arrived), whatever order
    // their reads answer in.
    const turn = this.#turns.take();
    try {
      return await this.#deliverQueuedInTurn(messageId, reserved, turn);
    } finally {
      turn.done();
    }
  }

  async #deliverQueuedInTurn(
    messageId: string,
    reserved: boolean,
    turn: SenderTurn,
  ): Promise<DeliveryTurn> {
    const { store, pacer, clock } = this.options;
    const message = await store.messages.findByIdInAnyCustomer(messageId);
    if (message?.status !== 'queued') return undefined;
    turn.name(senderKey(message.instanceId, message.from));
    // The sender's connection is another process's (a WhatsApp socket under its lease): leave
    // the message queued, where that process's dispatcher takes it, and look again later.
    if (await this.#sendsElsewhere(message))
      return { resume: after(SENDS_ELSEWHERE_RECHECK_MS), reserved: false };
    // Files to convert are converted while the message waits `queued`, holding no worker.
    const preparing = await this.#mediaPreparing(message);
    if (preparing) return { resume: preparing.done, reserved: false };
    let pacing: EffectivePacing;
    try {
      pacing = await this.options.pacingOf(message.instanceId);
    } catch (error) {
      return this.#upstreamDown(message, error, 'queued');
    }
    // Unpaced messages of a sender leave in parallel anyway: only paced ones wait their turn.
    if (pacing.perSecond > 0) await turn.ready();
    if (!reserved) {
      const wait = pacer.reserve(message.instanceId, message.from, pacing, clock.now());
      if (wait > 0) return { resume: after(wait), reserved: true };
    }
    const slot = pacer.tryAcquire(message.instanceId, pacing);
    if (!slot) return { resume: pacer.whenFree(message.instanceId), reserved: true };
    turn.done();
    try {
      // The message is claimed (queued → pending) by the transaction that records its first
      // attempt, or on its own when an attempt is recorded already (see #driveOnce).
      return await this.#drive(messageId, message, 'queued');
    } finally {
      slot.release();
    }
  }

  /**
   * True when the provider of the message's sending instance sends from another process. (A
   * channel routed to another instance is caught by that provider at send time instead.)
   */
  async #sendsElsewhere(message: MessageRecord): Promise<boolean> {
    try {
      const provider = await this.options.providers.provider(message.instanceId);
      return provider.sendsElsewhere?.(message.from) ?? false;
    } catch {
      // An unavailable provider fails again, and is reported, where the send goes on.
      return false;
    }
  }

  /**
   * The upstream of `message` cannot be reached (`error`, retryable) or refused it for good: a
   * retryable error within the retry window puts the message back to `queued` (from `from`) and
   * answers when to try again, backing off as long as the upstream has been down (at least
   * `retryBaseMs`, at most 5 minutes); anything else fails the message with the reason.
   */
  async #upstreamDown(
    message: MessageRecord,
    error: unknown,
    from: 'queued' | 'pending',
  ): Promise<DeliveryTurn> {
    const { clock, retryWindowMs, retryBaseMs } = this.options;
    const now = clock.now();
    const since = lastQueuedAt(message) ?? message.createdAt.getTime();
    const elapsed = now - since;
    const retryable = isProviderError(error) && error.retryable;
    if (retryable && elapsed < retryWindowMs) {
      if (from === 'pending') {
        await this.options.store.transaction((tx) =>
          tx.messages.transition(message.id, ['pending'], {
            status: 'queued',
            updatedAt: new Date(now),
          }),
        );
      }
      const delay = Math.min(Math.max(elapsed, retryBaseMs), MAX_RETRY_DELAY_MS, retryWindowMs);
      return { resume: after(delay), reserved: false };
    }
    const reason = errorText(error);
    await this.#fail(
      message,
      {
        channel: message.channel,
        code: isProviderError(error) ? error.code : 'INTERNAL_ERROR',
        message: retryable
          ? `The upstream was unreachable for ${Math.round(elapsed / 1000)} s, longer than the retry window: ${reason}`
          : `The sending instance is unavailable: ${reason}`,
      },
      from,
    );
    return undefined;
  }

  /**
   * Resumes a message a crashed worker left `pending`. When the provider had accepted its current
   * attempt, the provider is asked where it stands; otherwise the attempt in progress is sent
   * again with the same attempt id (upstreams that dedupe on it send it once).
   */
  async resumePending(messageId: string): Promise<void> {
    const message = await this.options.store.messages.findByIdInAnyCustomer(messageId);
    if (message?.status !== 'pending') return;
    if (message.externalId !== null) {
      await this.reconcile(messageId);
      return;
    }
    // A message that must wait goes back to `queued`, where the dispatcher's sweep finds it.
    await this.#drive(messageId);
  }

  /**
   * Asks the provider for the current status of a message it accepted and applies it: updates
   * missed while the server was down. Rejects when the provider cannot be asked.
   */
  async reconcile(messageId: string): Promise<void> {
    const message = await this.options.store.messages.findByIdInAnyCustomer(messageId);
    const ref = message ? providerRefOf(message) : undefined;
    if (!message || !ref || message.channel === null) return;
    const channel = message.channel;
    const provider = await this.options.providers.provider(message.instanceId);
    if (!provider.fetchStatus) return;
    const snapshot = await provider.fetchStatus({ channel, from: message.from, message: ref });
    if (!snapshot) return;
    const { status, error } = snapshot;
    await this.options.store.transaction(async (tx) => {
      const current = await tx.messages.findByIdInAnyCustomer(messageId);
      if (!current || current.externalId !== ref.externalId) return;
      await this.options.statusUpdates.apply(tx, current, {
        status,
        externalId: ref.externalId,
        ...(error ? { error } : {}),
      });
    });
  }

  /**
   * Starts getting the message's files ready for its first channel; `done` settles when they
   * are. Undefined when they are ready already (or there are none).
   */
  async #mediaPreparing(message: MessageRecord): Promise<{ done: Promise<void> } | undefined> {
    const media = this.options.media;
    const channel = channelsToTry(message)[0];
    if (!media?.hasMedia(message) || channel === undefined) return undefined;
    const routeOf = await this.#routes(message);
    const done = media.whenReady(message, channel, routeOf(channel));
    // Wrapped: an async function would otherwise wait for the promise it returns.
    return done ? { done } : undefined;
  }

  async #drive(
    messageId: string,
    read?: MessageRecord,
    from: 'queued' | 'pending' = 'pending',
  ): Promise<DeliveryTurn> {
    try {
      return await this.#driveOnce(messageId, read, from);
    } finally {
      this.options.media?.release(messageId);
    }
  }

  /**
   * Sends a message that is `from` (`read` when it was just read): `pending` (resumed), or
   * `queued`, which the transaction recording its first attempt claims (queued → pending, one
   * commit fewer than a claim of its own). Until that commit it stays `queued`: a failure before
   * it fails it from `queued`, and of two workers driving it only the first to commit sends.
   */
  async #driveOnce(
    messageId: string,
    read: MessageRecord | undefined,
    status: 'queued' | 'pending',
  ): Promise<DeliveryTurn> {
    const { store } = this.options;
    let message = read ?? (await store.messages.findByIdInAnyCustomer(messageId));
    let from = status;
    if (message?.status !== from) return undefined;
    const plan = channelsToTry(message);
    let start = 0;
    // An attempt already recorded (a crashed worker's, or one that waited for its upstream) is
    // sent again as is: same attempt id, so an upstream that dedupes on it sends it once.
    let resumed: { channel: Channel; instanceId: string } | undefined;
    if (message.channel !== null && plan.includes(message.channel)) {
      const attempt = await store.messageAttempts.findById(
        attemptIdOf(message.id, message.retryCount, message.channel),
      );
      if (attempt) {
        start = plan.indexOf(message.channel);
        resumed = { channel: message.channel, instanceId: attempt.instanceId };
      }
    }
    if (from === 'queued' && resumed) {
      // Its attempt is sent again as is, with no attempt to record: claimed on its own.
      const claim = { status: 'pending' as const, updatedAt: new Date(this.options.clock.now()) };
      const claimed = await store.transaction((tx) =>
        tx.messages.transition(messageId, ['queued'], claim),
      );
      if (!claimed) return undefined;
      // The claim changed only these fields of the message read above: no need to read it again.
      message = { ...message, ...claim };
      from = 'pending';
    }
    const routeOf = await this.#routes(message);

    // The recipient opted out after the send was accepted (or while it was scheduled).
    const refusal = await this.options.optOuts?.refusalOfMessage(store, message);
    if (refusal !== undefined) {
      const failure = { channel: null, code: 'RECIPIENT_OPTED_OUT', message: refusal };
      await this.#fail(message, failure, from);
      return undefined;
    }
    const unsafe = await this.#unsafeUrl(message);
    if (unsafe !== null) {
      await this.#fail(message, { channel: null, code: 'VALIDATION_ERROR', message: unsafe }, from);
      return undefined;
    }

    let departure: Departure | undefined;
    // The last attempt that failed outright: what the message reports if nothing takes it.
    let sendFailure: Departure | undefined;
    for (let index = start; index < plan.length; index += 1) {
      const channel = plan[index] as Channel;
      const instanceId = channel === resumed?.channel ? resumed.instanceId : routeOf(channel);
      let provider: MessagingProvider;
      try {
        provider = await this.options.providers.provider(instanceId);
      } catch (error) {
        const current = await store.messages.findByIdInAnyCustomer(message.id);
        if (current?.status !== from) return undefined;
        return this.#upstreamDown(current, error, from);
      }
      if (channel !== resumed?.channel) {
        const unavailable = await this.#unavailable(
          message,
          channel,
          instanceId,
          provider.channels,
        );
        if (unavailable) {
          departure = {
            channel,
            reason: 'unavailable',
            code: 'NO_CHANNEL_AVAILABLE',
            message: unavailable,
          };
          continue;
        }
      }
      const files = await this.#files(message, channel, instanceId);
      if (files !== undefined && !Array.isArray(files)) {
        // This channel cannot take the files (too large, not convertible): the next one may.
        departure = { channel, reason: 'send_failed', code: files.code, message: files.message };
        sendFailure = departure;
        continue;
      }
      if (channel !== resumed?.channel) {
        const started = await this.#startAttempt(message, channel, departure, instanceId, from);
        if (!started) return undefined;
        from = 'pending';
      }
      const attemptId = attemptIdOf(message.id, message.retryCount, channel);
      let result: ProviderSendResult;
      try {
        const request = await this.#request(message, channel, attemptId, files);
        await this.#departure(instanceId, message.from);
        result = await provider.send(request);
      } catch (error) {
        // The upstream is down (not the message refused): wait for it on this channel.
        if (isProviderError(error) && error.retryable && !error.fallback) {
          const current = await store.messages.findByIdInAnyCustomer(message.id);
          if (current?.status !== 'pending') return undefined;
          return this.#upstreamDown(current, error, 'pending');
        }
        const reason: FallbackReason =
          isProviderError(error) && error.code === 'NO_CHANNEL_AVAILABLE'
            ? 'unavailable'
            : 'send_failed';
        departure = {
          channel,
          reason,
          code: isProviderError(error) ? error.code : 'IMESSAGE_SEND_FAILED',
          message: errorText(error),
        };
        if (reason === 'send_failed') sendFailure = departure;
        // Errors that forbid moving on (a timed-out send may still arrive) end the routing here.
        if (!isProviderError(error) || !error.fallback) break;
        continue;
      }
      // The upstream has the message. A database that cannot record it now (a full disk, say)
      // is not a send failure: the turn fails, and the dispatcher resumes the same attempt id once
      // the database takes writes again (the upstream answers it again instead of sending twice).
      await this.options.statusUpdates.whileRecording(attemptId, () =>
        this.#accepted(message, channel, attemptId, result, instanceId, files),
      );
      return undefined;
    }
    const reported = sendFailure ?? departure;
    await this.#fail(
      message,
      {
        channel: sendFailure?.channel ?? null,
        code: reported?.code ?? 'NO_CHANNEL_AVAILABLE',
        message:
          reported?.message ??
          `${message.to ?? message.providerChatId} cannot be reached on ${plan.join(', ')}`,
      },
      from,
    );
    return undefined;
  }

  /**
   * Settles when `from` may hand its next message to `instanceId`'s upstream: at least
   * `1 / perSecond` after its previous one, even when that one left later than its reserved
   * instant (see {@link InstancePacer.depart}).
   */
  async #departure(instanceId: string, from: string): Promise<void> {
    let pacing: EffectivePacing;
    try {
      pacing = await this.options.pacingOf(instanceId);
    } catch {
      // The instance stopped meanwhile: the send itself fails and is reported.
      return;
    }
    const wait = this.options.pacer.depart(instanceId, from, pacing, performance.now());
    if (wait > 0) await after(wait);
  }

  /** Which instance carries each channel of `message` (see {@link channelRoutes}). */
  #routes(message: MessageRecord): Promise<(channel: Channel) => string> {
    return channelRoutes(this.options.store, message);
  }

  /** Why `channel` cannot reach the recipient, or null when it may. */
  async #unavailable(
    message: MessageRecord,
    channel: Channel,
    instanceId: string,
    instanceChannels: readonly Channel[],
  ): Promise<string | null> {
    if (!instanceChannels.includes(channel)) {
      return `The sending instance does not serve ${channel}`;
    }
    // Chats and groups are reachable on their own channel; addresses are asked (cached).
    if (message.pinnedChannel !== null || message.to === null) return null;
    try {
      const { availability } = await this.options.availability.lookup(
        message.customerId,
        instanceId,
        message.to,
        message.from,
      );
      return availability.channels[channel] === true
        ? null
        : `${message.to} is not reachable on ${channel}`;
    } catch {
      // No answer: let the send itself find out.
      return null;
    }
  }

  /**
   * Records the attempt on `channel` (and `message.fallback` when it is not the first choice) in
   * one transaction, claiming a message still `queued` (`from`) in it; false when the message is
   * no longer `from` (deleted, canceled, failed, or claimed by another worker meanwhile).
   *
   * A `queued` message on its first choice (the common case) is not read again: one conditional
   * update claims it (still `queued`, in the same retry, not deleted). While it is `queued` no
   * worker has changed it since `message` was read, and no fallback event needs it as it is now.
   */
  async #startAttempt(
    message: MessageRecord,
    channel: Channel,
    departure: Departure | undefined,
    instanceId: string,
    from: 'queued' | 'pending',
  ): Promise<boolean> {
    const first = firstChoice(message);
    const claimOnly = from === 'queued' && channel === first;
    return this.options.store.transaction(async (tx) => {
      const current = claimOnly ? message : await tx.messages.findByIdInAnyCustomer(message.id);
      if (current?.status !== from || current.retryCount !== message.retryCount) {
        return false;
      }
      const now = this.options.clock.now();
      const updated: MessageRecord = {
        ...current,
        status: 'pending',
        channel,
        instanceId,
        fallbackTriggered: channel !== first,
        updatedAt: new Date(now),
      };
      // The message now lives on the instance carrying its attempt (its statuses come from it).
      const patch = {
        ...patchOf(updated, current),
        ...(instanceId === current.instanceId ? {} : { instanceId }),
      };
      if (claimOnly) {
        const retry = { retryCount: message.retryCount };
        if (!(await tx.messages.transition(message.id, [from], patch, retry))) return false;
      } else {
        await tx.messages.update(message.id, patch);
      }
      await tx.messageAttempts.insert({
        attemptId: attemptIdOf(message.id, message.retryCount, channel),
        messageId: message.id,
        customerId: message.customerId,
        instanceId,
        attempt: message.retryCount,
        channel,
        externalId: null,
        createdAt: new Date(now),
      });
      if (channel !== first && first !== undefined) {
        await this.options.events.fallback(tx, updated, updated.correlationId, {
          fromChannel: departure?.channel ?? first,
          toChannel: channel,
          reason: departure?.reason ?? 'unavailable',
        });
      }
      return true;
    });
  }

  /**
   * The message's files ready for `channel` (none without media preparation: the request then
   * reads them as stored), or why the channel cannot take them.
   */
  async #files(
    message: MessageRecord,
    channel: Channel,
    instanceId: string,
  ): Promise<PreparedFile[] | undefined | { code: string; message: string }> {
    const media = this.options.media;
    if (!media?.hasMedia(message)) return undefined;
    const outcome = await media.prepare(message, channel, instanceId);
    return outcome.ok ? outcome.files : { code: outcome.code, message: outcome.message };
  }

  /**
   * Records the provider id of an accepted attempt (`sent`'s retry on `channel`), and its parts
   * when it became several.
   */
  async #accepted(
    sent: MessageRecord,
    channel: Channel,
    attemptId: string,
    result: ProviderSendResult,
    instanceId: string,
    files: PreparedFile[] | undefined,
  ): Promise<void> {
    const messageId = sent.id;
    const { externalId, parts = [], segments } = result;
    await this.options.store.transaction(async (tx) => {
      const early = await tx.messageAttempts.recordAccepted(attemptId, externalId);
      if (parts.length > 1) {
        await tx.messageParts.insertAll(
          parts.map((part, partIndex) => ({
            attemptId,
            partIndex,
            instanceId,
            externalId: part.externalId,
            kind: part.kind,
            status: null,
            errorCode: null,
            errorMessage: null,
          })),
        );
      }
      // The attempt is the message's current one while its retry count and channel are the
      // attempt's (its id is made of them: no need to read its row back).
      if (files === undefined) {
        const attempt = { retryCount: sent.retryCount, channel };
        await tx.messages.recordProviderId(messageId, attempt, externalId, segments);
      } else {
        // The files' conversions are merged into the attachments as they are now.
        const message = await tx.messages.findByIdInAnyCustomer(messageId);
        if (
          message &&
          (message.externalId === null || message.externalId === externalId) &&
          message.retryCount === sent.retryCount &&
          message.channel === channel
        ) {
          await tx.messages.update(messageId, {
            externalId,
            ...(segments === undefined ? {} : { segments }),
            attachments: withPreparedFiles(message, files),
          });
        }
      }
      // Status callbacks that raced this response (a part's, while later parts were being
      // sent) were kept on the attempt: they apply now that its id and parts are known.
      await this.options.statusUpdates.applyEarly(tx, attemptId, instanceId, early);
    });
  }

  /** Why one of the message's customer URLs may not be handed on now, or null. */
  async #unsafeUrl(message: MessageRecord): Promise<string | null> {
    const policy = this.options.urlPolicy;
    if (policy === undefined) return null;
    const urls: Array<[string, string]> = [
      ...(message.mediaUrls ?? []).map((url, i): [string, string] => [
        url,
        `content.mediaUrls[${i}]`,
      ]),
      ...message.attachments.flatMap(
        (item): Array<[string, string]> =>
          item.url === null ? [] : [[item.url, `attachments[${item.position}].url`]],
      ),
    ];
    for (const [url, field] of urls) {
      const refusal = await policy.refusalAtUse(url, field);
      if (refusal !== null) return refusal;
    }
    return null;
  }

  /** Fails a message still in status `from` (pending by default) with `message.failed`. */
  async #fail(
    message: MessageRecord,
    failure: { channel: Channel | null; code: string; message: string },
    from: 'queued' | 'pending' = 'pending',
  ): Promise<void> {
    await this.options.store.transaction(async (tx) => {
      const current = await tx.messages.findByIdInAnyCustomer(message.id);
      if (current?.status !== from) return;
      const now = this.options.clock.now();
      const channel = failure.channel ?? current.channel;
      const failed: MessageRecord = {
        ...current,
        status: 'failed',
        channel,
        errorCode: failure.code,
        errorMessage: failure.message,
        timeline: [...current.timeline, { status: 'failed', at: now, channel }],
        updatedAt: new Date(now),
      };
      await tx.messages.update(message.id, patchOf(failed, current));
      await this.options.events.lifecycle(tx, 'message.failed', failed, failed.correlationId);
      await this.options.optOuts?.recordRefusal(tx, failed);
    });
  }

  /** The provider request of one attempt: effects, replies and mentions only where they apply. */
  async #request(
    message: MessageRecord,
    channel: Channel,
    attemptId: string,
    files: PreparedFile[] | undefined,
  ): Promise<ProviderSendRequest> {
    const replyTo = await this.#replyRef(message, channel);
    const attachments =
      files === undefined ? await this.#attachments(message) : await this.#prepared(message, files);
    return {
      channel,
      from: message.from,
      to: destinationOf(message),
      messageId: message.id,
      attempt: message.retryCount,
      attemptId,
      ...(message.text === '' ? {} : { text: message.text }),
      ...(message.mediaUrls === null ? {} : { mediaUrls: message.mediaUrls }),
      ...(attachments.length === 0 ? {} : { attachments }),
      // Effects are iMessage's: ignored on an sms fallback, dropped on whatsapp (rule 9).
      ...(message.effect !== null && channel === 'imessage' ? { effect: message.effect } : {}),
      ...(replyTo ? { replyTo } : {}),
      // Mentions are honoured on whatsapp group sends only.
      ...(message.mentions !== null && message.isGroup && channel === 'whatsapp'
        ? { mentions: message.mentions }
        : {}),
      ...(message.createContact === null ? {} : { createContact: message.createContact }),
    };
  }

  /** The reply target as the provider addresses it, on the channels that thread (not sms). */
  async #replyRef(message: MessageRecord, channel: Channel) {
    if (message.replyTo === null || channel === 'sms') return undefined;
    const target = await this.options.store.messages.findById(message.customerId, message.replyTo);
    if (!target || target.channel !== channel) return undefined;
    return providerRefOf(target);
  }

  /** The provider's view of prepared files; converted bytes get their own public URL. */
  async #prepared(
    message: MessageRecord,
    files: readonly PreparedFile[],
  ): Promise<ProviderOutboundAttachment[]> {
    const attachments: ProviderOutboundAttachment[] = [];
    for (const file of files) {
      const stored = message.attachments.find((a) => a.position === file.position);
      const converted = file.renditionId !== undefined;
      const publicUrl =
        file.renditionId !== undefined
          ? await this.options.renditionUrlOf?.(file.renditionId)
          : file.source.kind === 'bytes'
            ? await this.options.mediaUrlOf(message.id, file.position)
            : undefined;
      const filename = stored?.filename ?? null;
      attachments.push({
        source: file.source,
        mimeType: file.mimeType,
        ...(filename === null ? {} : { filename: converted ? renamed(filename, file) : filename }),
        ...(stored?.isAudioMessage ? { isAudioMessage: true } : {}),
        ...(publicUrl === undefined ? {} : { publicUrl }),
      });
    }
    return attachments;
  }

  async #attachments(message: MessageRecord): Promise<ProviderOutboundAttachment[]> {
    if (message.attachments.length === 0) return [];
    const data = message.attachments.some((attachment) => attachment.hasData)
      ? await this.options.store.messages.attachmentData(message.id)
      : new Map<number, Uint8Array>();
    const attachments: ProviderOutboundAttachment[] = [];
    for (const attachment of message.attachments) {
      const bytes = data.get(attachment.position);
      const source = bytes
        ? { kind: 'bytes' as const, data: bytes }
        : attachment.url === null
          ? undefined
          : { kind: 'url' as const, url: attachment.url };
      if (!source) continue;
      attachments.push({
        source,
        mimeType: attachment.mimeType ?? 'application/octet-stream',
        ...(attachment.filename === null ? {} : { filename: attachment.filename }),
        ...(attachment.isAudioMessage ? { isAudioMessage: true } : {}),
        ...(bytes
          ? { publicUrl: await this.options.mediaUrlOf(message.id, attachment.position) }
          : {}),
      });
    }
    return attachments;
  }
}

/**
 * The message's attachments as they were sent: real types, sizes once known, and how each
 * converted one was converted.
 */
function withPreparedFiles(message: MessageRecord, files: readonly PreparedFile[]) {
  return message.attachments.map((attachment) => {
    const file = files.find((candidate) => candidate.position === attachment.position);
    if (!file) return attachment;
    const { conversion: _previous, ...rest } = attachment;
    return {
      ...rest,
      mimeType: file.conversion?.from.mimeType ?? file.mimeType,
      totalBytes: attachment.totalBytes ?? file.sourceBytes,
      ...(file.conversion ? { conversion: file.conversion } : {}),
    };
  });
}

/** When the message was last queued: the start of its current delivery round. */
function lastQueuedAt(message: MessageRecord): number | undefined {
  for (let index = message.timeline.length - 1; index >= 0; index -= 1) {
    const entry = message.timeline[index];
    if (entry?.status === 'queued') return entry.at;
  }
  return undefined;
}

/** A converted file's name: the original's with the new format's extension. */
function renamed(filename: string, file: PreparedFile): string {
  if (file.extension === undefined) return filename;
  const dot = filename.lastIndexOf('.');
  return `${dot > 0 ? filename.slice(0, dot) : filename}.${file.extension}`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
