import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Channel } from '@switchboard/contract';
import type {
  ProviderInboundEvent,
  ProviderWebhookRequest,
  ProviderWebhookResponse,
} from '@switchboard/provider-kit';
import { z } from 'zod';

/** The header a simulated upstream signs its calls with: `sha256=<hex HMAC of the raw body>`. */
export const SIMULATOR_SIGNATURE_HEADER = 'x-simulator-signature';

/**
 * One call of the simulated upstream: what a BlueBubbles or Twilio webhook carries, reduced to
 * the gateway's needs, in JSON or form encoding. `id` is the upstream's event id.
 */
const SimulatorUpstreamEvent = z.discriminatedUnion('type', [
  z.object({
    id: z.string().min(1).max(200),
    type: z.literal('message.inbound'),
    channel: z.enum(['imessage', 'sms', 'whatsapp']).optional(),
    externalId: z.string().min(1).max(200).optional(),
    from: z.string().min(1),
    to: z.string().min(1),
    text: z.string().default(''),
    timestamp: z.union([z.coerce.number(), z.string().datetime()]).optional(),
  }),
  z.object({
    id: z.string().min(1).max(200),
    type: z.literal('message.status'),
    channel: z.enum(['imessage', 'sms', 'whatsapp']).optional(),
    externalId: z.string().min(1).max(200),
    status: z.enum(['sent', 'delivered', 'read', 'failed']),
    errorMessage: z.string().optional(),
    timestamp: z.union([z.coerce.number(), z.string().datetime()]).optional(),
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
  const common = { channel, occurredAt, upstreamEventId: call.id };
  await options.emit(
    call.type === 'message.inbound'
      ? {
          ...common,
          kind: 'message.inbound',
          externalId: call.externalId ?? call.id,
          from: call.from,
          to: call.to,
          isGroup: false,
          text: call.text,
          attachments: [],
        }
      : call.status === 'failed'
        ? {
            ...common,
            kind: 'message.status',
            externalId: call.externalId,
            status: 'failed',
            error: {
              code: 'IMESSAGE_SEND_FAILED',
              message: call.errorMessage ?? 'The upstream reported a delivery failure',
            },
          }
        : { ...common, kind: 'message.status', externalId: call.externalId, status: call.status },
  );
  return answer(200, form);
}

function signatureMatches(request: ProviderWebhookRequest, secret: string): boolean {
  const given = Buffer.from(request.headers[SIMULATOR_SIGNATURE_HEADER] ?? '');
  const expected = Buffer.from(signSimulatorCall(secret, request.rawBody));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
