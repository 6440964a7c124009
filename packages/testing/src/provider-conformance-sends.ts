import { isErrorCode } from '@switchboard/contract';
import { isProviderError, PROVIDER_ERROR_CODES } from '@switchboard/provider-kit';
import { expect, it } from 'vitest';
import { type ConformanceRun, expectProviderError, sendRequest } from './provider-conformance-run';
import { ProviderEventRecorder } from './provider-test-support';

/** Sends: the channel declared, an externalId per send, the lifecycle in order through a sink that sets the pace. */
export function describeSends(run: ConformanceRun): void {
  const { options, channel, recipients, timeoutMs } = run;
  it('declares the channel under test and its adapter name', () => {
    expect(run.provider.channels).toContain(channel);
    expect(run.provider.provider.length).toBeGreaterThan(0);
    expect(run.provider.instanceName.length).toBeGreaterThan(0);
  });

  it('answers each send with its own non-empty externalId', async () => {
    const first = await run.provider.send(sendRequest(options, recipients.deliverable));
    const second = await run.provider.send(sendRequest(options, recipients.deliverable));
    expect(first.externalId).toEqual(expect.any(String));
    expect(first.externalId.length).toBeGreaterThan(0);
    expect(second.externalId).not.toBe(first.externalId);
  });

  it('reports the lifecycle in order through the sink, keyed by the externalId', async () => {
    const request = sendRequest(options, recipients.deliverable);
    const { externalId } = await run.provider.send(request);
    const last = options.lifecycle.at(-1);
    if (!last) throw new Error('the lifecycle must name at least one status');
    await run.recorder.waitForStatus(externalId, last, timeoutMs);
    expect(run.recorder.statusesOf(externalId)).toEqual(options.lifecycle);
    for (const event of run.recorder.ofKind('message.status')) {
      expect(event.channel).toBe(channel);
      expect(event.occurredAt).toBeInstanceOf(Date);
      if (event.attemptId !== undefined) expect(event.attemptId).toBe(request.attemptId);
    }
  });

  it('waits for the sink to record a status before reporting the next one', async () => {
    await run.provider.stop();
    await run.subject.cleanup?.();
    const slow = new ProviderEventRecorder({
      hold: () => new Promise((resolve) => setTimeout(resolve, 15)),
    });
    await run.start(slow);
    const { externalId } = await run.provider.send(sendRequest(options, recipients.deliverable));
    const last = options.lifecycle.at(-1) ?? 'sent';
    await slow.waitForStatus(externalId, last, timeoutMs);
    expect(slow.statusesOf(externalId)).toEqual(options.lifecycle);
    expect(slow.maxConcurrentDeliveries).toBe(1);
  });
}

/** Failed sends: an unreachable recipient (with fallback) and a failing delivery, with spec error codes. */
export function describeSendFailures(run: ConformanceRun): void {
  const { options, recipients, timeoutMs } = run;
  if (recipients.unreachable !== undefined) {
    const unreachable = recipients.unreachable;
    it('refuses a recipient the channel cannot reach with NO_CHANNEL_AVAILABLE, allowing fallback', async () => {
      const error = await run.provider.send(sendRequest(options, unreachable)).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(isProviderError(error)).toBe(true);
      if (!isProviderError(error)) return;
      expect(error.code).toBe('NO_CHANNEL_AVAILABLE');
      expect(error.fallback).toBe(true);
    });
  }

  if (recipients.failing !== undefined) {
    const failing = recipients.failing;
    it('reports a failed delivery with a spec error code, by rejection or failed status', async () => {
      const outcome = await run.provider.send(sendRequest(options, failing)).then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
      if ('error' in outcome) {
        expect(isProviderError(outcome.error)).toBe(true);
        if (!isProviderError(outcome.error)) return;
        expect(PROVIDER_ERROR_CODES).toContain(outcome.error.code);
        expect(isErrorCode(outcome.error.code)).toBe(true);
        expect(typeof outcome.error.retryable).toBe('boolean');
        expect(typeof outcome.error.fallback).toBe('boolean');
        expect(outcome.error.message.length).toBeGreaterThan(0);
        return;
      }
      const { externalId } = outcome.result;
      const failed = await run.recorder.waitFor(
        (event) => run.statusOf(event, externalId) === 'failed',
        timeoutMs,
      );
      if (failed.kind !== 'message.status' || failed.status !== 'failed') return;
      expect(isErrorCode(failed.error.code)).toBe(true);
      expect(failed.error.message.length).toBeGreaterThan(0);
    });
  }
}

