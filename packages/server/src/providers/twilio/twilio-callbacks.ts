import type {
  ProviderDeliveryStatus,
  ProviderInboundAttachment,
  ProviderInboundMessageEvent,
  ProviderStatusEvent,
} from '@switchboard/provider-kit';

/** What a Twilio call reports. */
type TwilioCallEvent = ProviderStatusEvent | ProviderInboundMessageEvent;

import { twilioFailure } from './twilio-error-codes';
import type { TwilioParams } from './twilio-signature';

/** What a Twilio status maps to: a provider status, or nothing to report (in progress). */
const STATUS_OF: Readonly<Record<string, ProviderDeliveryStatus | undefined>> = {
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  undelivered: 'failed',
  failed: 'failed',
  canceled: 'failed',
};

/** Advanced Opt-Out's `OptOutType` of an inbound keyword message. */
const OPT_OUT_TYPES: Readonly<Record<string, 'stop' | 'start' | 'help' | undefined>> = {
  STOP: 'stop',
  START: 'start',
  HELP: 'help',
};

/** The provider status of a Twilio message status; undefined while in progress. */
export function deliveryStatusOf(status: string): ProviderDeliveryStatus | undefined {
  return STATUS_OF[status];
}

/** The first value of a form parameter. */
function param(params: TwilioParams, name: string): string | undefined {
  return params.find(([key]) => key === name)?.[1];
}

/** How the adapter reads a Twilio call: what it needs besides the parameters. */
export interface TwilioCallContext {
  /** The URL Twilio called (the status callback carries `?attempt=`). */
  url: string;
  /** When the call arrived. */
  now: Date;
  /** The `Authorization` header to fetch media Twilio hosts. */
  mediaAuthorization: string;
}

/**
 * The event a signed Twilio call reports: an inbound SMS/MMS (`SmsStatus=received`) or a status
 * callback of a message the adapter sent; undefined for a call with nothing to report (a status
 * still in progress, an unknown shape). Upstream event ids: the `MessageSid` of an inbound
 * message, `<MessageSid>:<status>` of a status, so a callback Twilio repeats is dropped.
 */
export function eventOfTwilioCall(
  params: TwilioParams,
  context: TwilioCallContext,
): TwilioCallEvent | undefined {
  const sid = param(params, 'MessageSid') ?? param(params, 'SmsSid');
  const status = param(params, 'MessageStatus') ?? param(params, 'SmsStatus');
  if (sid === undefined || status === undefined) return undefined;
  if (status === 'received' || status === 'receiving') return inboundOf(sid, params, context);
  const mapped = deliveryStatusOf(status);
  if (mapped === undefined) return undefined;
  const attemptId = new URL(context.url).searchParams.get('attempt') ?? undefined;
  const base = {
    kind: 'message.status' as const,
    channel: 'sms' as const,
    occurredAt: context.now,
    upstreamEventId: `${sid}:${status}`,
    externalId: sid,
    ...(attemptId === undefined ? {} : { attemptId }),
  };
  if (mapped !== 'failed') return { ...base, status: mapped };
  const code = param(params, 'ErrorCode');
  const numeric = code === undefined || code === '' ? undefined : Number(code);
  return {
    ...base,
    status: 'failed',
    error: twilioFailure(
      Number.isFinite(numeric) ? numeric : undefined,
      status === 'canceled'
        ? 'The message was canceled before it was sent'
        : `Twilio reported the message ${status}`,
    ),
  };
}

function inboundOf(
  sid: string,
  params: TwilioParams,
  context: TwilioCallContext,
): TwilioCallEvent | undefined {
  const from = param(params, 'From');
  const to = param(params, 'To');
  if (from === undefined || to === undefined) return undefined;
  const count = Math.min(Number(param(params, 'NumMedia') ?? '0') || 0, 10);
  const attachments: ProviderInboundAttachment[] = [];
  for (let index = 0; index < count; index += 1) {
    const url = param(params, `MediaUrl${index}`);
    if (url === undefined) continue;
    attachments.push({
      mimeType: param(params, `MediaContentType${index}`) ?? 'application/octet-stream',
      content: { kind: 'url', url, headers: { authorization: context.mediaAuthorization } },
    });
  }
  const optOutType = OPT_OUT_TYPES[param(params, 'OptOutType') ?? ''];
  return {
    kind: 'message.inbound',
    channel: 'sms',
    occurredAt: context.now,
    upstreamEventId: sid,
    externalId: sid,
    from,
    to,
    isGroup: false,
    text: param(params, 'Body') ?? '',
    attachments,
    ...(optOutType === undefined ? {} : { optOutType }),
  };
}
