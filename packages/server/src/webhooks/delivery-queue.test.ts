import { type LoopbackReceiver, startLoopbackReceiver } from '@switchboard/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createSafeDispatcher } from '../egress/safe-dispatcher';
import { deliver } from './delivery-client';
import { DeliveryQueue, DeliveryQueueClosedError, DeliveryQueueFullError } from './delivery-queue';

/** A task that records when it starts and finishes only when the test releases it. */
function gatedTasks() {
  const started: string[] = [];
  const releases = new Map<string, () => void>();
  let running = 0;
  let maxRunning = 0;
  const task = (name: string) => () => {
    started.push(name);
    running += 1;
    maxRunning = Math.max(maxRunning, running);
    return new Promise<string>((resolve) => {
      releases.set(name, () => {
        running -= 1;
        resolve(name);
      });
    });
  };
  const release = async (name: string) => {
    const done = releases.get(name);
    if (done === undefined) throw new Error(`${name} has not started`);
    done();
    // Let the queues hand the freed slots on.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { started, task, release, maxRunning: () => maxRunning };
}

describe('DeliveryQueue', () => {
  it('takes keys in turn and keeps each key in FIFO order', async () => {
    const queue = new DeliveryQueue({ concurrency: 1, perKeyConcurrency: 1 });
    const { started, task, release } = gatedTasks();
    const results = [
      queue.enqueue('a', task('a1')),
      queue.enqueue('a', task('a2')),
      queue.enqueue('a', task('a3')),
      queue.enqueue('b', task('b1')),
      queue.enqueue('b', task('b2')),
      queue.enqueue('c', task('c1')),
    ];
    await new Promise((resolve) => setImmediate(resolve));
    for (const name of ['a1', 'b1', 'c1', 'a2', 'b2', 'a3']) {
      expect(started.at(-1)).toBe(name);
      await release(name);
    }
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
    expect(await Promise.all(results)).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'c1']);
    await queue.onIdle();
  });

  it('never runs more than the global and per-key limits', async () => {
    const queue = new DeliveryQueue({ concurrency: 3, perKeyConcurrency: 2 });
    const { started, task, release, maxRunning } = gatedTasks();
    for (let index = 0; index < 5; index += 1) void queue.enqueue('a', task(`a${index}`));
    void queue.enqueue('b', task('b0'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a0', 'a1', 'b0']);
    expect(queue.pending).toBe(3);
    expect(queue.size).toBe(3);
    await release('a0');
    expect(started).toEqual(['a0', 'a1', 'b0', 'a2']);
    for (const name of ['a1', 'b0', 'a2', 'a3', 'a4']) await release(name);
    await queue.onIdle();
    expect(maxRunning()).toBe(3);
    expect(queue.size + queue.pending).toBe(0);
  });

  it('rejects work beyond maxQueued, and accepts again once it drains', async () => {
    const queue = new DeliveryQueue({ concurrency: 1, maxQueued: 2 });
    const { task, release } = gatedTasks();
    const first = queue.enqueue('a', task('1'));
    const second = queue.enqueue('b', task('2'));
    expect(queue.isFull).toBe(true);
    await expect(queue.enqueue('c', task('3'))).rejects.toBeInstanceOf(DeliveryQueueFullError);
    await new Promise((resolve) => setImmediate(resolve));
    await release('1');
    await release('2');
    await Promise.all([first, second]);
    expect(queue.isFull).toBe(false);
    await expect(queue.enqueue('c', async () => 'ok')).resolves.toBe('ok');
  });

  it('settles with the task error without disturbing other tasks', async () => {
    const queue = new DeliveryQueue({ concurrency: 2 });
    const failing = queue.enqueue('a', async () => {
      throw new Error('boom');
    });
    const fine = queue.enqueue('a', async () => 'fine');
    await expect(failing).rejects.toThrow('boom');
    await expect(fine).resolves.toBe('fine');
  });

  it('pauses and resumes', async () => {
    const queue = new DeliveryQueue({ concurrency: 2 });
    queue.pause();
    expect(queue.isPaused).toBe(true);
    let ran = false;
    const result = queue.enqueue('a', async () => {
      ran = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toBe(false);
    expect(queue.size).toBe(1);
    queue.resume();
    await result;
    expect(ran).toBe(true);
  });

  it('on close, finishes running tasks, rejects waiting ones, and refuses new ones', async () => {
    const queue = new DeliveryQueue({ concurrency: 1, perKeyConcurrency: 1 });
    const { task, release } = gatedTasks();
    const running = queue.enqueue('a', task('running'));
    const waitingSameKey = queue.enqueue('a', task('waiting-a'));
    const waitingOtherKey = queue.enqueue('b', task('waiting-b'));
    await new Promise((resolve) => setImmediate(resolve));

    const closed = queue.close();
    await expect(queue.enqueue('c', async () => 'late')).rejects.toBeInstanceOf(
      DeliveryQueueClosedError,
    );
    await release('running');
    await closed;

    await expect(running).resolves.toBe('running');
    await expect(waitingSameKey).rejects.toBeInstanceOf(DeliveryQueueClosedError);
    await expect(waitingOtherKey).rejects.toBeInstanceOf(DeliveryQueueClosedError);
  });

  it('validates its limits', () => {
    expect(() => new DeliveryQueue({ concurrency: 0 })).toThrow(RangeError);
    expect(() => new DeliveryQueue({ concurrency: 2, perKeyConcurrency: 1.5 })).toThrow(RangeError);
  });
});

describe('DeliveryQueue with real receivers', () => {
  const receivers: LoopbackReceiver[] = [];
  const dispatcher = createSafeDispatcher({ allowPrivate: true });

  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  });

  it('keeps a healthy receiver flowing while another hangs on every request', async () => {
    const hanging = await startLoopbackReceiver(() => {
      // Never answers: every delivery runs into its timeout.
    });
    const healthy = await startLoopbackReceiver();
    receivers.push(hanging, healthy);
    const queue = new DeliveryQueue({ concurrency: 4, perKeyConcurrency: 2 });
    const finished: string[] = [];
    // Slots held by the hanging receiver's deliveries, counted where the slot is held: the client.
    let hangingInFlight = 0;
    let maxHangingInFlight = 0;
    const send = (key: string, origin: string, index: number) =>
      queue
        .enqueue(key, async () => {
          if (key === 'hanging') {
            hangingInFlight += 1;
            maxHangingInFlight = Math.max(maxHangingInFlight, hangingInFlight);
          }
          try {
            return await deliver({
              url: origin,
              headers: {},
              body: `{"n":${index}}`,
              timeoutMs: 1500,
              dispatcher,
            });
          } finally {
            if (key === 'hanging') hangingInFlight -= 1;
          }
        })
        .then((outcome) => {
          finished.push(`${key}:${outcome.kind}`);
        });

    // The hanging receiver's backlog is enqueued first, so a plain FIFO would serve it first.
    const work: Array<Promise<void>> = [];
    for (let index = 0; index < 4; index += 1) work.push(send('hanging', hanging.origin, index));
    for (let index = 0; index < 20; index += 1) work.push(send('healthy', healthy.origin, index));
    await Promise.all(work);

    // Every healthy delivery completed before the first hanging one timed out.
    const firstHanging = finished.findIndex((entry) => entry.startsWith('hanging'));
    expect(finished.slice(0, firstHanging)).toEqual(
      Array.from({ length: 20 }, () => 'healthy:delivered'),
    );
    expect(finished.filter((entry) => entry === 'hanging:retryable')).toHaveLength(4);
    expect(healthy.requests).toHaveLength(20);
    expect(hanging.requests).toHaveLength(4);
    // The hanging receiver never held more than its per-key share of the four global slots.
    expect(maxHangingInFlight).toBe(2);
    await dispatcher.close();
  });
});
