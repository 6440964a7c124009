import type {
  Message,
  SandboxInboundMessageRequest,
  SandboxInboundMessageResult,
  SandboxResolveLidResult,
  SwitchboardEventOf,
  WhatsAppSession,
} from '@switchboard/contract';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  AttachmentDownload,
  MessageListItem,
  MessageResponse,
  MessageSendParams,
  SandboxInboundMessageParams,
  SandboxInboundMessageResponse,
  Switchboard,
  SwitchboardError,
  WebhookEvent,
} from '../src/index';
import { verifyWebhook } from '../src/webhooks/index';

// These assertions run under `tsc --noEmit`: they pin the SDK's types to the contract's schemas.
describe('types derived from the contract', () => {
  it('returns the contract’s Message from get and list', () => {
    expectTypeOf<MessageResponse>().toEqualTypeOf<Message>();
    expectTypeOf<MessageListItem>().toEqualTypeOf<Message>();
    expectTypeOf<Awaited<ReturnType<Switchboard['messages']['get']>>>().toEqualTypeOf<Message>();
  });

  it('takes the contract’s send body', () => {
    expectTypeOf<MessageSendParams>().toHaveProperty('to');
    expectTypeOf<MessageSendParams>().toHaveProperty('idempotencyKey');
  });

  it('types the sandbox helpers from the contract’s sandbox routes', () => {
    expectTypeOf<SandboxInboundMessageResponse>().toEqualTypeOf<SandboxInboundMessageResult>();
    // The request type is the schema's input: the same fields as the parsed request.
    expectTypeOf<SandboxInboundMessageParams>().toEqualTypeOf<SandboxInboundMessageRequest>();
    type Sandbox = Switchboard['sandbox'];
    expectTypeOf<
      Awaited<ReturnType<Sandbox['whatsappResolveLid']>>
    >().toEqualTypeOf<SandboxResolveLidResult>();
    expectTypeOf<Awaited<ReturnType<Sandbox['whatsappScanQr']>>>().toEqualTypeOf<WhatsAppSession>();
  });

  it('returns the bytes and their description from attachments.download', () => {
    type Downloaded = Awaited<ReturnType<Switchboard['attachments']['download']>>;
    expectTypeOf<Downloaded>().toEqualTypeOf<AttachmentDownload>();
    expectTypeOf<Downloaded['data']>().toEqualTypeOf<Uint8Array>();
  });

  it('types error codes as the contract’s union', () => {
    expectTypeOf<SwitchboardError['code']>().toEqualTypeOf<
      import('@switchboard/contract').ErrorCode | undefined
    >();
  });

  it('narrows stream events by the filter and types their data', () => {
    type Stream = ReturnType<Switchboard['events']['stream']>;
    expectTypeOf<Stream>().toExtend<AsyncIterable<unknown>>();
    type Delivered = SwitchboardEventOf<'message.delivered'>;
    expectTypeOf<Delivered['data']['messageId']>().toEqualTypeOf<string>();
  });

  it('returns a webhook event from verifyWebhook', () => {
    // Never called: only its inferred return type matters.
    const verified = () => verifyWebhook({ payload: '', headers: {}, secret: '' });
    expectTypeOf<Awaited<ReturnType<typeof verified>>>().toEqualTypeOf<WebhookEvent>();
  });
});
