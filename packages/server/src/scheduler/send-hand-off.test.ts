import { describe, expect, it } from 'vitest';
import type { ClusterChannel } from '../store/cluster-channel';
import { SendHandOff } from './send-hand-off';

/** A channel between processes in memory: every listener hears every publish, its own included. */
function memoryChannels(): () => ClusterChannel & { published: string[] } {
  const listeners: Array<(payload: string) => void> = [];
  return () => {
    const published: string[] = [];
    return {
      published,
      publish: async (payload) => {
        published.push(payload);
        for (const listener of listeners) listener(payload);
      },
      listen: async (listener) => {
        listeners.push(listener);
      },
      close: async () => undefined,
    };
  };
}

describe('SendHandOff', () => {
  it('announces another process’s hand-off, never its own, and never echoes one it was handed', async () => {
    const channel = memoryChannels();
    const announced = { a: [] as string[], b: [] as string[], c: [] as string[] };
    const channels = { a: channel(), b: channel(), c: channel() };
    const a = new SendHandOff(channels.a, (id) => announced.a.push(id));
    const b = new SendHandOff(channels.b, (id) => announced.b.push(id));
    const c = new SendHandOff(channels.c, (id) => announced.c.push(id));
    await Promise.all([a.start(), b.start(), c.start()]);

    a.handOff('msg_1');
    await Promise.resolve();
    expect(announced).toEqual({ a: [], b: ['msg_1'], c: ['msg_1'] });
    // b and c find the message is not theirs either: they do not hand it off again.
    b.handOff('msg_1');
    c.handOff('msg_1');
    expect(channels.b.published).toEqual([]);
    expect(channels.c.published).toEqual([]);
    // a may repeat its own hand-off (its recheck after the sweep interval).
    a.handOff('msg_1');
    expect(channels.a.published).toHaveLength(2);
    await Promise.all([a.stop(), b.stop(), c.stop()]);
  });
});
