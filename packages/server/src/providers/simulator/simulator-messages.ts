import type { Channel } from '@switchboard/contract';
import type {
  ProviderDeliveryStatus,
  ProviderDestination,
  ProviderEditRequest,
  ProviderMessageRef,
  ProviderSendRequest,
  ProviderSendResult,
  ProviderStatusSnapshot,
  ProviderUnsendRequest,
} from '@switchboard/provider-kit';
import { ProviderError, type ProviderFailure } from '@switchboard/provider-kit';
import { LRUCache } from 'lru-cache';
import type { LifecycleStep } from './recipient-behaviour';
import { behaviourOfDestination, describeDestination, directChatId } from './simulated-addresses';
import { newExternalId } from './simulated-ids';
import type { SimulatorContext } from './simulator-context';

/** Order of the statuses, so a late or injected status never moves a message backwards. */
const RANK: Record<ProviderDeliveryStatus, number> = { sent: 1, delivered: 2, read: 3, failed: 4 };

/** A message the simulator accepted, and how far its lifecycle got. */
interface SimulatedMessage {
  externalId: string;
  channel: Channel;
  attemptId: string;
  to: ProviderDestination;
  text: string | undefined;
  steps: readonly LifecycleStep[];
  /** Rank of the furthest status reported. */
  reached: number;
  failure: ProviderFailure | undefined;
  unsent: boolean;
  cancelNext: (() => void) | undefined;
}

/** The Twilio error a failed simulated SMS carries: "Unreachable destination handset". */
const SMS_FAILURE_CODE = '30003';

/**
 * The outbound side of the simulator: accepts sends as the recipient table says, then reports
 * each lifecycle step one `stepMs` after the previous one; edits and unsends.
 *
 * Like an upstream's history, what it remembers is bounded: the `remembered` most recently used
 * messages, attempts and first attempts. A message it forgot keeps running its lifecycle; asked
 * about, it answers as for a message sent before a restart (the end of its lifecycle), and an
 * edit or unsend of it changes nothing.
 */
export class SimulatorMessages {
  readonly #context: SimulatorContext;
  readonly #messages: LRUCache<string, SimulatedMessage>;
  /** For DD 31: the attempt number of each message's first attempt, by recipient and message. */
  readonly #firstAttempts: LRUCache<string, number>;
  /** What each accepted attempt was answered, by attempt id. */
  readonly #accepted: LRUCache<string, ProviderSendResult>;

  /** Messages simulated in `context`, remembering at most `remembered` of each kind. */
  constructor(context: SimulatorContext, remembered: number) {
    this.#context = context;
    this.#messages = new LRUCache({ max: remembered });
    this.#firstAttempts = new LRUCache({ max: remembered });
    this.#accepted = new LRUCache({ max: remembered });
  }

  /**
   * One delivery attempt, as the recipient table decides. Like upstreams that dedupe on a client
   * id (BlueBubbles' `tempGuid`), an attempt the simulator already accepted is answered again,
   * not sent twice.
   */
  async send(request: ProviderSendRequest): Promise<ProviderSendResult> {
    const accepted = this.#accepted.get(request.attemptId);
    if (accepted) return accepted;
    const result = await this.#send(request);
    this.#accepted.set(request.attemptId, result);
    return result;
  }

