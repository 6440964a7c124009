import { join } from 'node:path';
import type { Message, SendMessageResult } from '@switchboard/contract';
import { apiData } from '../api/api-client';
import type { ScenarioContext } from '../bench-mode';
import { sendLoad } from '../load/send-load';
import { cpuSeconds, waitForCpuIdle } from '../process/cpu-idle';
import { SwitchboardServer } from '../process/switchboard-server';
import { recipientNumber } from '../seed/phone-numbers';
import { seedTenants } from '../seed/tenants';
import { wavTone } from '../seed/wav-tone';
import { median, round } from '../stats/summary';
import { metric, type ScenarioOutcome } from './scenario-result';

/** Sends one file to a WhatsApp recipient; answers the message id. */
async function sendFile(
  url: string,
  key: string,
  wav: Buffer,
  isAudioMessage: boolean,
  tag: string,
): Promise<string> {
  const sent = await apiData<SendMessageResult>(url, 'POST', '/v1/messages', {
    token: key,
    expectedStatus: 202,
    body: {
      to: recipientNumber('whatsapp-read', 0),
      routing: { preference: ['whatsapp'], fallback: false },
      attachments: [{ data: wav.toString('base64'), filename: `${tag}.wav`, isAudioMessage }],
      idempotencyKey: `media-${tag}`,
    },
  });
  return sent.id;
}

