import { InstancePacer } from '../domain/messages/instance-pacer';
import { SharedPacer } from '../domain/messages/shared-pacer';
import type { RedisConnection } from '../redis/redis-connection';
import { RedisSenderPaceBook } from '../redis/redis-sender-pace-book';
import type { SenderPaceBook } from '../store/sender-pace-book';
import type { Store } from '../store/store';

/**
 * The pacer of this process's sends. Where several processes share the database (PostgreSQL),
 * a number's pace holds across all of them: its departure slots come from Redis when configured,
 * else (or while Redis is away) from the database. On SQLite the one server process paces in
 * memory.
 */
export function createSendPacer(
  store: Store,
  redis: RedisConnection | undefined,
  redisKeyPrefix: string,
): InstancePacer {
  if (!store.senderPace) return new InstancePacer();
  const books: SenderPaceBook[] = [];
  if (redis) books.push(new RedisSenderPaceBook(redis, redisKeyPrefix));
  books.push(store.senderPace);
  return new SharedPacer(books);
}
