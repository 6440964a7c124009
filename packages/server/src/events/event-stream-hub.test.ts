import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { EventFilter, EventType } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import { InProcessEventBus } from './event-bus';
import type { RecordedEvent } from './event-recorder';
import { EventStreamHub } from './event-stream-hub';
import { eventFrame } from './sse-frame';

/** The part of a `ServerResponse` the hub uses, recording what is written. */
class FakeResponse extends EventEmitter {
  readonly writes: Array<string | Buffer> = [];
  writableLength = 0;
  destroyed = false;
  writableEnded = false;

  writeHead(): this {
    return this;
  }

  write(chunk: string | Buffer): boolean {
    this.writes.push(chunk);
    return true;
  }

  end(): this {
    this.writableEnded = true;
    return this;
  }

  destroy(): this {
    this.destroyed = true;
    process.nextTick(() => this.emit('close'));
    return this;
  }

  /** Everything written after the opening comment, as text. */
  body(): string {
    return this.writes
      .slice(1)
      .map((chunk) => chunk.toString())
      .join('');
  }
}

let sequence = 0;
function event(type: EventType = 'message.sent', customerId = 'cus_a'): RecordedEvent {
  sequence += 1;
  return {
    id: `evt_${sequence}`,
    type,
    customerId,
    payload: JSON.stringify({ id: `evt_${sequence}`, type, text: 'é' }),
    correlationId: 'cor_1',
    callbackUrl: null,
    messageId: null,
    createdAt: new Date(0).toISOString(),
  };
}

function hubWith(maxBufferBytes = 1 << 20) {
  const bus = new InProcessEventBus();
  const hub = new EventStreamHub(bus, { heartbeatMs: 60_000, maxBufferBytes });
  const open = (filter: EventFilter = '*', customerId = 'cus_a') => {
    const response = new FakeResponse();
    hub.open(response as unknown as ServerResponse, { customerId, filter, headers: {} });
    return response;
  };
  return { bus, hub, open };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('EventStreamHub', () => {
  it('writes the frames of one tick to a stream in one write, in order', async () => {
    const { bus, open } = hubWith();
    const all = open();
    const inboundOnly = open(['message.inbound']);
    const events = [event(), event('message.inbound'), event('message.delivered')];
    for (const published of events) bus.publish(published);
    expect(all.writes).toHaveLength(1); // only the opening comment so far
    await nextTurn();
    expect(all.writes).toHaveLength(2);
    expect(all.body()).toBe(events.map(eventFrame).join(''));
    expect(inboundOnly.writes).toHaveLength(2);
    expect(inboundOnly.body()).toBe(eventFrame(events[1] as RecordedEvent));
  });

  it('encodes an event once for all its streams', async () => {
    const { bus, open } = hubWith();
    const a = open();
    const b = open();
    bus.publish(event());
    await nextTurn();
    expect(a.writes[1]).toBeInstanceOf(Buffer);
    expect(a.writes[1]).toBe(b.writes[1]);
  });

  it('counts frames waiting for the flush against the buffer limit', async () => {
    const one = event();
    const frameBytes = Buffer.byteLength(eventFrame(one));
    const { bus, hub, open } = hubWith(frameBytes * 3);
    const stalled = open();
    stalled.writableLength = frameBytes; // one frame the reader has not taken yet
    bus.publish(one);
    bus.publish(one);
    expect(stalled.destroyed).toBe(false);
    bus.publish(one);
    expect(stalled.destroyed).toBe(true);
    await nextTurn();
    expect(stalled.writes).toHaveLength(1); // nothing written after it was cut
    expect(hub.size).toBe(0);
  });

  it('flushes waiting frames before ending the streams at shutdown', () => {
    const { bus, hub, open } = hubWith();
    const stream = open();
    const last = event();
    bus.publish(last);
    hub.closeAll();
    expect(stream.body()).toBe(eventFrame(last));
    expect(stream.writableEnded).toBe(true);
  });
});
