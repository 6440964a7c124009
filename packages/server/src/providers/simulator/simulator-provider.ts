import type { Channel } from '@switchboard/contract';
import type {
  MessagingProvider,
  ProviderAvailability,
  ProviderAvailabilityRequest,
  ProviderCapabilities,
  ProviderChat,
  ProviderChatRequest,
  ProviderCreateGroupRequest,
  ProviderEditRequest,
  ProviderHealth,
  ProviderMessageRef,
  ProviderOperation,
  ProviderParticipant,
  ProviderParticipantRequest,
  ProviderReactRequest,
  ProviderRenameGroupRequest,
  ProviderSendRequest,
  ProviderSendResult,
  ProviderStartContext,
  ProviderStatusSnapshot,
  ProviderTypingRequest,
  ProviderUnsendRequest,
  ProviderWebhookRequest,
  ProviderWebhookResponse,
} from '@switchboard/provider-kit';
import { ProviderError, systemTimerClock, type TimerClock } from '@switchboard/provider-kit';
import { behaviourOf, isReachable } from './recipient-behaviour';
import { SimulatorChats } from './simulator-chats';
import { SimulatorContext } from './simulator-context';
import { handleSimulatorCall } from './simulator-ingress';
import { SimulatorMessages } from './simulator-messages';
import { SimulatorSandbox } from './simulator-sandbox';
import { SimulatorWhatsAppSessions } from './simulator-whatsapp-sessions';

/** The adapter name of the simulator. */
export const SIMULATOR_PROVIDER = 'simulator';

/** The channels the simulator can serve: all three. */
export const SIMULATOR_CHANNELS: readonly Channel[] = ['imessage', 'sms', 'whatsapp'];

/** Settings of one simulator instance. */
export interface SimulatorProviderOptions {
  /** The instance's friendly name. */
  instanceName: string;
  /** The channels it serves; all three by default. */
  channels?: readonly Channel[];
  /** Length of one lifecycle step in milliseconds (`SIMULATOR_STEP_MS`); 0 runs steps at once. */
  stepMs?: number;
  /** Steps a WhatsApp QR code stays valid before it rotates. */
  qrRotationSteps?: number;
  /** QR codes shown before a pairing gives up. */
  qrMaxRotations?: number;
  /** The clock steps run on; tests pass a manual one. */
  clock?: TimerClock;
  /** The secret a simulated upstream signs its ingress calls with; unset: unsigned calls pass. */
  ingressSecret?: string;
  /** Sent messages the simulator remembers (the most recently used); 10,000 by default. */
  rememberedMessages?: number;
}

/** The channels that have chats (groups, reactions, typing); SMS has none. */
const CHAT_CHANNELS: readonly Channel[] = ['imessage', 'whatsapp'];

/** Default step length: the spec's `SIMULATOR_STEP_MS` default. */
export const DEFAULT_SIMULATOR_STEP_MS = 500;
/** Default QR validity: 40 steps, 20 s at the default step, like WhatsApp's later QR codes. */
const DEFAULT_QR_ROTATION_STEPS = 40;
/** Default number of QR codes before giving up, like WhatsApp Web. */
const DEFAULT_QR_MAX_ROTATIONS = 5;
/** Default memory of sent messages: the 10,000 used most recently (see `SimulatorMessages`). */
const DEFAULT_REMEMBERED_MESSAGES = 10_000;

/**
 * The built-in sandbox provider: iMessage, SMS and WhatsApp without a phone, like a payment
 * processor's test mode. What happens to a message depends on its recipient (see
 * `recipient-behaviour.ts` and docs/simulator.md); `sandbox` makes the simulated world act.
 */