/** Polls a message until it left `queued`/`pending`; answers it. */
async function settled(url: string, key: string, id: string, limitMs = 120_000): Promise<Message> {
  const until = Date.now() + limitMs;
  for (;;) {
    const message = await apiData<Message>(url, 'GET', `/v1/messages/${id}`, {
      token: key,
      expectedStatus: 200,
    });
    if (message.status !== 'queued' && message.status !== 'pending') return message;
    if (Date.now() > until) throw new Error(`message ${id} still ${message.status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Milliseconds from `queued` to `sent` on the message's own timeline (server clock). */
function queuedToSent(message: Message): number {
  const at = (status: string) => message.timeline.find((entry) => entry.status === status)?.at;
  const queued = at('queued');
  const sent = at('sent');
  if (queued === undefined || sent === undefined) {
    throw new Error(`message ${message.id} ended ${message.status}: ${message.errorMessage}`);
  }
  return Date.parse(sent) - Date.parse(queued);
}

/**
 * Scenario "media": what media conversion costs. (1) A voice memo (WAV) sent to whatsapp is
 * converted to Opus in Ogg before the send: its queued → sent time, against the same file sent
 * as a plain file (no conversion) in the same run. (2) Send acceptance p99 while
 * `concurrentTranscodes` long memos convert, against its p99 with the pool idle.
 */
export async function mediaTranscoding(context: ScenarioContext): Promise<ScenarioOutcome> {
  const settings = context.mode.media;
  const server = await SwitchboardServer.start({
    databasePath: join(context.workDir, 'media.db'),
    label: 'media',
    ...(context.profileDir ? { cpuProfileDir: context.profileDir } : {}),
  });
  try {
    const tenants = await seedTenants(server.url, { customers: 2, keysPerCustomer: 5 });
    const keys = tenants.flatMap((tenant) => tenant.keys);
    const key = keys[0] ?? '';
    const runTag = `${Date.now()}`;

    // (1) Conversion time of one memo, and the same bytes sent as they are.
    const converted: number[] = [];
    const asIs: number[] = [];
    // Server CPU of each send, with its FFmpeg children's: from before the send until idle again.
    const cpuConverted: number[] = [];
    const cpuAsIs: number[] = [];
    const cpuOf = async (send: () => Promise<void>): Promise<number> => {
      await waitForCpuIdle(server.pid);
      const before = cpuSeconds(server.pid, { children: true });
      await send();
      await waitForCpuIdle(server.pid);
      return (cpuSeconds(server.pid, { children: true }) - before) * 1000;
    };
    for (let run = 0; run < settings.runs; run += 1) {
      const wav = wavTone(settings.memoSeconds, 300 + run * 7);
      cpuAsIs.push(
        await cpuOf(async () => {
          const plain = await sendFile(server.url, key, wav, false, `${runTag}-plain-${run}`);
          asIs.push(queuedToSent(await settled(server.url, key, plain)));
        }),
      );
      cpuConverted.push(
        await cpuOf(async () => {
          const memo = await sendFile(server.url, key, wav, true, `${runTag}-memo-${run}`);
          converted.push(queuedToSent(await settled(server.url, key, memo)));
        }),
      );
      context.log(
        `  memo ${run + 1}: converted in ${converted.at(-1)} ms, as-is ${asIs.at(-1)} ms`,
      );
    }
    await waitForCpuIdle(server.pid);

    // (2) Acceptance with the pool idle, then with conversions running.
    const load = sendLoad({
      url: server.url,
      keys,
      connections: settings.connections,
      durationSec: settings.loadSec,
    });
    const idle = await load('idle');
    await waitForCpuIdle(server.pid);
    const busyIds: string[] = [];
    for (let index = 0; index < settings.concurrentTranscodes; index += 1) {
      const wav = wavTone(settings.busyMemoSeconds, 500 + index * 11);
      busyIds.push(await sendFile(server.url, key, wav, true, `${runTag}-busy-${index}`));
    }
    const busy = await load('busy');
    let stillConverting = 0;
    for (const id of busyIds) {
      const message = await apiData<Message>(server.url, 'GET', `/v1/messages/${id}`, {
        token: key,
        expectedStatus: 200,
      });
      if (message.status === 'queued') stillConverting += 1;
    }
    for (const id of busyIds) await settled(server.url, key, id, 600_000);
    const ratio = busy.latency.p99 / idle.latency.p99;
    context.log(
      `  acceptance p99 idle ${round(idle.latency.p99)} ms, with ${settings.concurrentTranscodes} conversions ${round(busy.latency.p99)} ms (${stillConverting} still converting at the end)`,
    );
    return {
      id: 'media',
      title: 'Media conversion',
      status: 'ok',
      metrics: [
        metric(
          `${settings.memoSeconds} s voice memo, queued → sent with conversion`,
          median(converted),
          'ms',
        ),
        metric('the same file as-is, queued → sent (baseline)', median(asIs), 'ms'),
        metric('conversion time (difference)', median(converted) - median(asIs), 'ms'),
        metric(
          'server CPU per memo sent with conversion, FFmpeg included',
          round(median(cpuConverted), 0),
          'ms',
        ),
        metric('server CPU per memo sent as-is (baseline)', round(median(cpuAsIs), 0), 'ms'),
        metric('acceptance p99, conversion pool idle', round(idle.latency.p99), 'ms'),
        metric(
          `acceptance p99, ${settings.concurrentTranscodes} conversions queued`,
          round(busy.latency.p99),
          'ms',
        ),
        metric('p99 ratio busy / idle', round(ratio, 2), '×', { op: '<=', value: 2 }),
        metric('accepted sends/s, idle', round(idle.okPerSec, 0), 'req/s'),
        metric('accepted sends/s, converting', round(busy.okPerSec, 0), 'req/s'),
      ],
      details: [],
      notes: [
        `Voice memos: mono 48 kHz 16-bit WAV (${settings.memoSeconds} s, about ${round((settings.memoSeconds * 96_000) / 1_000_000, 1)} MB) to whatsapp, converted to Opus in Ogg; the baseline sends the same file without \`isAudioMessage\` (no conversion). Times are the message's own queued → sent timeline, ${settings.runs} run(s), median. Server CPU per memo = the server's user + system CPU with that of its exited children (FFmpeg), from \`/proc\`, from before the send until the server is idle again (the upload and the send with its lifecycle included).`,
        `Busy: ${settings.concurrentTranscodes} memos of ${settings.busyMemoSeconds} s accepted just before the load run; ${stillConverting} were still converting when it ended. Conversions run one core each, at nice 10, ${'`MEDIA_TRANSCODE_CONCURRENCY`'} at its default (one per core).`,
      ],
    };
  } finally {
    await server.stop();
  }
}
