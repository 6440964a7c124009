// What the fake BlueBubbles' resource route modules register with, and what they may use of it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Body, Multipart } from './fake-bluebubbles-http';
import type {
  FakeBlueBubblesChat,
  FakeBlueBubblesMessage,
  FakeBlueBubblesSwitches,
  FakePostedEventType,
} from './fake-bluebubbles-model';

/** Registers one route under `/api/v1`, behind the password check, the call log and the fault switches. */
export type FakeRoute = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
) => void;

/** A webhook registered through `POST /api/v1/webhook`. */
export interface FakeWebhook {
  /** Its id, counted from 1. */
  id: number;
  /** Where events are posted. */
  url: string;
  /** The events it takes. */
  events: { label: string; value: string }[];
}

/** The state and the operations of the fake that its REST routes use. */
export interface FakeRouteHost {
  /** Switches of the Mac behind the fake. */
  readonly switches: FakeBlueBubblesSwitches;
  /** Every message, by GUID. */
  readonly messages: Map<string, FakeBlueBubblesMessage>;
  /** Every chat, by GUID. */
  readonly chats: Map<string, FakeBlueBubblesChat>;
  /** Whether the Mac shows itself typing, by chat GUID. */
  readonly typing: Map<string, boolean>;
  /** Addresses not registered with iMessage. */
  readonly notOnIMessage: Set<string>;
  /** Addresses not reachable on FaceTime. */
  readonly noFaceTime: Set<string>;
  /** Addresses with a Focus on. */
  readonly focused: Set<string>;
  /** The handle rows, by address. */
  readonly handles: Map<string, number>;
  /** Uploaded files waiting for a multipart send, by path. */
  readonly uploads: Map<string, { name: string; data: Uint8Array; mimeType: string }>;
  /** The registered webhooks. */
  readonly webhooks: FakeWebhook[];
  /** The id of the next webhook registered. */
  nextWebhookId(): number;
  /** The time source (epoch ms). */
  now(): number;
  /** `POST /message/text`. */
  sendText(body: Body, reply: FastifyReply): Promise<unknown>;
  /** `POST /message/attachment`. */
  sendAttachment(input: Multipart, reply: FastifyReply): Promise<unknown>;
  /** `POST /message/multipart`. */
  sendMultipart(body: Body, reply: FastifyReply): Promise<unknown>;
  /** `POST /message/react`. */
  react(body: Body): unknown;
  /** `POST /message/:guid/edit`. */
  edit(guid: string, body: Body): unknown;
  /** `POST /message/:guid/unsend`. */
  unsend(guid: string, body: Body): unknown;
  /** `POST /message/query`. */
  query(body: Body): unknown;
  /** `POST /chat/new`. */
  newChat(body: Body): unknown;
  /** Adds or removes a group participant. */
  participant(guid: string, body: Body, add: boolean): unknown;
  /** Records a group action made from the Mac and posts its event. */
  ownGroupAction(
    chat: FakeBlueBubblesChat,
    fields: Partial<FakeBlueBubblesMessage>,
    type: FakePostedEventType,
  ): void;
  /** Throws as BlueBubbles' Private API middleware does when it is off or its helper is away. */
  privateApiMiddleware(): void;
  /** Throws `action` failed when the Private API is off or its helper is away. */
  requirePrivateApi(action: string): void;
  /** A chat by GUID, or a 404. */
  chat(guid: string): FakeBlueBubblesChat;
  /** A group chat by GUID, or an error. */
  groupChat(guid: string): FakeBlueBubblesChat;
  /** A message in BlueBubbles' shape. */
  serialize(message: FakeBlueBubblesMessage, withChats: boolean): Record<string, unknown>;
  /** A chat in BlueBubbles' shape. */
  serializeChat(chat: FakeBlueBubblesChat, withParticipants: boolean): Record<string, unknown>;
  /** Posts a webhook event. */
  post(type: FakePostedEventType, data: unknown): void;
}
