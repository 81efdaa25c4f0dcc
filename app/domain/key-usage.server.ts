// Per-key API usage for the admin's API keys page: requests, 4xx, 5xx and 429 answers per UTC
// day, counted by the kernel for every request whose key it authenticated (app/http/kernel.server.ts).
// One Redis hash per key and day, expiring after 32 days; the kernel does not wait for the write.
// Advisory figures (docs/decisions/060-key-usage-counter.md): if Redis loses them the page
// shows lower numbers, and nothing else depends on them.
import type { Redis } from "ioredis";
import { env } from "../env.server";
import { log } from "../log.server";
import { redis } from "../redis.server";

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

/** Counts one answered request of `keyId` with HTTP `status`. Never throws, never awaited by the caller. */
export function recordKeyUsage(keyId: string, status: number, opts: { now?: Date; client?: Redis } = {}): Promise<void> {
  const k = usageKey(keyId, day(opts.now ?? new Date()));
  const multi = (opts.client ?? redis()).multi().hincrby(k, "requests", 1);
  if (status === 429) multi.hincrby(k, "rate_limited", 1);
  if (status >= 400 && status < 500) multi.hincrby(k, "client_errors", 1);
  if (status >= 500) multi.hincrby(k, "server_errors", 1);
  return multi
    .expire(k, TTL_SECONDS)
    .exec()
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
