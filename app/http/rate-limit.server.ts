// Per-shop token buckets (/docs#section/Surfaces; docs/decisions/011-rate-limiter.md). One atomic Lua call per request
// (luaCommand, app/infra/redis.server.ts). The bucket state is a hash of
// {tokens, ts}; refill is continuous at rate/min. If Redis is unreachable the limiter fails
// open to a per-process bucket with the same parameters and logs a warning (decision 011).
import { env } from "../env.server";
import { log } from "../infra/log.server";
import { luaCommand, redis as sharedRedis, type RedisClient } from "../infra/redis.server";

export interface BucketPolicy {
  /** Bucket name, part of the Redis key: admin | customer | storefront. */
  name: string;
  /** Sustained requests per minute. */
  perMinute: number;
  /** Bucket capacity. */
  burst: number;
}

export const ADMIN_BUCKET: BucketPolicy = { name: "admin", perMinute: 60, burst: 120 };
export const CUSTOMER_BUCKET: BucketPolicy = { name: "customer", perMinute: 120, burst: 180 };
export const STOREFRONT_BUCKET: BucketPolicy = { name: "storefront", perMinute: 300, burst: 600 };

export interface TakeResult {
  allowed: boolean;
  limit: number;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until one token is available (only meaningful when refused). */
  retryAfterSeconds: number;
  /** True when Redis was unreachable and the in-process fallback answered. */
  degraded: boolean;
}

// KEYS[1] bucket key. ARGV: capacity, tokens per ms, cost, now ms ("" = Redis TIME).
// Time comes from Redis by default so every replica agrees; ts never moves backwards.
const LUA = `
local cap = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local b = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(b[1])
local ts = tonumber(b[2])
if tokens == nil or ts == nil then
  tokens = cap
  ts = now
end
if now > ts then
  tokens = math.min(cap, tokens + (now - ts) * rate)
  ts = now
end
local allowed = 0
if tokens >= cost then
  tokens = tokens - cost
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(ts))
redis.call('PEXPIRE', KEYS[1], math.ceil((cap - tokens) / rate) + 1000)
return { allowed, tostring(tokens) }
`;

const command = luaCommand<(key: string, cap: number, rate: number, cost: number, now: string) => Promise<[number, string]>>("svcTakeToken", 1, LUA);

export function bucketKey(policy: BucketPolicy, shopId: string): string {
  return `${env().REDIS_PREFIX}:rl:${policy.name}:${shopId}`;
}

function describe(policy: BucketPolicy, tokens: number, allowed: boolean, degraded: boolean): TakeResult {
  const perSecond = policy.perMinute / 60;
  return {
    allowed,
    limit: policy.burst,
    remaining: Math.max(0, Math.floor(tokens)),
    resetSeconds: Math.ceil((policy.burst - tokens) / perSecond),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / perSecond)),
    degraded,
  };
}

// ---- in-process fallback -------------------------------------------------------------------
const local = new Map<string, { tokens: number; ts: number }>();
let lastWarn = 0;

function takeLocal(key: string, policy: BucketPolicy, cost: number, now: number): number | null {
  const rate = policy.perMinute / 60_000;
  const b = local.get(key) ?? { tokens: policy.burst, ts: now };
  if (now > b.ts) {
    b.tokens = Math.min(policy.burst, b.tokens + (now - b.ts) * rate);
    b.ts = now;
  }
  let ok = false;
  if (b.tokens >= cost) {
    b.tokens -= cost;
    ok = true;
  }
  local.set(key, b);
  if (local.size > 50_000) local.delete(local.keys().next().value as string);
  return ok ? b.tokens : -1 - b.tokens;
}

export interface TakeOptions {
  cost?: number;
  /** Milliseconds clock for the bucket (tests freeze it); default: Redis server time. */
  now?: number;
  client?: RedisClient;
  /** Give up on Redis after this long and use the fallback (ms). */
  timeoutMs?: number;
}

/**
 * Take `cost` tokens from the shop's bucket. Exported for export jobs, which draw from the
 * Admin bucket, shared with the Admin API's requests (docs/decisions/057-export-jobs.md).
 */
export async function takeToken(policy: BucketPolicy, shopId: string, opts: TakeOptions = {}): Promise<TakeResult> {
  const key = bucketKey(policy, shopId);
  const cost = opts.cost ?? 1;
  try {
    const client = opts.client ?? sharedRedis();
    // The command connection has no offline queue (a down Redis must fail fast), so the first
    // requests after boot wait for the initial connect instead of spuriously failing open.
    if (client.status === "wait" || client.status === "connecting" || client.status === "connect") await whenReady(client, opts.timeoutMs ?? 500);
    const call = command(client)(key, policy.burst, policy.perMinute / 60_000, cost, opts.now === undefined ? "" : String(opts.now));
    const [allowed, tokens] = await withTimeout(call, opts.timeoutMs ?? 500);
    return describe(policy, Number(tokens), allowed === 1, false);
  } catch (err) {
    const now = opts.now ?? Date.now();
    if (now - lastWarn > 10_000) {
      lastWarn = now;
      log.warn("rate limiter: Redis unavailable, failing open to the in-process bucket", { err: err as Error });
    }
    const r = takeLocal(key, policy, cost, now)!;
    return r >= 0 ? describe(policy, r, true, true) : describe(policy, -1 - r, false, true);
  }
}

function whenReady(client: RedisClient, ms: number): Promise<void> {
  if (client.status === "wait") void client.connect().catch(() => undefined);
  return withTimeout(
    new Promise<void>((resolve) => {
      client.once("ready", () => resolve());
    }),
    ms,
  );
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`redis timed out after ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** Response headers for a bucket answer: the service's own and the IETF draft's (additive). */
export function rateLimitHeaders(policy: BucketPolicy, r: TakeResult, headers: Headers): void {
  headers.set("X-Service-RateLimit-Limit", String(r.limit));
  headers.set("X-Service-RateLimit-Remaining", String(r.remaining));
  headers.set("X-Service-RateLimit-Reset", String(r.resetSeconds));
  const window = Math.round((policy.burst * 60) / policy.perMinute);
  headers.set("RateLimit-Policy", `"${policy.name}";q=${policy.burst};w=${window}`);
  headers.set("RateLimit", `"${policy.name}";r=${r.remaining};t=${r.allowed ? r.resetSeconds : r.retryAfterSeconds}`);
  if (!r.allowed) headers.set("Retry-After", String(r.retryAfterSeconds));
}

/** Tests only: forget the in-process fallback buckets. */
export function resetLocalBuckets(): void {
  local.clear();
}
