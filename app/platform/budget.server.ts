// One budget per shop (docs/decisions/096-shop-budget.md): every process's Admin API calls for a
// shop draw from one Redis-held estimate of that shop's Shopify bucket, so callers wait for points
// here instead of being THROTTLED there. The estimate is fed by each answer's throttleStatus
// (its size, restore rate and level) and restores at the shop's rate between answers.
//
// Priorities are floors: a caller may spend only down to its tier's share of the bucket, so the
// points above a floor are always there for the tiers above it. Interactive calls (admin pages,
// the Customer and Storefront APIs' live reads, API writes) may take the bucket to zero; billing
// stops at 10 %, reminders and the importer at 25 %, the reconcile and the storefront sync at 40 %.
// In steady state a tier spends the full restore rate while nothing above it asks for points.
// Floors age (docs/decisions/098-budget-aging.md): a call of a lower tier that has waited AGING_MS
// reserves its points, every tier but interactive leaves them alone, and it spends down to
// billing's floor; so a reconcile or an import is not starved for the hours a large shop's billing
// day spends at the limit, and interactive calls keep billing's floor of headroom.
// A granted call carries a ticket (the estimate it left); its settle is skipped when the answer
// changes nothing the ticket does not already say (docs/decisions/165-billing-throughput.md): one
// Redis round trip a call instead of two at a Plus shop's 100 calls a second.
import { randomUUID } from "node:crypto";
import { log } from "../infra/log.server";
import { luaCommand, redis, type RedisClient } from "../infra/redis.server";
import { sleep } from "../infra/async";
import { env } from "../env.server";

export type CallPriority = "interactive" | "billing" | "reminders" | "importer" | "reconcile" | "storefront_sync";

/** The share of the bucket each priority leaves to those above it. */
export const PRIORITY_FLOOR: Record<CallPriority, number> = {
  interactive: 0,
  billing: 0.1,
  reminders: 0.25,
  importer: 0.25,
  reconcile: 0.4,
  storefront_sync: 0.4,
};

/** How long a call of a lower tier waits before it reserves its points (docs/decisions/098-budget-aging.md). */
export const AGING_MS = 30_000;

/**
 * The floor of a call of `priority` that has waited `waitedMs`, and whether it has aged: an aged
 * call of a tier below billing spends down to billing's floor and holds the shop's reservation.
 */
export function agedFloor(priority: CallPriority, waitedMs: number, agingMs = AGING_MS): { floor: number; aged: boolean } {
  const base = PRIORITY_FLOOR[priority];
  const lowest = PRIORITY_FLOOR.billing;
  if (base <= lowest || !(waitedMs >= agingMs)) return { floor: base, aged: false };
  return { floor: lowest, aged: true };
}

/** Until a shop's first answer says otherwise: Shopify's standard plan (2,000 points, 100 a second). */
const DEFAULT_MAX = 2000;
const DEFAULT_RATE = 100;
/** A waiter looks again at least this often, so a refund or a larger bucket is noticed. */
const MAX_POLL_MS = 1000;
/** An idle shop's estimate is forgotten after an hour (its bucket is full again by then). */
const TTL_SECONDS = 3600;

/** This process's budget waits by priority: calls that had to wait, and the time they waited. */
export interface BudgetStats {
  calls: number;
  waited: number;
  waitedMs: number;
}
const stats = new Map<CallPriority, BudgetStats>();
export function budgetStats(): Record<CallPriority, BudgetStats> {
  const out = {} as Record<CallPriority, BudgetStats>;
  for (const p of Object.keys(PRIORITY_FLOOR) as CallPriority[]) out[p] = { ...(stats.get(p) ?? { calls: 0, waited: 0, waitedMs: 0 }) };
  return out;
}
export const resetBudgetStats = () => stats.clear();

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

