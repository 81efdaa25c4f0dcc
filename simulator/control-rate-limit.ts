// Control routes (/_sim/...) for the Admin API's cost bucket (rate-limit.ts): read it, move the
// shop to the Shopify plan whose limits a test wants, or drain it to a level; and for bulk
// operations (bulk-operations.ts): list them, hold them RUNNING, set how long one runs. Kept
// beside control.ts; handleControl asks these first (docs/simulator.md#rate-limits,
// docs/simulator.md#bulk-operations).
import { z } from "zod";
import type { ExtraHandler } from "./control-storefront";
import { rateLimitPlan, type RateLimitPlan } from "./rate-limit";
import type { ShopState } from "./state";
import type { SimCore } from "./core";

/** The Shopify plan a shop is put on to get each set of limits. */
const PLAN_NAMES: Record<RateLimitPlan, string> = { standard: "Basic", advanced: "Advanced", plus: "Shopify Plus", enterprise: "Commerce Components" };

const RateLimitBody = z
  .object({
    plan: z.enum(["standard", "advanced", "plus", "enterprise"]).optional(),
    /** The points the bucket holds from now on; null fills it. */
    currentlyAvailable: z.number().min(0).nullable().optional(),
    /** true: the bucket stops restoring until false (a test holding a level on a slow machine). */
    paused: z.boolean().optional(),
  })
  .strict();

const key = (core: SimCore, shop: ShopState) => `${shop.domain}|${core.config.apiKey}`;
const view = (core: SimCore, shop: ShopState) => ({
  plan: rateLimitPlan(shop),
  ...core.rateLimits.status(key(core, shop), shop),
  ...core.rateLimits.counted(key(core, shop)),
});

const BulkBody = z
  .object({
    /** true: operations stay RUNNING until false (a test that stops a worker mid-way). */
    hold: z.boolean().optional(),
    /** How long an operation runs before its result is written (default 200 ms). */
    runningMs: z.number().int().min(0).max(600_000).optional(),
  })
  .strict();

const bulkView = (core: SimCore, shop: ShopState) => ({
  ...core.bulk.settingsFor(key(core, shop)),
  started: core.bulk.count(key(core, shop)),
  operations: core.bulk.list(key(core, shop)).map(({ id, status, objectCount, rootObjectCount, createdAt, completedAt }) => ({
    id,
    status,
    objectCount,
    rootObjectCount,
    createdAt,
    completedAt,
  })),
});

export const RATE_LIMIT_CONTROL_ROUTES: [string, RegExp, ExtraHandler][] = [
  ["GET", /^\/_sim\/shops\/([^/]+)\/rate-limit$/, (core, shop) => view(core, shop)],
  [
    "PUT",
    /^\/_sim\/shops\/([^/]+)\/rate-limit$/,
    (core, shop, body) => {
      const input = RateLimitBody.parse(body ?? {});
      if (input.plan && rateLimitPlan(shop) !== input.plan) {
        shop.plan.displayName = PLAN_NAMES[input.plan];
        shop.plan.shopifyPlus = input.plan === "plus";
        // A new plan starts with a full bucket of its own size.
        core.rateLimits.set(key(core, shop), shop, null);
        core.changed();
      }
      if (input.paused !== undefined) core.rateLimits.pause(key(core, shop), shop, input.paused);
      if (input.currentlyAvailable !== undefined) core.rateLimits.set(key(core, shop), shop, input.currentlyAvailable);
      return view(core, shop);
    },
  ],
  ["GET", /^\/_sim\/shops\/([^/]+)\/bulk-operations$/, (core, shop) => bulkView(core, shop)],
  [
    "PUT",
    /^\/_sim\/shops\/([^/]+)\/bulk-operations$/,
    (core, shop, body) => {
      core.bulk.configure(key(core, shop), BulkBody.parse(body ?? {}));
      return bulkView(core, shop);
    },
  ],
];
