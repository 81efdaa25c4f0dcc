// Tests share one Redis database across workers and runs, told apart by key prefix
// (tests/setup/workers.ts). "Redis lost its data" is simulated by deleting one prefix's keys,
// never FLUSHDB, which would wipe other workers' and other checkouts' queues.
import type { Redis } from "ioredis";

export async function deleteRedisPrefix(redis: Redis, prefix: string): Promise<number> {
  let deleted = 0;
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
    cursor = next;
    if (keys.length > 0) deleted += await redis.unlink(...keys);
  } while (cursor !== "0");
  return deleted;
}