export class SimulatorProvider implements MessagingProvider {
  /** The adapter name. */
  readonly provider = SIMULATOR_PROVIDER;
  /** The instance's friendly name. */
  readonly instanceName: string;
  /** The channels this instance serves. */
  readonly channels: readonly Channel[];
  /** Simulated WhatsApp sessions (present when the instance serves whatsapp). */
  readonly whatsappSessions?: SimulatorWhatsAppSessions;
  /** Injects contact activity, receipts, calls and pairing steps. */
  readonly sandbox: SimulatorSandbox;
  /** What iMessage and WhatsApp can do (SMS none): edits, unsend and read state on iMessage only. */
  readonly capabilities: ProviderCapabilities = {
    edits: { channels: ['imessage'], edit: (request) => this.edit(request) },
    unsend: { channels: ['imessage'], unsend: (request) => this.unsend(request) },
    reactions: { channels: CHAT_CHANNELS, react: (request) => this.react(request) },
    typing: { channels: CHAT_CHANNELS, typing: (request) => this.typing(request) },
    readState: {
      channels: ['imessage'],
      markRead: (request) => this.markRead(request),
      markUnread: (request) => this.markUnread(request),
    },
    chats: { channels: CHAT_CHANNELS, getChat: (request) => this.getChat(request) },
    groups: {
      channels: CHAT_CHANNELS,
      createGroup: (request) => this.createGroup(request),
      renameGroup: (request) => this.renameGroup(request),
      addParticipant: (request) => this.addParticipant(request),
      removeParticipant: (request) => this.removeParticipant(request),
      leaveGroup: (request) => this.leaveGroup(request),
    },
  };

  readonly #context: SimulatorContext;
  readonly #messages: SimulatorMessages;
  readonly #chats = new SimulatorChats();
  readonly #sessions: SimulatorWhatsAppSessions;
  readonly #ingressSecret: string | undefined;

