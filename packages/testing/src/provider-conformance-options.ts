// What an adapter hands the provider conformance suite.
import type { Channel } from '@switchboard/contract';
import type {
  MessagingProvider,
  ProviderInboundEventKind,
  ProviderWebhookRequest,
} from '@switchboard/provider-kit';

/** A provider under test, and how to tear down what it needed (a fake upstream). */
export interface ProviderConformanceSubject {
  /** A new, not yet started provider instance. */
  provider: MessagingProvider;
  /** Releases what the subject needed, after the provider stopped. */
  cleanup?: () => Promise<void>;
  /** The ingress URL to start the provider with, for upstreams that call back (an ingress relay). */
  webhookUrl?: string;
}

/** How one adapter runs the conformance suite for one channel. */
export interface ProviderConformanceOptions {
  /** The adapter's name in test titles. */
  name: string;
  /** The channel under test; the instance must serve it. */
  channel: Channel;
  /** The instance address to send from. */
  from: string;
  /** Builds a fresh subject for each test. */
  create: () => ProviderConformanceSubject | Promise<ProviderConformanceSubject>;
  /** Recipients whose behaviour the adapter's upstream (or fake) guarantees. */
  recipients: {
    /** Accepts messages and reports `lifecycle`. */
    deliverable: string;
    /** Not reachable on the channel. */
    unreachable?: string;
    /** Reachable, but every delivery fails. */
    failing?: string;
    /**
     * The members of the group the suite creates (default: `deliverable` alone); iMessage needs
     * two, since a one-member group is the direct chat.
     */
    groupMembers?: readonly string[];
    /** Recipients of messages whose edits fail, with the code each edit fails with. */
    editFailures?: readonly { address: string; code: 'EDIT_FAILED' | 'PROVIDER_TIMEOUT' }[];
  };
  /** The statuses a message to `recipients.deliverable` reports, in order. */
  lifecycle: readonly ('sent' | 'delivered' | 'read')[];
  /**
   * Which operations the channel supports (its capabilities work); the others must answer
   * CHANNEL_NOT_SUPPORTED, through the gateway's capability lookup.
   */
  supports: { edit: boolean; unsend: boolean; react: boolean; typing: boolean; groups?: boolean };
  /** How long to wait for an event (default 5 s). */
  timeoutMs?: number;
  /**
   * The upstream's webhooks, for adapters that take them (`handleWebhook`): calls as the fake
   * upstream makes them. Omit for adapters that get their events otherwise (Baileys' socket).
   */
  ingress?: ProviderConformanceIngress;
  /**
   * For adapters that link WhatsApp devices (`whatsappSessions`): an owned number and how the
   * fake upstream completes its pairing (scanning the QR code the adapter reported).
   */
  /**
   * How the fake upstream makes each kind of inbound event happen (a webhook call, a socket
   * event): the suite triggers each and checks the event. `message.inbound` is required, and
   * `message.reaction` when the channel supports reactions.
   */
  inbound?: Partial<
    Record<ProviderInboundEventKind, (provider: MessagingProvider, from: string) => Promise<void>>
  >;
  whatsapp?: {
    /** The owned number to pair, E.164. */
    phoneNumber: string;
    /** Completes the pairing of `phoneNumber` upstream. */
    link(provider: MessagingProvider, phoneNumber: string): Promise<void>;
  };
}

/** Calls of an upstream to the adapter's `handleWebhook`, as its faithful fake makes them. */
export interface ProviderConformanceIngress {
  /** A genuine call: a message `text` from `from` to the instance, upstream event id `id`. */
  inbound(input: { id: string; from: string; text: string }): ProviderWebhookRequest;
  /** The same call with a signature the upstream did not make (or none). */
  forged(input: { id: string; from: string; text: string }): ProviderWebhookRequest;
  /** A genuine status callback of a message the adapter sent, upstream event id `id`. */
  status(input: {
    id: string;
    externalId: string;
    status: 'sent' | 'delivered';
  }): ProviderWebhookRequest;
}
