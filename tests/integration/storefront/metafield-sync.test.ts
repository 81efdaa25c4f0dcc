// The storefront metafields (app.bundle_plan, app.mix_match) as the platform holds them after a
// sync: on the products the plan is sold on, with the live child selling plan, rewritten only
// when they change, cleared when a product no longer carries the plan.
import { prisma } from "../../../app/db.server";
import { CLEARED_VALUE, syncStorefrontMetafields } from "../../../app/domain/storefront/sync.server";
import type { BundlePlanValue, MixMatchValue } from "../../../app/domain/storefront/metafields";
import { useStack } from "../../support/stack";
import { seedStorefrontShop, type StorefrontShop } from "../../support/storefront-factories";

const stack = useStack({ workers: false }, 60_000);

type Metafield = { ownerId: string; namespace: string; key: string; type: string; value: string };
const metafields = async (s: StorefrontShop) =>
  (await stack.control.call<Metafield[]>("GET", `${stack.control.shop(s.domain)}/metafields`)).filter((m) => m.namespace === "$app");
const valueOn = async (s: StorefrontShop, ownerId: string, key: string) => {
  const m = (await metafields(s)).find((x) => x.ownerId === ownerId && x.key === key);
  return m ? JSON.parse(m.value) : undefined;
};
const metafieldsSetCalls = async (s: StorefrontShop) =>
  (await stack.control.call<{ operation: string }[]>("GET", `${stack.control.shop(s.domain)}/operations`)).filter((o) => o.operation === "metafieldsSet")
    .length;

describe("storefront metafield sync", () => {
  it("writes both metafields, as json, on every product the plan's group is sold on, with the live child plan", async () => {
    const s = await seedStorefrontShop(stack);
    expect(await syncStorefrontMetafields(s.domain)).toEqual({ products: 2, written: 4, cleared: 0 });
    const all = await metafields(s);
    expect(all.map((m) => [m.ownerId, m.key, m.type]).sort()).toEqual(
      [
        [s.products.coffee, "bundle_plan", "json"],
        [s.products.coffee, "mix_match", "json"],
        [s.products.tea, "bundle_plan", "json"],
        [s.products.tea, "mix_match", "json"],
      ].sort(),
    );
    const bundle: BundlePlanValue = await valueOn(s, s.products.coffee, "bundle_plan");
    expect(bundle).toEqual({
      bundle_id: s.bundleId,
      title: "Roaster's box",
      selling_plan_group_id: s.group.gid,
      selling_plan_id: s.group.planGid,
      selling_plans: [{ selling_plan_id: s.group.planGid, name: "Monthly, 10% off" }],
      selection_cutoff_days: 4,
      box_sizes: [],
    });
    const mix: MixMatchValue = await valueOn(s, s.products.tea, "mix_match");
    expect(mix).toMatchObject({
      mix_match_id: s.mixId,
      selling_plan_id: s.group.planGid,
      cart_group_id: "mm-pick-three",
      min_items: 2,
      max_items: 3,
      price_cents: 4000,
    });
    expect(mix.categories).toEqual([
      {
        title: "Coffee",
        entries: [
          { variant_id: s.variants.light, product_title: "Coffee", variant_title: "Light", price_cents: 1700 },
          { variant_id: s.variants.dark, product_title: "Coffee", variant_title: "Dark", price_cents: 2000 },
        ],
      },
      { title: "Tea", entries: [{ variant_id: s.variants.green, product_title: "Tea", variant_title: "Green", price_cents: 1250 }] },
    ]);
  });

  it("writes nothing when nothing changed; force rewrites everything (the nightly repair)", async () => {
    const s = await seedStorefrontShop(stack);
    await syncStorefrontMetafields(s.domain);
    const calls = await metafieldsSetCalls(s);
    expect(await syncStorefrontMetafields(s.domain)).toEqual({ products: 2, written: 0, cleared: 0 });
    expect(await metafieldsSetCalls(s)).toBe(calls);
    expect(await syncStorefrontMetafields(s.domain, { force: true })).toEqual({ products: 2, written: 4, cleared: 0 });
    expect(await metafieldsSetCalls(s)).toBe(calls + 1);
  });

  it("leaves out Mix & Match entries the plan's group is not sold on (the cart would refuse them)", async () => {
    const s = await seedStorefrontShop(stack);
    const tea = await prisma.mixMatchCategory.findFirstOrThrow({ where: { planId: s.mixId, title: "Tea" } });
    await prisma.mixMatchEntry.create({
      data: { categoryId: tea.id, variantGid: s.variants.mug, productTitle: "Mug", variantTitle: "White", priceCents: 900, position: 1 },
    });
    await syncStorefrontMetafields(s.domain);
    const mix: MixMatchValue = await valueOn(s, s.products.coffee, "mix_match");
    expect(mix.categories.flatMap((c) => c.entries.map((e) => e.variant_id))).not.toContain(s.variants.mug);
    expect(await valueOn(s, s.products.other, "mix_match")).toBeUndefined();
  });

  it("clears a metafield whose product no longer carries a plan, so no block offers a stale id", async () => {
    const s = await seedStorefrontShop(stack);
    await syncStorefrontMetafields(s.domain);
    await prisma.mixMatchPlan.delete({ where: { id: s.mixId } });
    expect(await syncStorefrontMetafields(s.domain)).toEqual({ products: 2, written: 0, cleared: 2 });
    for (const product of [s.products.coffee, s.products.tea]) {
      expect((await metafields(s)).find((m) => m.ownerId === product && m.key === "mix_match")?.value).toBe(CLEARED_VALUE);
      expect(await valueOn(s, product, "bundle_plan")).toMatchObject({ selling_plan_id: s.group.planGid });
    }
    expect(await prisma.storefrontMetafield.count({ where: { shopId: s.shopId, key: "mix_match" } })).toBe(0);
  });

  it("a platform outage fails the sync and records nothing as written; the next run writes", async () => {
    const s = await seedStorefrontShop(stack);
    await stack.control.call("POST", `${stack.control.shop(s.domain)}/failures`, { operation: "metafieldsSet", status: 503 });
    await expect(syncStorefrontMetafields(s.domain)).rejects.toMatchObject({ code: "platform_unavailable" });
    expect(await prisma.storefrontMetafield.count({ where: { shopId: s.shopId } })).toBe(0);
    expect(await metafields(s)).toEqual([]);
    expect(await syncStorefrontMetafields(s.domain)).toMatchObject({ written: 4 });
  });
});
