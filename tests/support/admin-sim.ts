// The platform simulator in-process for the Admin write tests, on this worker's SIMULATOR_PORT
// (the port app/platform routes *.myshopify.com to), plus helpers that seed a shop, a product,
// a selling plan group and contracts on the simulator and mirror them into the database.
import { reconcileContract } from "../../app/domain/subscriptions/mirror.server";
import { SimulatorControl } from "../../simulator/control-client";
import { createPlanGroup, createShop } from "./fixtures";

export { startTestSimulator } from "./stack";

/** The simulator's control API (answers are loosely typed: tests read what they need). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const sim = (simUrl: string, method: string, p: string, body?: unknown): Promise<any> => new SimulatorControl(simUrl).call(method, p, body);

export interface AnchoredOpts {
  anchorDay: number;
  anchorMonths?: number[];
}

/** A shop on both sides: simulator (installed, token shpat_test) and database (PRO, session). */
export async function seedWriteShop(simUrl: string, opts: { anchored?: AnchoredOpts } = {}) {
  const shop = await createShop();
  await sim(simUrl, "POST", "/shops", { shop: shop.domain, accessToken: "shpat_test" });
  const product = await sim(simUrl, "POST", `/shops/${shop.domain}/products`, {
    title: "Coffee",
    variants: [
      { title: "Light", price: "18.00" },
      { title: "Dark", price: "20.00" },
      { title: "Decaf", price: "19.00" },
    ],
  });
  const [inGroup, alsoInGroup, outside] = product.variants.map((v: { id: string }) => v.id) as string[];
  const group = await sim(simUrl, "POST", `/shops/${shop.domain}/selling-plan-groups`, {
    name: "Monthly",
    plans: [{ name: "Monthly", interval: "MONTH", intervalCount: 1 }],
    variantIds: [inGroup, alsoInGroup],
  });
  const planGid: string = group.sellingPlans[0].id;
  const local = await createPlanGroup(shop.id, {
    groupGid: group.id,
    sellingPlanGids: [planGid],
    ...(opts.anchored
      ? {
          scheduleMode: "ANCHORED",
          anchorDay: opts.anchored.anchorDay,
          anchorMonths: opts.anchored.anchorMonths ?? [],
          cutoffDays: 3,
          preAnchorBehavior: "NEXT",
          scheduleLabel: "Anchored",
        }
      : {}),
  });
  return { shop, groupGid: group.id as string, planGid, localGroup: local, variants: { inGroup, alsoInGroup, outside } };
}

/** A contract on the simulator, mirrored into the database through the real reconcile. */
export async function seedContract(
  simUrl: string,
  s: Awaited<ReturnType<typeof seedWriteShop>>,
  opts: { status?: string; nextBillingDate?: string; quantity?: number } = {},
) {
  const c = await sim(simUrl, "POST", `/shops/${s.shop.domain}/contracts`, {
    lines: [{ variantId: s.variants.inGroup, quantity: opts.quantity ?? 1, sellingPlanId: s.planGid }],
    billingPolicy: { interval: "MONTH", intervalCount: 1 },
    nextBillingDate: opts.nextBillingDate ?? new Date(Date.now() + 5 * 86_400_000).toISOString(),
    ...(opts.status ? { status: opts.status } : {}),
    webhooks: false,
  });
  await reconcileContract(s.shop.domain, c.id);
  return { gid: c.id as string, lineGid: c.lines[0].id as string };
}
