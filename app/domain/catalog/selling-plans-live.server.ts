// Live resolution of child selling plans at the platform, for the Storefront API and the
// storefront metafields (the cart gap: docs/decisions/065-storefront-api.md). A platform that does not answer is an
// error the caller sees (platform_unavailable, retryable), never a stale id from the mirror:
// docs/decisions/065-storefront-api.md.
import { ApiError } from "../../infra/errors";
import { isPlatformError, platformFor, type CallPriority, type ShopifyPort } from "../../platform/index.server";
import { platformApiError } from "../shared/platform-call.server";

export const PLATFORM_RETRY_AFTER_SECONDS = 5;

/** Runs `fn` with the shop's port; an outage or throttle becomes 503 platform_unavailable. */
export async function livePlatform<T>(shopDomain: string, fn: (port: ShopifyPort) => Promise<T>, priority: CallPriority = "interactive"): Promise<T> {
  try {
    return await fn(await platformFor(shopDomain, priority));
  } catch (err) {
    if (isPlatformError(err) && err.kind === "unavailable") {
      throw new ApiError(
        "platform_unavailable",
        "The platform did not answer while resolving live selling plans; no stored id is served in its place. Retry shortly.",
        { "Retry-After": String(PLATFORM_RETRY_AFTER_SECONDS) },
      );
    }
    throw platformApiError(err);
  }
}

export interface LiveGroup {
  groupGid: string;
  /** Null when the group no longer exists at the platform. */
  sellingPlans: { id: string; name: string }[] | null;
  variantIds: string[];
}

/** Every group of `groupGids` resolved at the platform, one call each (a shop has few). */
export async function resolveGroupsLive(
  shopDomain: string,
  groupGids: readonly string[],
  priority: CallPriority = "interactive",
): Promise<Map<string, LiveGroup>> {
  const unique = [...new Set(groupGids)];
  return livePlatform(
    shopDomain,
    async (port) => {
      const out = new Map<string, LiveGroup>();
      for (const gid of unique) {
        const g = await port.resolveSellingPlans(gid);
        out.set(gid, { groupGid: gid, sellingPlans: g ? g.sellingPlans : null, variantIds: g ? g.variantIds : [] });
      }
      return out;
    },
    priority,
  );
}

/** The storefront form of a group's plans: the first is the one a single-plan form offers. */
export function sellingPlanFields(live: LiveGroup | undefined) {
  const plans = live?.sellingPlans ?? [];
  return {
    selling_plan_id: plans[0]?.id ?? null,
    selling_plans: plans.map((p) => ({ selling_plan_id: p.id, name: p.name })),
  };
}
