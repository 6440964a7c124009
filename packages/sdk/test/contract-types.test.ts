import type {
  Contract,
  ErrorCode as ContractErrorCode,
  EventStreamGap as ContractEventStreamGap,
  SwitchboardEvent as ContractSwitchboardEvent,
  Message,
  SandboxInboundMessageRequest,
  SandboxInboundMessageResult,
  SandboxResolveLidResult,
  SwitchboardEventOf,
  WhatsAppSession,
} from '@switchboard/contract';
import type { AppRoute, ClientInferRequest, ClientInferResponseBody } from '@ts-rest/core';
import { describe, expectTypeOf, it } from 'vitest';
import type { Operations } from '../src/generated/api-types';
import type {
  AttachmentDownload,
  ErrorCode,
  EventStreamGap,
  MessageListItem,
  MessageResponse,
  MessageSendParams,
  SandboxInboundMessageParams,
  SandboxInboundMessageResponse,
  Switchboard,
  SwitchboardError,
  SwitchboardEvent,
  WebhookEvent,
} from '../src/index';
import { verifyWebhook } from '../src/webhooks/index';

// What the ts-rest client infers for every route of a contract router: the reference the
// generated plain types must equal.
type Unwrap<Body> = Body extends { success: true; data: infer Data } ? Data : Body;
type Inferred<Route extends AppRoute> = {
  body: ClientInferRequest<Route> extends { body: infer Body } ? Body : never;
  query: ClientInferRequest<Route> extends { query: infer Query } ? Query : never;
  data: Unwrap<
    ClientInferResponseBody<Route, Extract<keyof Route['responses'], 200 | 201 | 202 | 204>>
  >;
};
type InferredRouter<Router> = {
  [Key in keyof Router]: Router[Key] extends AppRoute
    ? Inferred<Router[Key]>
    : InferredRouter<Router[Key]>;
};

// These assertions run under `tsc --noEmit`: they pin the SDK's types to the contract's schemas.
describe('types derived from the contract', () => {
  it('generates, for every operation, the body, query and data the contract infers', () => {
    expectTypeOf<Operations>().toEqualTypeOf<{
      [Resource in keyof Operations]: InferredRouter<Contract[Resource]>;
    }>();
  });

  it('generates the contract’s named types', () => {
    expectTypeOf<ErrorCode>().toEqualTypeOf<ContractErrorCode>();
    expectTypeOf<SwitchboardEvent>().toEqualTypeOf<ContractSwitchboardEvent>();
    expectTypeOf<EventStreamGap>().toEqualTypeOf<ContractEventStreamGap>();
  });

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
