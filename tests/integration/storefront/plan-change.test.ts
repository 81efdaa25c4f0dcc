// A plan changed on the platform reaches the storefront metafields with no manual step: the
// simulator (a merchant editing the group in Shopify admin) sends selling_plan_groups/update,
// the app queues it, a real worker re-mirrors the group's child plans and rewrites the
// metafields with the new child plan id.
import { prisma } from "../../../app/db.server";
import { CLEARED_VALUE, syncStorefrontMetafields } from "../../../app/domain/storefront/sync.server";
import { useStack } from "../../support/stack";
import { seedStorefrontShop, type StorefrontShop } from "../../support/storefront-factories";

const stack = useStack({}, 60_000);

type Metafield = { ownerId: string; namespace: string; key: string; value: string };
const metafield = async (s: StorefrontShop, ownerId: string, key: string) =>
  (await stack.control.call<Metafield[]>("GET", `${stack.control.shop(s.domain)}/metafields`)).find(
    (m) => m.namespace === "$app" && m.ownerId === ownerId && m.key === key,
  );
const editGroup = (s: StorefrontShop, patch: object) =>
  stack.control.call<{ id: string; sellingPlans: { id: string }[] }>(
    "PATCH",
    `${stack.control.shop(s.domain)}/selling-plan-groups/${encodeURIComponent(s.group.gid)}`,
    patch,
  );

describe("a plan change on the platform", () => {
  it("reaches the metafields and the mirrored child plans through the selling_plan_groups/update webhook", async () => {
    const s = await seedStorefrontShop(stack);
    await syncStorefrontMetafields(s.domain);
    const edited = await editGroup(s, { plans: [{ name: "Monthly, 15% off", interval: "MONTH", intervalCount: 1 }] });
    const newPlan = edited.sellingPlans[0].id;
    expect(newPlan).not.toBe(s.group.planGid);

    for (const [product, key] of [
      [s.products.coffee, "bundle_plan"],
      [s.products.tea, "mix_match"],
    ] as const) {
      const value = await stack.settled(s.domain, async () => {
        const m = await metafield(s, product, key);
        const v = m && JSON.parse(m.value);
        return v?.selling_plan_id === newPlan ? v : null;
      });
      expect(value.selling_plan_id).toBe(newPlan);
    }
    const bundle = JSON.parse((await metafield(s, s.products.coffee, "bundle_plan"))!.value);
    expect(bundle.selling_plans).toEqual([{ selling_plan_id: newPlan, name: "Monthly, 15% off" }]);
    // The mirror's child plans follow too (the stale id the factory stored is gone).
    const plans = await prisma.sellingPlan.findMany({ where: { groupId: s.group.localId } });
    expect(plans.map((p) => [p.sellingPlanGid, p.name])).toEqual([[newPlan, "Monthly, 15% off"]]);
  });

  it("a product taken out of the plan has its metafields cleared", async () => {
    const s = await seedStorefrontShop(stack);
    await syncStorefrontMetafields(s.domain);
    await editGroup(s, { variantIds: [s.variants.light, s.variants.dark] });
    await stack.settled(s.domain, async () => (await metafield(s, s.products.tea, "mix_match"))?.value === CLEARED_VALUE);
    expect((await metafield(s, s.products.tea, "bundle_plan"))?.value).toBe(CLEARED_VALUE);
    expect(JSON.parse((await metafield(s, s.products.coffee, "mix_match"))!.value).categories.map((c: { title: string }) => c.title)).toEqual([
      "Coffee",
      "Tea",
    ]);
    expect(JSON.parse((await metafield(s, s.products.coffee, "mix_match"))!.value).categories[1].entries).toEqual([]);
  });

  it("the on-demand webhook for a group is processed once per delivery and changes nothing when nothing changed", async () => {
    const s = await seedStorefrontShop(stack);
    await syncStorefrontMetafields(s.domain);
    const before = await stack.control.call<{ operation: string }[]>("GET", `${stack.control.shop(s.domain)}/operations`);
    const { delivery } = await stack.control.call<{ delivery: { id: string } }>("POST", `${stack.control.shop(s.domain)}/webhooks`, {
      topic: "selling_plan_groups/update",
      sellingPlanGroupId: s.group.gid,
    });
    await stack.settled(s.domain, async () =>
      (await prisma.sellingPlan.findMany({ where: { groupId: s.group.localId } })).some((p) => p.sellingPlanGid === s.group.planGid),
    );
    const ops = await stack.control.call<{ operation: string }[]>("GET", `${stack.control.shop(s.domain)}/operations`);
    expect(ops.slice(before.length).filter((o) => o.operation === "metafieldsSet")).toEqual([]);
    expect(await prisma.inboundWebhook.count({ where: { webhookId: delivery.id } })).toBe(1);
  });
});
