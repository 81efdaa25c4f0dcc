// A mutual-exclusion lease in Redis, for work that calls Shopify and so must not sit inside a
// database transaction (docs/decisions/144-bounded-tables.md): a transaction-scoped advisory lock
// held a PostgreSQL connection and snapshot open for as long as Shopify took to answer.
// The lease is one key (slot-safe on a cluster), set with a random token and a time to live, renewed
// while the work runs, and released only by its holder (compare-and-delete in one script).
import { randomUUID } from "node:crypto";
import { luaCommand, redis, type RedisClient } from "./redis.server";

const release = luaCommand<(key: string, token: string) => Promise<number>>(
  "svcLeaseRelease",
  1,
  `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`,
);
const renew = luaCommand<(key: string, token: string, ttlMs: number) => Promise<number>>(
  "svcLeaseRenew",
  1,
  `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end`,
);

export class LeaseTimeout extends Error {
  constructor(key: string, waitedMs: number) {
    super(`lease ${key} still held by another process after ${waitedMs} ms`);
  }
}

/**
 * Runs `work` while holding the lease `key`, waiting up to `maxWaitMs` for it. The lease lives
 * `ttlMs` and is renewed every third of that while `work` runs, so a crashed holder frees it
 * within `ttlMs`.
 */
export async function withLease<T>(key: string, work: () => Promise<T>, opts: { ttlMs?: number; maxWaitMs?: number; client?: RedisClient } = {}): Promise<T> {
  const client = opts.client ?? redis();
  const ttlMs = opts.ttlMs ?? 30_000;
  const maxWaitMs = opts.maxWaitMs ?? 30_000;
  const token = randomUUID();
  const started = Date.now();
  let pause = 25;
  while ((await client.set(key, token, "PX", ttlMs, "NX")) !== "OK") {
    if (Date.now() - started > maxWaitMs) throw new LeaseTimeout(key, Date.now() - started);
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(pause * 2, 500);
  }
  const timer = setInterval(() => void renew(client)(key, token, ttlMs).catch(() => undefined), Math.max(100, Math.floor(ttlMs / 3)));
  timer.unref();
  try {
    return await work();
  } finally {
    clearInterval(timer);
    await release(client)(key, token).catch(() => undefined);
  }
}
