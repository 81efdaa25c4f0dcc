// The plan gate is at most 60 seconds stale (/docs#section/Conventions; docs/decisions/121-plan-gate-freshness.md).
// The gate reads the shop row the key lookup joins on every request; Shopify's billing state
// reaches that row from the app_subscriptions/update webhook and the Plan page. A lost webhook
// (or a change Shopify sends none for: a development store moving to a paid plan) would leave
// the row wrong for ever, so a request that finds the row's facts older than PLAN_MAX_AGE_MS
// starts a re-read of currentAppInstallation.activeSubscriptions and shop.plan.partnerDevelopment
// (syncPlanFromBilling) in the background:
//   - the request itself never waits on Shopify: it is answered from the row as it stands;
//   - at most one re-read per shop per minute across every replica: SET NX PX on a Redis key
//     that outlives the re-read (a failed re-read is retried after the lock expires, not sooner);
//   - Redis or Shopify unavailable: logged, the request unaffected.
import { env } from "../../env.server";
import { log } from "../../infra/log.server";
import { redis as sharedRedis, type RedisClient } from "../../infra/redis.server";
import { syncPlanFromBilling } from "./app-plan.server";

/** The plan gate's freshness bound (/docs#section/Conventions, Limits). */
export const PLAN_MAX_AGE_MS = 60_000;

export interface PlanFreshnessShop {
  id: string;
  domain: string;
  /** When the row's plan facts were last read from Shopify (or pinned by the support override). */
  planCheckedAt: Date | null;
}

const lockKey = (shopId: string) => `${env().REDIS_PREFIX}:plan-refresh:${shopId}`;

/** Whether the row's plan facts are older than the bound at `now`. */
export function planIsStale(shop: PlanFreshnessShop, now: number = Date.now()): boolean {
  return shop.planCheckedAt === null || now - shop.planCheckedAt.getTime() > PLAN_MAX_AGE_MS;
}

/**
 * Starts a re-read of the shop's plan when its row is stale and no replica did so in the last
 * minute. Returns at once; the promise it returns (tests wait on it) settles when the re-read
 * finished, `false` when none was started.
 */
export function refreshPlanIfStale(shop: PlanFreshnessShop, opts: { now?: number; client?: RedisClient } = {}): Promise<boolean> {
  if (!planIsStale(shop, opts.now)) return Promise.resolve(false);
  return Promise.resolve()
    .then(() => (opts.client ?? sharedRedis()).set(lockKey(shop.id), String(Date.now()), "PX", PLAN_MAX_AGE_MS, "NX"))
    .then(async (taken) => {
      if (taken !== "OK") return false;
      await syncPlanFromBilling(shop.domain);
      return true;
    })
    .catch((err: unknown) => {
      log.warn("plan re-read failed; the gate keeps the stored plan until the next try", {
        shop: shop.domain,
        err: err instanceof Error ? err : new Error(String(err)),
      });
      return false;
    });
}
