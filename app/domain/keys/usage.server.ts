// Per-key API usage for the admin's API keys page: requests, 4xx, 5xx and 429 answers per UTC
// day, counted by the kernel for every request whose key it authenticated (app/http/kernel.server.ts).
// One Redis hash per key and day, expiring after 32 days; the kernel does not wait for the write.
// Advisory figures (docs/decisions/060-key-usage-counter.md): if Redis loses them the page
// shows lower numbers, and nothing else depends on them.
import { env } from "../../env.server";
import { log } from "../../infra/log.server";
import { luaCommand, redis, type RedisClient } from "../../infra/redis.server";

export const USAGE_DAYS = 30;
const TTL_SECONDS = 32 * 86_400;

export interface KeyUsage {
  requests: number;
  client_errors: number;
  server_errors: number;
  rate_limited: number;
}

const day = (d: Date) => d.toISOString().slice(0, 10);
const usageKey = (keyId: string, date: string) => `${env().REDIS_PREFIX}:usage:${keyId}:${date}`;

// KEYS[1] the key's hash for the day; ARGV[1] its TTL in seconds; ARGV[2..] the fields to count.
// One command per answer: a MULTI of the same writes cost the kernel about twice the CPU
// (docs/decisions/060-key-usage-counter.md).
const LUA = `
for i = 2, #ARGV do redis.call('HINCRBY', KEYS[1], ARGV[i], 1) end
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 0
`;

const command = luaCommand<(key: string, ttl: number, ...fields: string[]) => Promise<number>>("svcCountKeyUsage", 1, LUA);

/** Counts one answered request of `keyId` with HTTP `status`. Never throws, never awaited by the caller. */
export function recordKeyUsage(keyId: string, status: number, opts: { now?: Date; client?: RedisClient } = {}): Promise<void> {
  const fields = ["requests"];
  if (status === 429) fields.push("rate_limited");
  if (status >= 400 && status < 500) fields.push("client_errors");
  if (status >= 500) fields.push("server_errors");
  return command(opts.client ?? redis())(usageKey(keyId, day(opts.now ?? new Date())), TTL_SECONDS, ...fields)
    .then(() => undefined)
    .catch((err: unknown) => log.warn("key usage not counted", { err }));
}

/**
 * The last 30 UTC days (today included) of each key's usage; 429s are also counted in client_errors.
 * A key whose counts could not all be read is `null` ("unavailable" on the page), never zeros that
 * look like no traffic. One HGETALL per key and day, all sent at once: a key's days hash to
 * different slots, and a pipeline on a cluster must stay on one node (docs/decisions/161).
 */
export async function keyUsage(keyIds: string[], opts: { now?: Date; client?: RedisClient } = {}): Promise<Map<string, KeyUsage | null>> {
  const now = opts.now ?? new Date();
  const days = Array.from({ length: USAGE_DAYS }, (_, i) => day(new Date(now.getTime() - i * 86_400_000)));
  const client = opts.client ?? redis();
  const read = await Promise.all(
    keyIds.map(async (id): Promise<[string, KeyUsage | null]> => {
      const hashes = await Promise.allSettled(days.map((d) => client.hgetall(usageKey(id, d))));
      const failed = hashes.find((h) => h.status === "rejected");
      if (failed) {
        log.warn("key usage unavailable", { keyId: id, err: failed.reason });
        return [id, null];
      }
      const u: KeyUsage = { requests: 0, client_errors: 0, server_errors: 0, rate_limited: 0 };
      for (const h of hashes) {
        const v = (h as PromiseFulfilledResult<Record<string, string>>).value;
        u.requests += Number(v.requests ?? 0);
        u.client_errors += Number(v.client_errors ?? 0);
        u.server_errors += Number(v.server_errors ?? 0);
        u.rate_limited += Number(v.rate_limited ?? 0);
      }
      return [id, u];
    }),
  );
  return new Map(read);
}
