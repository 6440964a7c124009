import type { Channel, RoutingCapability } from '@switchboard/contract';
import type { MessagingProvider, ProviderSendResult } from '@switchboard/provider-kit';
import { isProviderError } from '@switchboard/provider-kit';
import type { Clock } from '../../clock';
import type { OutboundUrlPolicy } from '../../egress/outbound-url';
import type { ProviderHub } from '../../providers/provider-hub';
import type { MessageRecord } from '../../store/message-repository';
import type { RoutingStepRecord } from '../../store/routing-step-repository';
import type { Store } from '../../store/store';
import type { AvailabilityCache } from '../capabilities/availability-cache';
import type { OutboundMedia, PreparedFile } from '../media/outbound-media';
import type { OptOutLedger } from '../opt-outs/opt-out-ledger';
import { type ChannelCheck, ChannelPlanner, type RouteStop } from '../routing/channel-planner';
import { routedChannels } from '../routing/channel-routes';
import { attemptIdOf, withheldChannels } from '../routing/routing-plan';
import { blocked, pacingWait, upstreamFailure, upstreamWait } from '../routing/routing-steps';
import {
  type AttemptTransactionOptions,
  AttemptTransactions,
  type DeliveryFailure,
} from './attempt-transactions';
import { type EffectivePacing, type InstancePacer, senderKey } from './instance-pacer';
import type { MessageEvents } from './message-events';
import { after, PacingGate, type PacingGateOptions } from './pacing-gate';
import { PolicyHolds, type PolicyHoldsOptions } from './policy-holds';
import { providerRefOf } from './provider-message-ref';
import { ProviderRequests } from './provider-request';
import { type SenderTurn, SenderTurns } from './sender-turns';
import type { MessageStatusUpdates } from './status-updates';

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
  /** Told when a message being accepted could not take its start slot (see `PacingGateOptions`). */
  slotNotTaken?: NonNullable<PacingGateOptions['slotNotTaken']>;
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
  /** Tells the process holding a sender's connection that a message of it waits (`SendHandOff`). */
  handOff?: (messageId: string) => void;
  /** Told when routing steps written on their own could not be stored (the message goes on). */
  traceLost?: AttemptTransactionOptions['traceLost'];
  /** The send policies of sender numbers (daily caps, warm-up, restrictions); none without. */
  sendPolicy?: Omit<PolicyHoldsOptions, 'clock'>;
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

/** Where routing goes after one channel: on (`next`), to the failure (`stop`), or it is over. */
type StopOutcome =
  | { kind: 'next' | 'stop'; from: 'queued' | 'pending' }
  | { kind: 'done'; turn: DeliveryTurn };

/** Routing is over for this turn. */
function done(turn: DeliveryTurn): StopOutcome {
  return { kind: 'done', turn };
}

/** One channel of a plan being driven: the message as read, its status, and the plan. */
interface DriveState {
  message: MessageRecord;
  from: 'queued' | 'pending';
  planner: ChannelPlanner;
  /** The channel of an attempt already recorded, sent again as is. */
  resumed: Channel | undefined;
}

/**
 * Hands one message to its instance's provider: tries the channels of its routing in order,
 * skipping those that cannot reach the recipient (reason `unavailable`) and moving on when an
 * attempt fails (`send_failed`), with `message.fallback` for every move. The provider's `sent`,
 * `delivered` and `read` then arrive through the sink; when no channel takes the message it fails
 * with `message.failed`.
 *
 * The pieces: the pacing gate (`pacing-gate.ts`) admits a queued message; the plan (the channels
 * and their instances, `routing/channel-routes.ts`) is worked out once per attempt; the pure
 * planner (`routing/channel-planner.ts`) decides channel by channel and writes the routing trace;
 * the attempt transactions (`attempt-transactions.ts`) record what happened; the provider
 * request is built by `provider-request.ts`.
 */