/** A send on a channel the instance does not serve answers CHANNEL_NOT_SUPPORTED. */
export function describeUnservedChannels(run: ConformanceRun): void {
  const { options, channel, recipients } = run;
  const unserved = (['imessage', 'sms', 'whatsapp'] as const).filter((other) => other !== channel);
  it('refuses a send on a channel the instance does not serve with CHANNEL_NOT_SUPPORTED', async () => {
    const other = unserved.find((candidate) => !run.provider.channels.includes(candidate));
    if (!other) return;
    await expectProviderError(
      run.provider.send({ ...sendRequest(options, recipients.deliverable), channel: other }),
      'CHANNEL_NOT_SUPPORTED',
    );
  });
}

/** Attachments, as bytes and as URLs, through their whole lifecycle. */
export function describeAttachments(run: ConformanceRun): void {
  const { options, recipients, timeoutMs } = run;
  it('sends attachments, as bytes and as URLs, through their whole lifecycle', async () => {
    const result = await run.provider.send(
      sendRequest(options, recipients.deliverable, {
        text: 'Two files',
        attachments: [
          {
            source: { kind: 'bytes', data: new Uint8Array([137, 80, 78, 71]) },
            mimeType: 'image/png',
            filename: 'a.png',
            publicUrl:
              'https://switchboard.example.com/v1/attachments/media_x_0?expires=1&signature=0',
          },
          {
            source: { kind: 'url', url: 'https://cdn.example.com/b.png' },
            mimeType: 'image/png',
          },
        ],
      }),
    );
    expect(result.externalId.length).toBeGreaterThan(0);
    const ids = result.parts?.map((part) => part.externalId) ?? [result.externalId];
    expect(new Set(ids).size).toBe(ids.length);
    const last = options.lifecycle.at(-1);
    if (!last) throw new Error('the lifecycle must name at least one status');
    for (const id of ids) await run.recorder.waitForStatus(id, last, timeoutMs);
  });
}

/** A re-driven attempt (the same attemptId) goes upstream once. */
export function describeRedrivenSends(run: ConformanceRun): void {
  const { options, recipients, timeoutMs } = run;
  it('sends a re-driven attempt (the same attemptId) once upstream', async () => {
    const request = sendRequest(options, recipients.deliverable);
    const first = await run.provider.send(request);
    const again = await run.provider.send(request);
    expect(again.externalId).toBe(first.externalId);
    const last = options.lifecycle.at(-1);
    if (!last) throw new Error('the lifecycle must name at least one status');
    await run.recorder.waitForStatus(first.externalId, last, timeoutMs);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Each status once: one lifecycle, not two. In any order, as an upstream posts each status
    // on its own request (Twilio's callbacks can overtake one another on a busy machine).
    expect([...run.recorder.statusesOf(first.externalId)].sort()).toEqual(
      [...options.lifecycle].sort(),
    );
  });
}

/** Nothing reaches the sink once stop has resolved. */
export function describeStop(run: ConformanceRun): void {
  const { options, recipients } = run;
  it('reports nothing through the sink once stop has resolved', async () => {
    await run.provider.send(sendRequest(options, recipients.deliverable));
    await run.provider.stop();
    const calls = run.recorder.calls;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(run.recorder.calls).toBe(calls);
  });
}
