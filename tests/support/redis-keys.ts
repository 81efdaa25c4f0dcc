// Tests share one Redis database across workers and runs, told apart by key prefix
// (tests/setup/workers.ts). "Redis lost its data" is simulated by deleting one prefix's keys,
// never FLUSHDB, which would wipe other workers' and other checkouts' queues. On a cluster the
// queues' keys start with their hash tag {<prefix>:<queue>} (docs/decisions/162-queue-hash-tags.md),
// SCAN runs on every master and UNLINK one slot at a time (app/infra/redis.server.ts).
import { scanKeys, unlinkKeys, type RedisClient } from "../../app/infra/redis.server";

export async function deleteRedisPrefix(redis: RedisClient, prefix: string): Promise<number> {
  let deleted = 0;
  for (const pattern of [`${prefix}:*`, `{${prefix}:*`]) deleted += await unlinkKeys(redis, await scanKeys(redis, pattern));
  return deleted;
}