export class MessageDelivery {
  /** The order paced messages of one sender are decided in (see {@link SenderTurns}). */
  readonly #turns = new SenderTurns();
  readonly #gate: PacingGate;
  readonly #requests: ProviderRequests;
  readonly #tx: AttemptTransactions;
  readonly #holds: PolicyHolds | undefined;

  /** Delivery over the given dependencies. */
  constructor(private readonly options: MessageDeliveryOptions) {
    this.#gate = new PacingGate(options);
    this.#requests = new ProviderRequests(options);
    this.#tx = new AttemptTransactions(options);
    const policy = options.sendPolicy;
    this.#holds = policy
      ? new PolicyHolds({ ...policy, clock: options.clock }, this.#tx)
      : undefined;
  }

  /**
   * Takes the start slot of a `queued` message being accepted (see {@link PacingGate.accept}):
   * its sender's slots then follow the order sends were accepted in across processes.
   */
  acceptPace(message: MessageRecord): Promise<void> {
    return this.#gate.accept(message);
  }

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
      // A slot held for it that it did not take (it waits for something else now, or left the
      // queue) goes to the next message waiting.
      this.#gate.forgo(messageId);
    }
  }

  async #deliverQueuedInTurn(
    messageId: string,
    reserved: boolean,
    turn: SenderTurn,
  ): Promise<DeliveryTurn> {
    const message = await this.options.store.messages.findByIdInAnyCustomer(messageId);
    if (message?.status !== 'queued') return undefined;
    turn.name(senderKey(message.instanceId, message.from));
    // The sender's connection is another process's (a WhatsApp socket under its lease): leave
    // the message queued, where that process's dispatcher takes it, and look again later.
    if (await this.#sendsElsewhere(message))
      return { resume: after(SENDS_ELSEWHERE_RECHECK_MS), reserved: false };
    // The plan of this attempt, worked out once: the files and the channels read it.
    const stops = await routedChannels(this.options.store, message);
    // Files to convert are converted while the message waits `queued`, holding no worker.
    const preparing = this.#mediaPreparing(message, stops);
    if (preparing) return { resume: preparing.done, reserved: false };
    // The number's send policy: counted now, or the message waits `queued` with its hold. A
    // sender's messages are counted in the order they arrived (their turns'), paced or not: a
    // later message never takes the allowance an earlier one was due (decision 0606).
    await turn.ready();
    const verdict = await this.#holds?.verdict(message, stops);
    if (verdict?.kind === 'failed') return undefined;
    if (verdict?.kind === 'wait') return { resume: verdict.resume, reserved: false };
    const admission = await this.#gate.admit(message, reserved, turn);
    if (admission.kind === 'unavailable') {
      return this.#upstreamDown(message, admission.error, 'queued', null, []);
    }
    if (admission.kind === 'wait') {
      if (admission.waitMs !== null) {
        // Recorded once the turn is over: the sender's next message does not wait for the write.
        turn.done();
        const at = this.options.clock.now();
        await this.#tx.recordSteps([pacingWait(message, at, message.instanceId, admission.waitMs)]);
      }
      return { resume: admission.resume, reserved: true };
    }
    turn.done();
    try {
      // The message is claimed (queued → pending) by the transaction that records its first
      // attempt, or on its own when an attempt is recorded already (see #driveOnce).
      return await this.#drive(messageId, { read: message, from: 'queued', stops });
    } finally {
      admission.slot.release();
    }
  }

  /**
   * True when the provider of the message's sending instance sends from another process. (A
   * channel routed to another instance is caught by that provider at send time instead.)
   */
  async #sendsElsewhere(message: MessageRecord): Promise<boolean> {
    try {
      const provider = await this.options.providers.provider(message.instanceId);
      const elsewhere = provider.sendsElsewhere?.(message.from) ?? false;
      if (elsewhere) this.options.handOff?.(message.id);
      return elsewhere;
    } catch {
      // An unavailable provider fails again, and is reported, where the send goes on.
      return false;
    }
  }

  /**
   * The upstream of `message` cannot be reached (`error`, retryable) or refused it for good: a
   * retryable error within the retry window puts the message back to `queued` (from `from`) and
   * answers when to try again, backing off as long as the upstream has been down (at least
   * `retryBaseMs`, at most 5 minutes); anything else fails the message with the reason. `steps`
   * (decided before) and the wait or failure are added to the routing trace.
   */
  async #upstreamDown(
    message: MessageRecord,
    error: unknown,
    from: 'queued' | 'pending',
    stop: RouteStop | null,
    steps: RoutingStepRecord[],
  ): Promise<DeliveryTurn> {
    const { clock, retryWindowMs, retryBaseMs } = this.options;
    const now = clock.now();
    const since = lastQueuedAt(message) ?? message.createdAt.getTime();
    const elapsed = now - since;
    const retryable = isProviderError(error) && error.retryable;
    const code = isProviderError(error) ? error.code : 'INTERNAL_ERROR';
    const reason = errorText(error);
    const place = stop ?? { channel: message.channel, instanceId: message.instanceId };
    if (retryable && elapsed < retryWindowMs) {
      const delay = Math.min(Math.max(elapsed, retryBaseMs), MAX_RETRY_DELAY_MS, retryWindowMs);
      const trace = [...steps, upstreamWait(message, now, place, { code, message: reason }, delay)];
      if (from === 'pending') await this.#tx.requeue(message, trace);
      else await this.#tx.recordSteps(trace);
      return { resume: after(delay), reserved: false };
    }
    const failure = {
      channel: message.channel,
      code,
      message: retryable
        ? `The upstream was unreachable for ${Math.round(elapsed / 1000)} s, longer than the retry window: ${reason}`
        : `The sending instance is unavailable: ${reason}`,
    };
    const last = upstreamFailure(message, now, place, { ...failure, retryable });
    await this.#tx.fail(message, failure, from, [...steps, last]);
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
    await this.#drive(messageId, { read: message, from: 'pending' });
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
  #mediaPreparing(
    message: MessageRecord,
    stops: readonly RouteStop[],
  ): { done: Promise<void> } | undefined {
    const media = this.options.media;
    const first = stops[0];
    if (!media?.hasMedia(message) || first === undefined) return undefined;
    const done = media.whenReady(message, first.channel, first.instanceId);
    return done ? { done } : undefined;
  }

  async #drive(
    messageId: string,
    start: { read: MessageRecord; from: 'queued' | 'pending'; stops?: RouteStop[] },
  ): Promise<DeliveryTurn> {
    try {
      return await this.#driveOnce(start.read, start.from, start.stops);
    } finally {
      this.options.media?.release(messageId);
    }
  }

  /**
   * Sends a message that is `status` (as `read`): `pending` (resumed), or `queued`, which the
   * transaction recording its first attempt claims (queued → pending, one commit fewer than a
   * claim of its own). Until that commit it stays `queued`: a failure before it fails it from
   * `queued`, and of two workers driving it only the first to commit sends.
   */
  async #driveOnce(
    read: MessageRecord,
    status: 'queued' | 'pending',
    planned: RouteStop[] | undefined,
  ): Promise<DeliveryTurn> {
    let message = read;
    let from = status;
    const stops = planned ?? (await routedChannels(this.options.store, message));
    // An attempt already recorded (a crashed worker's, or one that waited for its upstream) is
    // sent again as is: same attempt id, so an upstream that dedupes on it sends it once.
    const resumed = await this.#recordedAttempt(message, stops);
    if (from === 'queued' && resumed) {
      // Its attempt is sent again as is, with no attempt to record: claimed on its own.
      const claimed = await this.#tx.claim(message);
      if (!claimed) return undefined;
      message = claimed;
      from = 'pending';
    }
    const planner = new ChannelPlanner({
      message: {
        id: message.id,
        customerId: message.customerId,
        retryCount: message.retryCount,
        to: message.to,
        providerChatId: message.providerChatId,
        pinned: message.pinnedChannel !== null,
      },
      stops,
      withheld: withheldChannels(message),
      ...(resumed ? { resumed: resumed.channel } : {}),
    });
    if (await this.#blocked(message, from)) return undefined;
    const state: DriveState = { message, from, planner, resumed: resumed?.channel };
    const remaining = resumed ? stops.slice(resumed.index) : stops;
    return this.#route(
      state,
      remaining.map((stop) => (stop.channel === resumed?.channel ? resumed : stop)),
    );
  }

  /** The attempt of the message's current retry and channel already recorded, if any. */
  async #recordedAttempt(
    message: MessageRecord,
    stops: readonly RouteStop[],
  ): Promise<(RouteStop & { index: number }) | undefined> {
    const channel = message.channel;
    const index = stops.findIndex((stop) => stop.channel === channel);
    if (channel === null || index < 0) return undefined;
    const attempt = await this.options.store.messageAttempts.findById(
      attemptIdOf(message.id, message.retryCount, channel),
    );
    return attempt ? { channel, instanceId: attempt.instanceId, index } : undefined;
  }

  /**
   * Fails the message before any channel when its recipient opted out after the send was
   * accepted (or while it was scheduled), or one of its URLs may not be handed on now.
   */
  async #blocked(message: MessageRecord, from: 'queued' | 'pending'): Promise<boolean> {
    const now = () => this.options.clock.now();
    const refusal = await this.options.optOuts?.refusalOfMessage(this.options.store, message);
    if (refusal !== undefined) {
      const failure = { channel: null, code: 'RECIPIENT_OPTED_OUT', message: refusal };
      await this.#tx.fail(message, failure, from, [blocked(message, now(), 'opted_out', failure)]);
      return true;
    }
    const unsafe = await this.#unsafeUrl(message);
    if (unsafe !== null) {
      const failure: DeliveryFailure = { channel: null, code: 'VALIDATION_ERROR', message: unsafe };
      await this.#tx.fail(message, failure, from, [blocked(message, now(), 'unsafe_url', failure)]);
      return true;
    }
    return false;
  }

  /** Tries the channels of `stops` in order until one takes the message or none is left. */
  async #route(state: DriveState, stops: readonly RouteStop[]): Promise<DeliveryTurn> {
    let from = state.from;
    for (const stop of stops) {
      const outcome = await this.#attempt({ ...state, from }, stop);
      if (outcome.kind === 'done') return outcome.turn;
      from = outcome.from;
      if (outcome.kind === 'stop') break;
    }
    const failure = state.planner.exhausted(this.options.clock.now());
    await this.#tx.fail(state.message, failure, from, state.planner.drain());
    return undefined;
  }

  /**
   * One channel of the plan: its provider, its check (skipped when it cannot reach the
   * recipient), its files, the attempt recorded (claiming a queued message), then the send.
   */
  async #attempt(state: DriveState, stop: RouteStop): Promise<StopOutcome> {
    const { message, planner, resumed } = state;
    let provider: MessagingProvider;
    try {
      provider = await this.options.providers.provider(stop.instanceId);
    } catch (error) {
      const current = await this.options.store.messages.findByIdInAnyCustomer(message.id);
      if (current?.status !== state.from) return done(undefined);
      return done(await this.#upstreamDown(current, error, state.from, stop, planner.drain()));
    }
    const now = () => this.options.clock.now();
    const check: ChannelCheck =
      stop.channel === resumed
        ? { served: true, capability: null }
        : await this.#check(message, stop, provider.channels);
    if (planner.consider(stop, check, now()) === 'skip') return { kind: 'next', from: state.from };
    const files = await this.#files(message, stop);
    if (files !== undefined && !Array.isArray(files)) {
      // This channel cannot take the files (too large, not convertible): the next one may.
      planner.filesRefused(stop, files, now());
      return { kind: 'next', from: state.from };
    }
    planner.trying(stop, now());
    if (stop.channel !== resumed) {
      const steps = planner.drain();
      if (!(await this.#tx.start(message, stop, planner.departure, state.from, steps))) {
        return done(undefined);
      }
    }
    return this.#send(message, stop, provider, files, planner);
  }

  /**
   * Sends the recorded attempt on `stop` and records what came of it: accepted (the provider
   * id), refused (the planner says whether the next channel may take it), or an upstream that is
   * down (the message waits for it on this channel).
   */
  async #send(
    message: MessageRecord,
    stop: RouteStop,
    provider: MessagingProvider,
    files: PreparedFile[] | undefined,
    planner: ChannelPlanner,
  ): Promise<StopOutcome> {
    const attemptId = attemptIdOf(message.id, message.retryCount, stop.channel);
    let result: ProviderSendResult;
    try {
      const request = await this.#requests.build(message, stop.channel, attemptId, files);
      await this.#gate.departure(stop.instanceId, message.from);
      result = await provider.send(request);
    } catch (error) {
      // The upstream is down (not the message refused): wait for it on this channel.
      if (isProviderError(error) && error.retryable && !error.fallback) {
        const current = await this.options.store.messages.findByIdInAnyCustomer(message.id);
        if (current?.status !== 'pending') return done(undefined);
        return done(await this.#upstreamDown(current, error, 'pending', stop, planner.drain()));
      }
      const refusal = {
        code: isProviderError(error) ? error.code : 'IMESSAGE_SEND_FAILED',
        message: errorText(error),
        // Errors that forbid moving on (a timed-out send may still arrive) end the routing here.
        fallback: isProviderError(error) && error.fallback,
      };
      const next = planner.refused(stop, refusal, this.options.clock.now());
      return { kind: next, from: 'pending' };
    }
    planner.accepted(stop, result.externalId, this.options.clock.now());
    const steps = planner.drain();
    // The upstream has the message. A database that cannot record it now (a full disk, say)
    // is not a send failure: the turn fails, and the dispatcher resumes the same attempt id once
    // the database takes writes again (the upstream answers it again instead of sending twice).
    await this.options.statusUpdates.whileRecording(attemptId, () =>
      this.#tx.accepted(message, stop, result, files, steps),
    );
    return done(undefined);
  }

  /**
   * What is known of `stop` before trying it: whether its instance serves the channel, and the
   * reachability answer (cached) for an address; chats and groups are reachable on their own
   * channel, and a failed probe leaves the answer to the send itself.
   */
  async #check(
    message: MessageRecord,
    stop: RouteStop,
    instanceChannels: readonly Channel[],
  ): Promise<ChannelCheck> {
    if (!instanceChannels.includes(stop.channel)) return { served: false, capability: null };
    if (message.pinnedChannel !== null || message.to === null) {
      return { served: true, capability: null };
    }
    try {
      const answer = await this.options.availability.lookup(
        message.customerId,
        stop.instanceId,
        message.to,
        message.from,
      );
      // Only a definite "no" skips the channel: an unknown answer (no Private API on the Mac, a
      // failed Lookup, a WhatsApp session down) tries it, and the attempt's outcome decides.
      const reachable = answer.availability.channels[stop.channel];
      const capability: RoutingCapability = {
        source: answer.cached ? 'cache' : 'provider',
        ageMs: answer.ageMs,
        reachable: reachable ?? null,
      };
      return { served: true, capability };
    } catch {
      // No answer: let the send itself find out.
      return { served: true, capability: null };
    }
  }

  /**
   * The message's files ready for `stop`'s channel (none without media preparation: the request
   * then reads them as stored), or why the channel cannot take them.
   */
  async #files(
    message: MessageRecord,
    stop: RouteStop,
  ): Promise<PreparedFile[] | undefined | { code: string; message: string }> {
    const media = this.options.media;
    if (!media?.hasMedia(message)) return undefined;
    const outcome = await media.prepare(message, stop.channel, stop.instanceId);
    return outcome.ok ? outcome.files : { code: outcome.code, message: outcome.message };
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
}

/** When the message was last queued: the start of its current delivery round. */
function lastQueuedAt(message: MessageRecord): number | undefined {
  for (let index = message.timeline.length - 1; index >= 0; index -= 1) {
    const entry = message.timeline[index];
    if (entry?.status === 'queued') return entry.at;
  }
  return undefined;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