// Both scripts refill the estimate to Redis's clock (TIME), the one clock every process shares.
const REFILL = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local h = redis.call('HMGET', KEYS[1], 'available', 'at', 'max', 'rate')
local max = tonumber(h[3]) or tonumber(ARGV[1])
local rate = tonumber(h[4]) or tonumber(ARGV[2])
local available = tonumber(h[1]) or max
local at = tonumber(h[2]) or now
available = math.min(max, available + math.max(0, now - at) / 1000 * rate)
`;

// ARGV: defaultMax, defaultRate, cost, floorShare, ttl, token ('' unless the call has aged),
// yields ('1': the caller leaves another's reservation alone; every tier but interactive).
// One reservation per shop: an aged call's cost, which others leave above their floor until it is
// spent or lapses (3 s without its holder asking again). Returns { ms to wait (0: granted), the
// estimate left, the bucket's size, its rate }.
const ACQUIRE = `${REFILL}
local cost = tonumber(ARGV[3])
local floor = math.max(0, math.min(max * tonumber(ARGV[4]), max - cost))
local token = ARGV[6]
local r = redis.call('HMGET', KEYS[1], 'rtoken', 'rcost', 'runtil')
local rtoken = r[1]
local rcost = tonumber(r[2]) or 0
if (tonumber(r[3]) or 0) < now then rtoken = false rcost = 0 end
if token ~= '' and (not rtoken or rtoken == token) then
  redis.call('HSET', KEYS[1], 'rtoken', token, 'rcost', cost, 'runtil', now + 3000)
  rtoken = token
  rcost = cost
end
local reserved = 0
if ARGV[7] == '1' and rtoken and rtoken ~= token then reserved = rcost end
local wait = 0
if available - cost >= floor + reserved then
  available = available - cost
  if token ~= '' and rtoken == token then redis.call('HDEL', KEYS[1], 'rtoken', 'rcost', 'runtil') end
else
  wait = math.ceil((cost + floor + reserved - available) / rate * 1000)
