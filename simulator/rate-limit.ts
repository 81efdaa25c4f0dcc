// The Admin GraphQL API's leaky bucket, one per shop and app (docs/decisions/095-simulated-query-cost.md).
// Its size and restore rate follow the shop's Shopify plan; a request is charged its requested
// cost before it runs (refused with THROTTLED when the bucket holds less), and refunded the
// difference once its actual cost is known. Time is the process's monotonic clock, not the
// simulator's settable calendar: a test that moves the calendar does not refill the bucket.
import type { ShopState } from "./state";

export type RateLimitPlan = "standard" | "advanced" | "plus" | "enterprise";

/** Points per second, by plan; the bucket holds twenty seconds of it (what throttleStatus reports). */
export const RESTORE_RATE: Record<RateLimitPlan, number> = { standard: 100, advanced: 200, plus: 1000, enterprise: 2000 };
export const BUCKET_SECONDS = 20;

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

/** The plan whose limits apply to a shop: from its Shopify plan as the shop reports it. */
export function rateLimitPlan(shop: ShopState): RateLimitPlan {
  const name = shop.plan.displayName.toLowerCase();
  if (/enterprise|commerce components/.test(name)) return "enterprise";
  if (shop.plan.shopifyPlus || /plus/.test(name)) return "plus";
  if (/advanced/.test(name)) return "advanced";
  return "standard";
}

interface Bucket {
  available: number;
  at: number;
}

/** What a bucket has answered since it was made: requests charged, those refused THROTTLED, and the points they spent (actual cost). */
export interface BucketCounts {
  charged: number;
  throttled: number;
  points: number;
}

export class RateLimiter {
  private buckets = new Map<string, Bucket>();
  /** Buckets a test holds still: they neither restore nor forget their level. */
  private paused = new Set<string>();
  private counts = new Map<string, BucketCounts>();

  constructor(private readonly clock: () => number = () => performance.now()) {}

  private limits(shop: ShopState) {
    const restoreRate = RESTORE_RATE[rateLimitPlan(shop)];
    return { restoreRate, maximumAvailable: restoreRate * BUCKET_SECONDS };
  }

  /** The bucket refilled up to now. */
  private bucket(key: string, shop: ShopState): Bucket {
    const { restoreRate, maximumAvailable } = this.limits(shop);
    const now = this.clock();
    const b = this.buckets.get(key) ?? { available: maximumAvailable, at: now };
    if (!this.paused.has(key)) b.available = Math.min(maximumAvailable, b.available + ((now - b.at) / 1000) * restoreRate);
    b.at = now;
    this.buckets.set(key, b);
    return b;
  }

  status(key: string, shop: ShopState): ThrottleStatus {
    const { restoreRate, maximumAvailable } = this.limits(shop);
    const b = this.bucket(key, shop);
    return { maximumAvailable, currentlyAvailable: Math.floor(b.available), restoreRate };
  }

  /** Charges `cost` if the bucket holds it; false (nothing charged) when it does not. */
  take(key: string, shop: ShopState, cost: number): boolean {
    const b = this.bucket(key, shop);
    const counts = this.counted(key);
    if (b.available < cost) {
      counts.throttled++;
      return false;
    }
    counts.charged++;
    counts.points += cost;
    b.available -= cost;
    return true;
  }

  /** The bucket's counts (a benchmark's THROTTLED figure). */
  counted(key: string): BucketCounts {
    let c = this.counts.get(key);
    if (!c) this.counts.set(key, (c = { charged: 0, throttled: 0, points: 0 }));
    return c;
  }

  refund(key: string, shop: ShopState, points: number): void {
    const b = this.bucket(key, shop);
    this.counted(key).points -= Math.max(0, points);
    b.available = Math.min(this.limits(shop).maximumAvailable, b.available + Math.max(0, points));
  }

  /** Sets what the bucket holds now (a test draining it); null forgets it (full again). */
  set(key: string, shop: ShopState, available: number | null): void {
    if (available === null) this.buckets.delete(key);
    else this.buckets.set(key, { available: Math.min(this.limits(shop).maximumAvailable, Math.max(0, available)), at: this.clock() });
  }

  /** Stops (or restarts) the bucket's restoring, so a test can hold a level however slow the machine. */
  pause(key: string, shop: ShopState, paused: boolean): void {
    this.bucket(key, shop);
    if (paused) this.paused.add(key);
    else this.paused.delete(key);
  }

  reset(): void {
    this.buckets.clear();
    this.paused.clear();
    this.counts.clear();
  }
}
