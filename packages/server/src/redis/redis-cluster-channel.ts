import type { ClusterChannel } from '../store/cluster-channel';
import type { RedisConnection } from './redis-connection';

/** A {@link ClusterChannel} on Redis pub/sub: `<prefix><name>`. */
export class RedisClusterChannel implements ClusterChannel {
  readonly #channel: string;
  #listener: ((channel: string, payload: string) => void) | undefined;

  /** The channel `name` under `prefix` of `redis`. */
  constructor(
    private readonly redis: RedisConnection,
    prefix: string,
    name: string,
  ) {
    this.#channel = `${prefix}${name}`;
  }

  async publish(payload: string): Promise<void> {
    await this.redis.commands.publish(this.#channel, payload);
  }

  async listen(listener: (payload: string) => void): Promise<void> {
    this.#listener = (channel, payload) => {
      if (channel === this.#channel) listener(payload);
    };
    this.redis.subscriber.on('message', this.#listener);
    // Queued until the subscriber connects (not awaited: Redis may be away), renewed on reconnect.
    this.redis.subscriber.subscribe(this.#channel).catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.#listener) this.redis.subscriber.off('message', this.#listener);
    await this.redis.subscriber.unsubscribe(this.#channel).catch(() => undefined);
  }
}
