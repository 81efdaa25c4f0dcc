// Per-key API usage for the admin's API keys page: requests, 4xx, 5xx and 429 answers per UTC
// day, counted by the kernel for every request whose key it authenticated (app/http/kernel.server.ts).
// One Redis hash per key and day, expiring after 32 days; the kernel does not wait for the write.
// Advisory figures (docs/decisions/060-key-usage-counter.md): if Redis loses them the page
// shows lower numbers, and nothing else depends on them.
import type { Redis } from "ioredis";
import { env } from "../../env.server";
import { log } from "../../infra/log.server";
import { luaCommand, redis } from "../../infra/redis.server";

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
export function recordKeyUsage(keyId: string, status: number, opts: { now?: Date; client?: Redis } = {}): Promise<void> {
  const fields = ["requests"];
  if (status === 429) fields.push("rate_limited");
  if (status >= 400 && status < 500) fields.push("client_errors");
  if (status >= 500) fields.push("server_errors");
  return command(opts.client ?? redis())(usageKey(keyId, day(opts.now ?? new Date())), TTL_SECONDS, ...fields)
    .then(() => undefined)
    .catch((err: unknown) => log.warn("key usage not counted", { err }));
}

/** The last 30 UTC days (today included) of each key's usage; 429s are also counted in client_errors. */
export async function keyUsage(keyIds: string[], opts: { now?: Date; client?: Redis } = {}): Promise<Map<string, KeyUsage>> {
  const now = opts.now ?? new Date();
  const days = Array.from({ length: USAGE_DAYS }, (_, i) => day(new Date(now.getTime() - i * 86_400_000)));
  const out = new Map<string, KeyUsage>(keyIds.map((id) => [id, { requests: 0, client_errors: 0, server_errors: 0, rate_limited: 0 }]));
  if (!keyIds.length) return out;
  const pipeline = (opts.client ?? redis()).pipeline();
  for (const id of keyIds) for (const d of days) pipeline.hgetall(usageKey(id, d));
  let results: [Error | null, unknown][] | null;
  try {
    results = await pipeline.exec();
  } catch (err) {
    log.warn("key usage unavailable", { err });
    return out;
  }
  (results ?? []).forEach(([err, value], i) => {
    if (err || !value) return;
    const u = out.get(keyIds[Math.floor(i / days.length)])!;
    const h = value as Record<string, string>;
    u.requests += Number(h.requests ?? 0);
    u.client_errors += Number(h.client_errors ?? 0);
    u.server_errors += Number(h.server_errors ?? 0);
    u.rate_limited += Number(h.rate_limited ?? 0);
  });
  return out;
}