  async #send(request: ProviderSendRequest): Promise<ProviderSendResult> {
    const { channel, to } = request;
    const outcome = behaviourOfDestination(to).channels[channel];
    let steps: readonly LifecycleStep[];
    switch (outcome.kind) {
      case 'unreachable':
        throw ProviderError.unreachable(channel, describeDestination(to));
      case 'fail':
        await this.#context.wait(1);
        throw sendFailure(channel, to);
      case 'fail_first_attempt':
        if (this.#isFirstAttempt(request)) {
          await this.#context.wait(1);
          throw sendFailure(channel, to);
        }
        steps = outcome.retrySteps;
        break;
      case 'deliver':
        steps = outcome.steps;
        break;
    }
    // Like a carrier: on sms every attachment is an MMS of its own (spec rule 5), the text
    // riding with the first; every other send is one upstream message.
    const attachments = request.attachments?.length ?? 0;
    const count = channel === 'sms' && attachments > 1 ? attachments : 1;
    const sent: SimulatedMessage[] = [];
    for (let index = 0; index < count; index += 1) {
      const message: SimulatedMessage = {
        externalId: newExternalId(channel),
        channel,
        attemptId: request.attemptId,
        to,
        text: index === 0 ? request.text : undefined,
        steps,
        reached: 0,
        failure: undefined,
        unsent: false,
        cancelNext: undefined,
      };
      this.#messages.set(message.externalId, message);
      sent.push(message);
    }
    for (const message of sent) this.#scheduleNextStep(message);
    const [first] = sent;
    if (!first) throw new Error('a send makes at least one message');
    const chatId = to.type === 'chat' ? to.chatId : directChatId(channel, to.address);
    return {
      externalId: first.externalId,
      ...(count > 1
        ? {
            parts: sent.map((message, index) => ({
              externalId: message.externalId,
              kind: index === 0 && request.text ? ('text' as const) : ('attachment' as const),
            })),
          }
        : {}),
      ...(chatId === undefined ? {} : { chatId }),
    };
  }

  /** Edits a sent iMessage: fails or times out for DD 70–79. */
  async edit(request: ProviderEditRequest): Promise<void> {
    const outcome = behaviourOfDestination(request.message.conversation).edit;
    if (outcome === 'EDIT_FAILED') {
      throw new ProviderError('EDIT_FAILED', 'The recipient’s device did not accept the edit', {
        channel: request.channel,
      });
    }
    if (outcome === 'PROVIDER_TIMEOUT') {
      await this.#context.wait(1);
      throw new ProviderError('PROVIDER_TIMEOUT', 'The edit timed out upstream', {
        channel: request.channel,
      });
    }
    const known = this.#messages.get(request.message.externalId);
    if (known) known.text = request.text;
  }

  /** Unsends a message: its remaining lifecycle steps are not reported. */
  async unsend(request: ProviderUnsendRequest): Promise<void> {
    const known = this.#messages.get(request.message.externalId);
    if (!known) return;
    known.unsent = true;
    known.cancelNext?.();
    known.cancelNext = undefined;
  }

  /** The text the simulator sent under `externalId`, when it remembers it. */
  textOf(externalId: string): string | undefined {
    return this.#messages.get(externalId)?.text;
  }

  /**
   * Reports `status` for `externalId` now (a sandbox read receipt or carrier failure) and drops
   * the pending steps it overtakes.
   */
  async reportStatus(
    channel: Channel,
    externalId: string,
    status: ProviderDeliveryStatus,
    failure?: ProviderFailure,
  ): Promise<void> {
    const known = this.#messages.get(externalId);
    if (known) {
      known.reached = Math.max(known.reached, RANK[status]);
      if (status === 'failed') {
        known.failure = failure;
        known.cancelNext?.();
        known.cancelNext = undefined;
      }
    }
    const occurredAt = this.#context.occurredAt();
    const attemptId = known?.attemptId;
    const base = {
      kind: 'message.status' as const,
      channel,
      externalId,
      occurredAt,
      ...(attemptId === undefined ? {} : { attemptId }),
    };
    if (status === 'failed') {
      await this.#context.emit({
        ...base,
        status,
        error: failure ?? {
          code: 'IMESSAGE_SEND_FAILED',
          message: 'The simulated carrier reported a delivery failure',
        },
      });
    } else {
      await this.#context.emit({ ...base, status });
    }
  }

  /**
   * What the simulated upstream knows about a message. One it does not remember (sent before a
   * restart) has run its whole lifecycle meanwhile, as the recipient table says.
   */
  statusOf(channel: Channel, ref: ProviderMessageRef): ProviderStatusSnapshot | null {
    const known = this.#messages.get(ref.externalId);
    if (known) {
      if (known.failure) return { status: 'failed', error: known.failure };
      const status = statusOfRank(known.reached);
      return status ? { status } : null;
    }
    const outcome = behaviourOfDestination(ref.conversation).channels[channel];
    const steps =
      outcome.kind === 'deliver'
        ? outcome.steps
        : outcome.kind === 'fail_first_attempt'
          ? outcome.retrySteps
          : [];
    const last = steps.at(-1);
    return last ? { status: last } : null;
  }

  #scheduleNextStep(message: SimulatedMessage): void {
    const next = message.steps.find((step) => RANK[step] > message.reached);
    if (!next) return;
    message.cancelNext = this.#context.after(1, () => {
      message.cancelNext = undefined;
      // A sandbox status may have overtaken this step while it waited.
      if (message.unsent || RANK[next] <= message.reached) {
        if (!message.unsent) this.#scheduleNextStep(message);
        return;
      }
      message.reached = RANK[next];
      this.#context.fire({
        kind: 'message.status',
        channel: message.channel,
        externalId: message.externalId,
        attemptId: message.attemptId,
        status: next,
        occurredAt: this.#context.occurredAt(),
      });
      this.#scheduleNextStep(message);
    });
  }

  #isFirstAttempt(request: ProviderSendRequest): boolean {
    const key = `${describeDestination(request.to)}\u0000${request.messageId}`;
    const first = this.#firstAttempts.get(key);
    if (first === undefined) {
      this.#firstAttempts.set(key, request.attempt);
      return true;
    }
    return first === request.attempt;
  }
}

function statusOfRank(rank: number): ProviderDeliveryStatus | undefined {
  return (Object.keys(RANK) as ProviderDeliveryStatus[]).find((status) => RANK[status] === rank);
}

function sendFailure(channel: Channel, to: ProviderDestination): ProviderError {
  const address = describeDestination(to);
  return new ProviderError(
    'IMESSAGE_SEND_FAILED',
    `The simulated ${channel} delivery to ${address} failed`,
    channel === 'sms' ? { channel, providerCode: SMS_FAILURE_CODE } : { channel },
  );
}
