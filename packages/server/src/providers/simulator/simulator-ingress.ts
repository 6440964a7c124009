import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Channel } from '@switchboard/contract';
import type {
  ProviderInboundEvent,
  ProviderWebhookRequest,
  ProviderWebhookResponse,
} from '@switchboard/provider-kit';
import { z } from 'zod';
import { isGroupChatId } from './simulated-addresses';

/** The header a simulated upstream signs its calls with: `sha256=<hex HMAC of the raw body>`. */
export const SIMULATOR_SIGNATURE_HEADER = 'x-simulator-signature';

/**
 * One call of the simulated upstream: what a BlueBubbles or Twilio webhook carries, reduced to
 * the gateway's needs, in JSON or form encoding. `id` is the upstream's event id.
 */
/** A boolean as JSON or as a form field (`true`/`false`). */
const flag = z.union([
  z.boolean(),
  z.enum(['true', 'false']).transform((value) => value === 'true'),
]);
const timestamp = z.union([z.coerce.number(), z.string().datetime()]).optional();
const channel = z.enum(['imessage', 'sms', 'whatsapp']).optional();
const id = z.string().min(1).max(200);

const SimulatorUpstreamEvent = z.discriminatedUnion('type', [
  z.object({
    id,
    type: z.literal('message.inbound'),
    channel,
    externalId: id.optional(),
    from: z.string().min(1),
    to: z.string().min(1),
    text: z.string().default(''),
    chatId: z.string().min(1).optional(),
    fromMe: flag.optional(),
    history: flag.optional(),
    timestamp,
  }),
  z.object({
    id,
    type: z.literal('message.status'),
    channel,
    externalId: id,
    status: z.enum(['sent', 'delivered', 'read', 'failed']),
    recipient: z.string().min(1).optional(),
    errorMessage: z.string().optional(),
    /** The upstream's own code of a failure (WhatsApp's 463), kept as `providerCode`. */
    providerCode: z.string().min(1).optional(),
    timestamp,
  }),
  z.object({
    id,
    type: z.literal('message.changed'),
    channel,
    externalId: id,
    from: z.string().min(1),
    to: z.string().min(1),
    change: z.enum(['edited', 'unsent']),
    text: z.string().optional(),
    timestamp,
  }),
  z.object({
    id,
    type: z.literal('chat.read'),
    channel,
    chatId: z.string().min(1),
    to: z.string().min(1),
    read: flag,
    timestamp,
  }),
  z.object({
    id,
    type: z.literal('chat.role'),
    channel,
    chatId: z.string().min(1),
    actor: z.string().min(1),
    to: z.string().min(1),
    participant: z.string().min(1),
    role: z.enum(['admin', 'superadmin', 'member']),
    timestamp,
  }),
]);

/** What the simulator's ingress needs from its instance. */
export interface SimulatorIngressOptions {
  /** The instance's `ingressSecret`; unset: calls need no signature. */
  secret: string | undefined;
  /** The channels the instance serves (an event's channel defaults to the first). */
  channels: readonly Channel[];
  /** Hands an event to the gateway, resolving once it is recorded. */
  emit: (event: ProviderInboundEvent) => Promise<void>;
  /** The time of an event that carries none. */
  now: () => Date;
}

/** The signature a simulated upstream sends for `body` under `secret`. */
export function signSimulatorCall(secret: string, body: string | Uint8Array): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

function answer(status: number, form: boolean, message?: string): ProviderWebhookResponse {
  if (form) {
    // Like Twilio: TwiML for form posts.
    return { status, headers: { 'content-type': 'text/xml' }, body: '<Response/>' };
  }
  return {
    status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(message === undefined ? { received: true } : { error: message }),
  };
}

/**
 * Handles a call of the simulated upstream: checks its signature (when the instance has a
 * secret), parses the JSON or form body and emits the event, tagged with its upstream id so a
 * redelivery is dropped. Answers 401 for a bad signature, 400 for a payload it cannot read, and
 * only once the gateway recorded the event, 200.
 */
export async function handleSimulatorCall(
  request: ProviderWebhookRequest,
  options: SimulatorIngressOptions,
): Promise<ProviderWebhookResponse> {
  const form = (request.headers['content-type'] ?? '').startsWith(
    'application/x-www-form-urlencoded',
  );
  if (options.secret !== undefined && !signatureMatches(request, options.secret)) {
    return answer(401, form, 'bad signature');
  }
  const text = Buffer.from(request.rawBody).toString('utf8');
  let payload: unknown;
  try {
    payload = form ? Object.fromEntries(new URLSearchParams(text)) : JSON.parse(text);
  } catch {
    return answer(400, form, 'the body is not valid JSON');
  }
  const parsed = SimulatorUpstreamEvent.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return answer(400, form, `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
  }
  const call = parsed.data;
  const channel = call.channel ?? options.channels[0] ?? 'imessage';
  const occurredAt = call.timestamp === undefined ? options.now() : new Date(call.timestamp);
  await options.emit(eventOf(call, { channel, occurredAt, upstreamEventId: call.id }));
  return answer(200, form);
}

function signatureMatches(request: ProviderWebhookRequest, secret: string): boolean {
  const given = Buffer.from(request.headers[SIMULATOR_SIGNATURE_HEADER] ?? '');
  const expected = Buffer.from(signSimulatorCall(secret, request.rawBody));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The provider event a simulated upstream call stands for. */
function eventOf(
  call: z.output<typeof SimulatorUpstreamEvent>,
  common: { channel: Channel; occurredAt: Date; upstreamEventId: string },
): ProviderInboundEvent {
  switch (call.type) {
    case 'message.inbound':
      return {
        ...common,
        kind: 'message.inbound',
        externalId: call.externalId ?? call.id,
        from: call.from,
        to: call.to,
        isGroup: call.chatId !== undefined && isGroupChatId(call.chatId),
        text: call.text,
        attachments: [],
        ...(call.chatId === undefined ? {} : { chatId: call.chatId }),
        ...(call.fromMe ? { fromMe: true } : {}),
        ...(call.history ? { history: true } : {}),
      };
    case 'message.status':
      return call.status === 'failed'
        ? {
            ...common,
            kind: 'message.status',
            externalId: call.externalId,
            status: 'failed',
            error: {
              code: 'IMESSAGE_SEND_FAILED',
              message: call.errorMessage ?? 'The upstream reported a delivery failure',
              ...(call.providerCode === undefined ? {} : { providerCode: call.providerCode }),
            },
          }
        : {
            ...common,
            kind: 'message.status',
            externalId: call.externalId,
            status: call.status,
            ...(call.recipient === undefined ? {} : { recipient: call.recipient }),
          };
    case 'message.changed':
      return {
        ...common,
        kind: 'message.changed',
        externalId: call.externalId,
        from: call.from,
        to: call.to,
        change:
          call.change === 'edited' ? { type: 'edited', text: call.text ?? '' } : { type: 'unsent' },
      };
    case 'chat.read':
      return { ...common, kind: 'chat.read', chatId: call.chatId, to: call.to, read: call.read };
    case 'chat.role':
      return {
        ...common,
        kind: 'chat.event',
        externalId: call.id,
        chatId: call.chatId,
        actor: call.actor,
        to: call.to,
        action: 'participant.role_changed',
        participant: call.participant,
        role: call.role === 'member' ? null : call.role,
      };
  }
}
