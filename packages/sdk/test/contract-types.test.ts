import type { Message, SwitchboardEventOf } from '@switchboard/contract';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  MessageListItem,
  MessageResponse,
  MessageSendParams,
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
