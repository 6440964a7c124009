import { randomUUID } from 'node:crypto';
import type {
  MessagingProvider,
  ProviderInboundEvent,
  ProviderMessageRef,
  ProviderSendRequest,
} from '@switchboard/provider-kit';
import { isProviderError, type ProviderErrorCode } from '@switchboard/provider-kit';
import { expect } from 'vitest';
import type {
  ProviderConformanceOptions,
  ProviderConformanceSubject,
} from './provider-conformance-options';
import { providerOperations } from './provider-operations';
import { type ProviderEventRecorder, startWithRecorder } from './provider-test-support';

/**
 * One adapter's run of the conformance suite: its options, and the subject, provider and recorder
 * of the test under way (each test starts a fresh one; a test may restart it).
 */
export interface ConformanceRun {
  /** How the adapter runs the suite. */
  readonly options: ProviderConformanceOptions;
  /** The channel under test. */
  readonly channel: ProviderConformanceOptions['channel'];
  /** Recipients whose behaviour the upstream guarantees. */
  readonly recipients: ProviderConformanceOptions['recipients'];
  /** How long to wait for an event. */
  readonly timeoutMs: number;
  /** The subject of the test under way. */
  subject: ProviderConformanceSubject;
  /** Its provider. */
  provider: MessagingProvider;
  /** What its provider reported through the sink. */
  recorder: ProviderEventRecorder;
  /** Builds and starts a fresh subject, its events recorded by `custom` or a new recorder. */
  start(custom?: ProviderEventRecorder): Promise<void>;
  /** The optional operations of the provider under test. */
  operations(): ReturnType<typeof providerOperations>;
  /** The status `event` reports for `externalId`, if it is one. */
  statusOf(event: ProviderInboundEvent, externalId: string): string | undefined;
}

/** A run of the suite for `options`, its subject started by `start`. */
export function conformanceRun(options: ProviderConformanceOptions): ConformanceRun {
  let subject: ProviderConformanceSubject | undefined;
  let provider: MessagingProvider | undefined;
  let recorder: ProviderEventRecorder | undefined;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the conformance subject was not started');
    return value;
  };
  const run: ConformanceRun = {
    options,
    channel: options.channel,
    recipients: options.recipients,
    timeoutMs: options.timeoutMs ?? 5_000,
    get subject() {
      return started(subject);
    },
    set subject(value) {
      subject = value;
    },
    get provider() {
      return started(provider);
    },
    set provider(value) {
      provider = value;
    },
    get recorder() {
      return started(recorder);
    },
    set recorder(value) {
      recorder = value;
    },
    async start(custom) {
      subject = await options.create();
      provider = subject.provider;
      ({ recorder } = await startWithRecorder(provider, custom, undefined, subject.webhookUrl));
    },
    operations: () => providerOperations(run.provider),
    statusOf: (event, externalId) =>
      event.kind === 'message.status' && event.externalId === externalId ? event.status : undefined,
  };
  return run;
}

/** A send request for the conformance suite. */
export function sendRequest(
  options: ProviderConformanceOptions,
  address: string,
  overrides: Partial<ProviderSendRequest> = {},
): ProviderSendRequest {
  const messageId = `msg_${randomUUID()}`;
  return {
    channel: options.channel,
    from: options.from,
    to: { type: 'address', address },
    messageId,
    attempt: 0,
    attemptId: `${messageId}:0:${options.channel}`,
    text: 'Conformance check',
    ...overrides,
  };
}

/** The reference of a message sent to `address`. */
export function sentRef(externalId: string, address: string): ProviderMessageRef {
  return { externalId, conversation: { type: 'address', address }, fromMe: true };
}

/** Asserts that `promise` rejects with a `ProviderError` carrying `code`. */
export async function expectProviderError(
  promise: Promise<unknown>,
  code: ProviderErrorCode,
): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(isProviderError(error), `expected a ProviderError ${code}, got ${String(error)}`).toBe(
    true,
  );
  if (isProviderError(error)) {
    expect(error.code).toBe(code);
    expect(error.message.length).toBeGreaterThan(0);
  }
}
