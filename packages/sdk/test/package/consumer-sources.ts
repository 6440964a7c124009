// Programs a consumer of the published packages writes. Each is type-checked against the packed
// declarations; the `@ts-expect-error` lines fail the check if a type widens (to `any`, say).

/** An ES module using the client and the webhook helpers; it prints what it saw as JSON. */
export const esmConsumer = `import {
  type MessageSendParams,
  type MessageSendResponse,
  NotFoundError,
  Switchboard,
  SwitchboardError,
} from '@switchboard/sdk';
import { signWebhookPayload, verifyWebhook, type WebhookEvent } from '@switchboard/sdk/webhooks';
import type { Message, SendMessageResult } from '@switchboard/sdk';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

const client = new Switchboard({ apiKey: 'sk_test', baseUrl: 'http://127.0.0.1:1' });

// Never called: these lines exist for the type checker.
export async function typedCalls(): Promise<string> {
  const sent = await client.messages.send({ to: '+14155550100', content: { text: 'hi' } });
  // A send answers the accepted message (202), or the message as it is now when it replays an
  // idempotency key (200).
  const asResult: SendMessageResult | Message = sent;
  const fromResult: typeof sent = {} as SendMessageResult;
  const fromMessage: typeof sent = {} as Message;
  const exactAlias: Equal<MessageSendResponse, typeof sent> = true;
  // @ts-expect-error \`to\` is a string
  await client.messages.send({ to: 14155550100, content: { text: 'hi' } });
  // @ts-expect-error request bodies are strict
  await client.messages.send({ to: '+14155550100', content: { text: 'hi' }, colour: 'red' });
  // @ts-expect-error a send answers no such field
  sent.recipient;
  const inbound = await client.sandbox.inboundMessage({
    channel: 'sms',
    from: '+14155550123',
    to: '+14155550100',
    text: 'hi',
  });
  // @ts-expect-error a sandbox channel is one of the contract's channels
  await client.sandbox.typing({ channel: 'fax', from: 'a', to: 'b', status: 'start' });
  const file = await client.attachments.download(inbound.attachments[0]?.downloadUrl ?? '');
  const bytes: Uint8Array = file.data;
  const name: string | null = file.filename;
  for await (const message of client.messages.list({ status: 'failed' })) {
    const failed: Message['status'] = message.status;
    return failed;
  }
  return \`\${asResult.id}\${fromResult.id}\${fromMessage.id} \${exactAlias} \${bytes.length} \${name}\`;
}

const params: MessageSendParams = { to: '+14155550100', content: { text: 'hi' } };
const body = JSON.stringify({
  id: 'evt_test_1',
  type: 'webhook.test',
  timestamp: new Date().toISOString(),
  data: { message: 'hi', webhookId: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f' },
});
const headers = await signWebhookPayload({ payload: body, secret: 'a-secret-of-16-chars' });
const event: WebhookEvent = await verifyWebhook({ payload: body, headers, secret: 'a-secret-of-16-chars' });
console.log(
  JSON.stringify({
    type: event.type,
    base: client.baseUrl,
    to: params.to,
    errors: new NotFoundError('x') instanceof SwitchboardError,
  }),
);
`;

/** A CommonJS module (\`require\` through \`import = require\`) using the client and the errors. */
export const cjsConsumer = `import sdk = require('@switchboard/sdk');
import webhooks = require('@switchboard/sdk/webhooks');
const client = new sdk.Switchboard({ apiKey: 'sk_test', baseUrl: 'http://127.0.0.1:1' });
const error: sdk.SwitchboardError = new sdk.RateLimitError('slow', {
  status: 429,
  body: null,
  headers: new Headers(),
  code: 'RATE_LIMIT_EXCEEDED',
  requestId: undefined,
  retryAfter: 1,
});
export function typedCall(): Promise<sdk.MessageSendResponse> {
  // @ts-expect-error \`content.text\` is a string
  client.messages.send({ to: '+14155550100', content: { text: 1 } });
  return client.messages.send({ to: '+14155550100', content: { text: 'hi' } });
}
console.log(
  JSON.stringify({ base: client.baseUrl, status: error.status, verify: typeof webhooks.verifyWebhook }),
);
`;

/** A CommonJS project on the old \`node10\` resolution (subpaths through \`typesVersions\`). */
export const node10Consumer = `import { Switchboard } from '@switchboard/sdk';
import { verifyWebhook } from '@switchboard/sdk/webhooks';
export const client = new Switchboard({ apiKey: 'sk_test' });
export const verify = verifyWebhook;
export async function typedCall(): Promise<string> {
  const message = await client.messages.get('msg_1');
  // @ts-expect-error a message has no such field
  message.recipient;
  return message.id;
}
`;

/** An ES module using the contract's schemas at run time, as a server or a tool would. */
export const contractConsumer = `import { contract, type ErrorCode, isErrorCode, SendMessageRequest } from '@switchboard/contract';
import type { z } from 'zod';

type Send = z.infer<typeof SendMessageRequest>;
const body: Send = { to: '+14155550100', content: { text: 'hi' } };
const code: ErrorCode = 'VALIDATION_ERROR';
// @ts-expect-error not an error code of the contract
const wrong: ErrorCode = 'NOPE';
console.log(
  JSON.stringify({
    send: \`\${contract.messages.send.method} \${contract.messages.send.path}\`,
    valid: SendMessageRequest.safeParse(body).success && !SendMessageRequest.safeParse({}).success,
    invalid: isErrorCode(code) && !isErrorCode(wrong) ? code : null,
  }),
);
`;
