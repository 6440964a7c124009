import { RedisClusterChannel } from '../redis/redis-cluster-channel';
import type { RedisConnection } from '../redis/redis-connection';
import type { ClusterChannel } from '../store/cluster-channel';
import type { Store } from '../store/store';

/**
 * The channel `name` (kebab-case) the processes sharing the database publish on: Redis pub/sub
 * (`<prefix><name>`) when configured, else the database's `LISTEN`/`NOTIFY`
 * (`switchboard_<name>`, dashes as underscores); none on SQLite (one process).
 */
export function openClusterChannel(
  store: Store,
  redis: RedisConnection | undefined,
  redisKeyPrefix: string,
  name: string,
): ClusterChannel | undefined {
  if (!store.clusterChannel) return undefined;
  return redis
    ? new RedisClusterChannel(redis, redisKeyPrefix, name)
    : store.clusterChannel(`switchboard_${name.replaceAll('-', '_')}`);
}