end
redis.call('HSET', KEYS[1], 'available', tostring(available), 'at', now, 'max', max, 'rate', rate)
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[5]))
return {wait, tostring(available), tostring(max), tostring(rate)}
`;

// ARGV: defaultMax, defaultRate, refund, serverAvailable (-1: unknown), serverMax, serverRate, ttl.
// The server's level caps the estimate (it may know of spending this one missed) but never
// raises it: requests charged here may not have reached Shopify yet. Except on Shopify's first
// word about a bucket of another size (the estimate began at the default, a standard shop's): the
// estimate is rebased on that size, what it took meanwhile counted as still in flight, so a Plus
// shop's first run keeps its 18,000-point head start (docs/decisions/165-billing-throughput.md).
const SETTLE = `${REFILL}
available = available + tonumber(ARGV[3])
local smax = tonumber(ARGV[5])
local srate = tonumber(ARGV[6])
local served = tonumber(ARGV[4])
if smax > 0 and smax ~= max and served >= 0 then available = smax - (max - available) end
if smax > 0 then max = smax end
if srate > 0 then rate = srate end
if served >= 0 then available = math.min(available, served) end
available = math.max(0, math.min(max, available))
redis.call('HSET', KEYS[1], 'available', tostring(available), 'at', now, 'max', max, 'rate', rate)
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[7]))
return tostring(available)
`;

type Acquire = (
  key: string,
  max: number,
  rate: number,
  cost: number,
  floor: number,
  ttl: number,
  token: string,
  yields: string,
) => Promise<[number, string, string, string]>;
type Settle = (key: string, max: number, rate: number, refund: number, served: number, smax: number, srate: number, ttl: number) => Promise<string>;
const acquireCommand = luaCommand<Acquire>("shopBudgetAcquire", 1, ACQUIRE);
const settleCommand = luaCommand<Settle>("shopBudgetSettle", 1, SETTLE);

/**
 * The command connection once it is ready: it queues nothing while offline (createRedis), so the
 * first call of a process would otherwise find it still connecting and go unbudgeted.
 */
async function ready(client: RedisClient): Promise<RedisClient> {
  if (client.status === "ready") return client;
  await new Promise<void>((resolve) => {
    const done = () => (clearTimeout(timer), client.off("ready", done), resolve());
    const timer = setTimeout(done, 2000);
    client.once("ready", done);
  });
  return client;
}

const budgetKey = (shop: string) => `${env().REDIS_PREFIX}:shopify-budget:{${shop}}`;

/** What a granted call saw: the estimate it left (at `at`, this process's clock) and the bucket. */
export interface BudgetTicket {
  available: number;
  max: number;
  rate: number;
  at: number;
}

export interface ShopBudget {
  /** Waits until `cost` points may be spent at `priority`, and takes them; null when it went unbudgeted. */
  acquire(shop: string, cost: number, priority: CallPriority): Promise<BudgetTicket | null>;
  /**
   * After an answer: gives back what was not spent and takes Shopify's word on the bucket. With the
   * call's ticket, an answer that would change nothing is not sent to Redis.
   */
  settle(shop: string, charged: number, spent: number | null, status: ThrottleStatus | undefined, ticket?: BudgetTicket | null): Promise<void>;
}

/**
 * Whether settling would leave the estimate as it is: nothing to give back, the bucket's size and
 * rate as the estimate has them, and Shopify holding at least what the estimate can hold by now
 * (what the ticket left, restored since), so its cap lowers nothing.
 */
export function settleChangesNothing(
  refund: number,
  status: ThrottleStatus | undefined,
  ticket: BudgetTicket | null | undefined,
  now = performance.now(),
): boolean {
  if (refund !== 0 || !status || !ticket) return false;
  if (status.maximumAvailable !== ticket.max || status.restoreRate !== ticket.rate) return false;
  const restored = Math.min(ticket.max, ticket.available + (Math.max(0, now - ticket.at) / 1000) * ticket.rate);
  return status.currentlyAvailable >= restored;
}

/** The bucket each shop's last granted call in this process saw (its size and restore rate). */
const seen = new Map<string, { max: number; rate: number }>();
/** The shop's bucket as this process last saw it, or undefined before its first budgeted call. */
export const knownBucket = (shop: string) => seen.get(shop);

/**
 * The Redis-backed budget. When Redis cannot be reached the call goes ahead unbudgeted (logged):
 * Shopify's own THROTTLED handling is the fallback, and a Redis outage must not stop billing.
 */
export function redisShopBudget(client: () => RedisClient = redis, opts: { agingMs?: number } = {}): ShopBudget {
  const agingMs = opts.agingMs ?? AGING_MS;
  return {
    async acquire(shop, cost, priority) {
      const s = stats.get(priority) ?? { calls: 0, waited: 0, waitedMs: 0 };
      stats.set(priority, s);
      s.calls++;
      const started = performance.now();
      let token = "";
      for (let round = 0; ; round++) {
        let answer: [number, string, string, string];
        try {
          const { floor, aged } = agedFloor(priority, performance.now() - started, agingMs);
          if (aged && !token) token = randomUUID();
          const yields = priority === "interactive" ? "0" : "1";
          answer = await acquireCommand(await ready(client()))(budgetKey(shop), DEFAULT_MAX, DEFAULT_RATE, cost, floor, TTL_SECONDS, token, yields);
        } catch (err) {
          log.warn("shop budget unavailable; calling Shopify unbudgeted", { shop, err });
          return null;
        }
        const wait = Number(answer[0]);
        if (wait <= 0) {
          if (round > 0) {
            s.waited++;
            s.waitedMs += performance.now() - started;
          }
          const ticket = { available: Number(answer[1]), max: Number(answer[2]), rate: Number(answer[3]), at: performance.now() };
          seen.set(shop, { max: ticket.max, rate: ticket.rate });
          return ticket;
        }
        await sleep(Math.min(MAX_POLL_MS, wait + Math.floor(Math.random() * 10)));
      }
    },
    async settle(shop, charged, spent, status, ticket) {
      const refund = spent === null ? charged : Math.max(0, charged - spent);
      if (settleChangesNothing(refund, status, ticket)) return;
      try {
        await settleCommand(await ready(client()))(
          budgetKey(shop),
          DEFAULT_MAX,
          DEFAULT_RATE,
          refund,
          status ? status.currentlyAvailable : -1,
          status?.maximumAvailable ?? 0,
          status?.restoreRate ?? 0,
          TTL_SECONDS,
        );
      } catch (err) {
        log.warn("shop budget could not be settled", { shop, err });
      }
    },
  };
}

let shared: ShopBudget | undefined;
/** The process's budget (Redis-backed). */
export const shopBudget = (): ShopBudget => (shared ??= redisShopBudget());

/** Forgets a shop's estimate (its bucket is assumed full again until Shopify says otherwise). */
export async function forgetShopBudget(shop: string, client: () => RedisClient = redis): Promise<void> {
  seen.delete(shop);
  await (await ready(client())).del(budgetKey(shop));
}