  /** A simulator instance; nothing happens until `start`. */
  constructor(options: SimulatorProviderOptions) {
    this.instanceName = options.instanceName;
    this.channels = [...(options.channels ?? SIMULATOR_CHANNELS)];
    this.#ingressSecret = options.ingressSecret;
    this.#context = new SimulatorContext(
      options.clock ?? systemTimerClock,
      options.stepMs ?? DEFAULT_SIMULATOR_STEP_MS,
    );
    this.#messages = new SimulatorMessages(
      this.#context,
      options.rememberedMessages ?? DEFAULT_REMEMBERED_MESSAGES,
    );
    this.#sessions = new SimulatorWhatsAppSessions(this.#context, {
      qrRotationSteps: options.qrRotationSteps ?? DEFAULT_QR_ROTATION_STEPS,
      qrMaxRotations: options.qrMaxRotations ?? DEFAULT_QR_MAX_ROTATIONS,
    });
    if (this.channels.includes('whatsapp')) this.whatsappSessions = this.#sessions;
    this.sandbox = new SimulatorSandbox({
      context: this.#context,
      channels: this.channels,
      messages: this.#messages,
      chats: this.#chats,
      sessions: this.#sessions,
    });
  }

  /** Starts reporting to the gateway's sink. */
  async start(context: ProviderStartContext): Promise<void> {
    this.#context.attach(context);
  }

  /**
   * Takes a call of the simulated upstream on the instance's ingress URL (see
   * `simulator-ingress.ts` and docs/simulator.md): signed with `ingressSecret` when the instance
   * has one, each event emitted once per upstream id.
   */
  handleWebhook(request: ProviderWebhookRequest): Promise<ProviderWebhookResponse> {
    return handleSimulatorCall(request, {
      secret: this.#ingressSecret,
      channels: this.channels,
      emit: (event) => this.#context.emit(event),
      now: () => this.#context.occurredAt(),
    });
  }

  /** Cancels every pending step and live session, then waits for queued events. */
  async stop(): Promise<void> {
    this.#sessions.reset();
    await this.#context.detach();
  }

  /** Accepts a send as the recipient table says; its steps follow one `stepMs` apart. */
  async send(request: ProviderSendRequest): Promise<ProviderSendResult> {
    this.#serve(request, 'send');
    this.sandbox.assertUpstreamUp();
    return this.#messages.send(request);
  }

  /** Edits a sent iMessage. */
  async edit(request: ProviderEditRequest): Promise<void> {
    this.#serve(request, 'edit');
    return this.#messages.edit(request);
  }

  /** Unsends a sent iMessage. */
  async unsend(request: ProviderUnsendRequest): Promise<void> {
    this.#serve(request, 'unsend');
    return this.#messages.unsend(request);
  }

  /** Reacts to a message (imessage, whatsapp). */
  async react(request: ProviderReactRequest): Promise<void> {
    this.#serve(request, 'reactions');
  }

  /** Shows or hides the typing indicator (imessage, whatsapp). */
  async typing(request: ProviderTypingRequest): Promise<void> {
    this.#serve(request, 'typing');
  }

  /** Marks a chat read (imessage). */
  async markRead(request: ProviderChatRequest): Promise<void> {
    this.#serve(request, 'mark read');
  }

  /** Marks a chat unread (imessage). */
  async markUnread(request: ProviderChatRequest): Promise<void> {
    this.#serve(request, 'mark unread');
  }

  /** Creates a group (imessage, whatsapp; whatsapp needs a name). */
  async createGroup(request: ProviderCreateGroupRequest): Promise<ProviderChat> {
    this.#serve(request, 'groups');
    return this.#chats.create(request);
  }

  /** A group the simulator created, or a direct chat; null for an unknown group. */
  async getChat(request: ProviderChatRequest): Promise<ProviderChat | null> {
    this.#serve(request, 'chats');
    return this.#chats.get(request.channel, request.chatId);
  }

  /** Renames a group. */
  async renameGroup(request: ProviderRenameGroupRequest): Promise<void> {
    this.#serve(request, 'groups');
    this.#chats.rename(request.chatId, request.name);
  }

  /** Adds a group member. */
  async addParticipant(request: ProviderParticipantRequest): Promise<ProviderParticipant> {
    this.#serve(request, 'groups');
    return this.#chats.add(request);
  }

  /** Removes a group member. */
  async removeParticipant(request: ProviderParticipantRequest): Promise<void> {
    this.#serve(request, 'groups');
    this.#chats.remove(request);
  }

  /** Leaves a group. */
  async leaveGroup(request: ProviderChatRequest): Promise<void> {
    this.#serve(request, 'groups');
    this.#chats.leave(request.chatId);
  }

  /** Reachability by the recipient table, for the channels this instance serves. */
  async checkAvailability(request: ProviderAvailabilityRequest): Promise<ProviderAvailability> {
    await this.sandbox.availabilityDelay();
    this.sandbox.assertUpstreamUp();
    const behaviour = behaviourOf(request.address);
    const channels: Partial<Record<Channel, boolean>> = {};
    for (const channel of this.channels) channels[channel] = isReachable(behaviour, channel);
    const availability: ProviderAvailability = {
      address: request.address,
      channels,
      checkedAt: this.#context.clock.now(),
    };
    // FaceTime and Focus are what an iMessage instance (the Mac) knows about a contact.
    if (!this.channels.includes('imessage')) return availability;
    return {
      ...availability,
      facetime: behaviour.facetime,
      focused: behaviour.focusMode !== undefined,
      ...(behaviour.focusMode === undefined ? {} : { focusMode: behaviour.focusMode }),
    };
  }

  /** Healthy, unless the sandbox set otherwise. */
  async health(): Promise<ProviderHealth> {
    return { ...this.sandbox.health(), checkedAt: this.#context.clock.now() };
  }

  /** The simulated upstream's view of a message. */
  async fetchStatus(
    request: ProviderOperation & { message: ProviderMessageRef },
  ): Promise<ProviderStatusSnapshot | null> {
    this.#serve(request, 'status lookups');
    return this.#messages.statusOf(request.channel, request.message);
  }

  /** Fails unless the simulator is started and serves the request's channel. */
  #serve(request: ProviderOperation, operation: string): void {
    this.#context.assertStarted();
    if (!this.channels.includes(request.channel)) {
      throw ProviderError.channelNotSupported(request.channel, operation);
    }
  }
}
