import {
  HELD_SLOT_MS,
  type PaceBookName,
  type PaceSlot,
  type SenderPaceBook,
} from '../store/sender-pace-book';
import type { RedisConnection } from './redis-connection';

/**
 * Takes a sender's next slot atomically, in microseconds of Redis's own clock (`TIME`), which
 * every process shares: the slot is the later of now and the one the previous taker left, and the
 * key moves one interval past it. Answers the wait and the slot's instant. The key expires a
 * minute after its last slot: an idle sender costs nothing. With a second key (a message's), the
 * slot that key holds is answered instead when there is one, and a new slot is kept under it
 * until {@link HELD_SLOT_MS} after its instant.
 */
const TAKE_SLOT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
if KEYS[2] then
  local held = redis.call('GET', KEYS[2])
  if held then
    local at = tonumber(held)
    return {math.floor(math.max(0, at - now)), math.floor(at)}
  end
end
local interval = tonumber(ARGV[1])
local previous = tonumber(redis.call('GET', KEYS[1]) or '0')
local at = math.max(now, previous)
redis.call('SET', KEYS[1], string.format('%.0f', at + interval), 'PX', math.ceil(interval / 1000) + 60000)
if KEYS[2] then
  redis.call('SET', KEYS[2], string.format('%.0f', at), 'PX', math.ceil((at - now) / 1000) + tonumber(ARGV[2]))
end
return {math.floor(at - now), math.floor(at)}`;

/**
 * {@link SenderPaceBook} in Redis: one script call (one round trip) per slot. Fails at once while
 * Redis cannot be reached (the connection queues nothing), so the caller falls back.
 */
export class RedisSenderPaceBook implements SenderPaceBook {
  /** Keeps its keys in `redis` under `prefix`. */
  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix: string,
  ) {}

  async takeSlot(
    book: PaceBookName,
    instanceId: string,
    sender: string,
    intervalMs: number,
    messageId?: string,
  ): Promise<PaceSlot> {
    const key = `${this.prefix}pace:${book}:${instanceId}:${sender}`;
    const keys =
      book !== 'start' || messageId === undefined
        ? [key]
        : [key, `${this.prefix}pace-slot:${instanceId}:${sender}:${messageId}`];
    const answer = await this.redis.commands.eval(
      TAKE_SLOT,
      keys.length,
      ...keys,
      String(Math.ceil(intervalMs * 1000)),
      String(HELD_SLOT_MS),
    );
    if (!Array.isArray(answer)) throw new Error('unexpected answer to the pacing script');
    const [waitUs, atUs] = answer as unknown[];
    if (typeof waitUs !== 'number' || typeof atUs !== 'number') {
      throw new Error('unexpected answer to the pacing script');
    }
    return { waitMs: waitUs / 1000, atMs: atUs / 1000 };
  }
}
