// The Bundles page's writes (docs/decisions/105-bundle-builder.md) against the simulator through
// the production adapter: a build-a-box bundle with sizes, a period's menu checked against the
// shop's catalogue at Shopify, refusals on the field they concern with nothing half-saved, "copy
// last period's menu", and the impact shown before publishing.
import { prisma } from "../../../app/db.server";
import { createBundle, updateBundle } from "../../../app/domain/catalog/bundle-builder.server";
import { copyPreviousMenu, menuImpact, menuPage, saveMenu, type MenuImpact } from "../../../app/domain/catalog/box-menu-builder.server";
import type { BundleForm, MenuItemForm } from "../../../app/domain/catalog/bundle-form";
import { reconcileContract } from "../../../app/domain/subscriptions/mirror.server";
import { api } from "../../support/admin-factories";
import { createKey, createPlanGroup } from "../../support/fixtures";
import { useStack } from "../../support/stack";

const stack = useStack({}, 60_000);

type SimProduct = { id: string; variants: { id: string }[] };
type SimGroup = { id: string; sellingPlans: { id: string }[] };

async function boxShop() {
  const { domain, shopId } = await stack.installShop();
  const shop = stack.control.shop(domain);
  const product = await stack.control.call<SimProduct>("POST", `${shop}/products`, {
    title: "Snacks",
    variants: [
      { title: "Crisps", price: "3.00" },
      { title: "Nuts", price: "4.50" },
      { title: "Figs", price: "5.00" },
    ],
  });
  const group = await stack.control.call<SimGroup>("POST", `${shop}/selling-plan-groups`, {
    name: "Snack box",
    plans: [{ name: "Monthly box", interval: "MONTH", intervalCount: 1 }],
    variantIds: [product.variants[0].id],
  });
  await createPlanGroup(shopId, { groupGid: group.id, name: "Snack box", sellingPlanGids: [group.sellingPlans[0].id] });
  return { ctx: { shopId, shopDomain: domain }, domain, shop, variants: product.variants.map((v) => v.id), group };
}

const bundleForm = (groupGid: string, over: Partial<BundleForm> = {}): BundleForm => ({
  title: "Snack box",
  kind: "BUILD_A_BOX",
  groupGid,
  selectionCutoffDays: 3,
  sizes: [
    { label: "Small", min: 2, max: 2, price: "20.00" },
    { label: "Large", min: 3, max: 4, price: "30.00" },
  ],
  ...over,
});

const item = (variantId: string, maxQuantity: number | null, fallbackQuantity: number): MenuItemForm => ({
  variantId,
  maxQuantity,
  fallbackQuantity,
  quantity: null,
});

describe("the bundle builder", () => {
  it("creates a build-a-box bundle with sizes; the Admin API shows it with the sizes' outer bounds", async () => {
    const { ctx, group } = await boxShop();
    const r = await createBundle(ctx, bundleForm(group.id));
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const row = await prisma.bundle.findUniqueOrThrow({ where: { id: r.bundleId } });
    expect(row.sizes).toEqual([
      { label: "Small", min: 2, max: 2, price_cents: 2000, currency: "USD" },
      { label: "Large", min: 3, max: 4, price_cents: 3000, currency: "USD" },
    ]);
    const key = (await createKey({ shopId: ctx.shopId, scopes: ["read:bundles"] })).key;
    const bundles = await api(key, "GET", "/bundles");
    expect(bundles.json.data[0]).toMatchObject({ id: r.bundleId, selling_plan_group_id: group.id, selection_cutoff_days: 3, box_size_min: 2, box_size_max: 4 });
  });

  it("refuses a cutoff as long as the billing interval, a plan of another shop, a size whose maximum is below its minimum and two sizes of one name, on their fields", async () => {
    const { ctx, group } = await boxShop();
    const other = await boxShop();
    expect(await createBundle(ctx, bundleForm(group.id, { selectionCutoffDays: 28 }))).toEqual({
      ok: false,
      errors: { selectionCutoffDays: expect.stringContaining("shorter than the plan's billing interval (28 days") },
    });
    expect(await createBundle(ctx, bundleForm(other.group.id))).toEqual({ ok: false, errors: { groupGid: "Choose one of your shop's plans" } });
    const r = await createBundle(ctx, bundleForm(group.id, { sizes: [{ label: "Odd", min: 5, max: 3, price: "1.00" }] }));
    expect(r).toEqual({ ok: false, errors: { "sizes.0.max": "The maximum is below the minimum" } });
    // A contract names its size (docs/decisions/167): two sizes of one name could not be told apart.
    const twins = await createBundle(
      ctx,
      bundleForm(group.id, {
        sizes: [
          { label: "Small", min: 2, max: 2, price: "1.00" },
          { label: " small", min: 3, max: 3, price: "2.00" },
        ],
      }),
    );
    expect(twins).toEqual({ ok: false, errors: { "sizes.1.label": "Another size has this name" } });
    expect(await prisma.bundle.count({ where: { shopId: ctx.shopId } })).toBe(0);
    const ok = await createBundle(ctx, bundleForm(group.id, { selectionCutoffDays: 27 }));
    expect(ok.ok).toBe(true);
    if (ok.ok)
      expect(await updateBundle(ctx, ok.bundleId, bundleForm(group.id, { kind: "CURATED" }))).toMatchObject({
        ok: false,
        errors: { kind: expect.any(String) },
      });
  });

  it("saves a draft menu snapshotted from Shopify and refuses an empty menu, a box larger than its menu and another shop's variant without touching the saved one", async () => {
    const { ctx, group, variants } = await boxShop();
    const other = await boxShop();
    const b = await createBundle(ctx, bundleForm(group.id));
    if (!b.ok) throw new Error("bundle");
    const good = { period: "2031-04", items: [item(variants[0], 2, 1), item(variants[1], 1, 1)] };
    expect(await saveMenu(ctx, b.bundleId, good, { publish: false })).toEqual({ ok: true, period: "2031-04", published: false, mailed: 0 });
    const saved = await menuPage(ctx.shopId, b.bundleId, "2031-04");
    expect(saved).toMatchObject({
      published: false,
      items: [{ variantId: variants[0], title: "Snacks – Crisps", maxQuantity: 2, fallbackQuantity: 1 }, { variantId: variants[1] }],
    });
    const rows = await prisma.bundleBoxItem.findMany({ where: { box: { bundleId: b.bundleId } }, orderBy: { position: "asc" } });
    expect(rows.map((r) => r.priceCents)).toEqual([300, 450]);

    expect(await saveMenu(ctx, b.bundleId, { period: "2031-04", items: [] }, { publish: false })).toEqual({
      ok: false,
      errors: { items: "Add at least one item to the menu" },
    });
    // The Large size needs 3 items; two items limited to one each offer only 2.
    const small = await saveMenu(ctx, b.bundleId, { period: "2031-04", items: [item(variants[0], 1, 1), item(variants[1], 1, 1)] }, { publish: false });
    expect(small).toEqual({ ok: false, errors: { items: expect.stringContaining("The Large box holds 3 items, but this menu offers at most 2") } });
    const foreign = await saveMenu(ctx, b.bundleId, { period: "2031-04", items: [...good.items, item(other.variants[2], 1, 0)] }, { publish: false });
    expect(foreign).toEqual({ ok: false, errors: { "items.2.variantId": "This variant is not in your shop's catalogue" } });
    const badFallback = await saveMenu(ctx, b.bundleId, { period: "2031-04", items: [item(variants[0], 2, 3), item(variants[1], 2, 2)] }, { publish: false });
    expect(badFallback).toEqual({
      ok: false,
      errors: { "items.0.fallbackQuantity": "More than the item's limit", fallback: expect.stringContaining("2 to 4 items (it holds 5)") },
    });
    expect((await menuPage(ctx.shopId, b.bundleId, "2031-04"))!.items).toEqual(saved!.items);
  });

  it("copies last period's menu into the next one's form and publishing shows whose picks name dropped items and who gets the fallback", async () => {
    const { ctx, domain, shop, group, variants } = await boxShop();
    const b = await createBundle(ctx, bundleForm(group.id));
    if (!b.ok) throw new Error("bundle");
    expect(await saveMenu(ctx, b.bundleId, { period: "2031-04", items: [item(variants[0], 2, 1), item(variants[1], 2, 1)] }, { publish: true })).toMatchObject({
      ok: true,
      published: true,
    });
    const copied = await copyPreviousMenu(ctx.shopId, b.bundleId, "2031-05");
    expect(copied!.map((i) => [i.variantId, i.maxQuantity, i.fallbackQuantity])).toEqual([
      [variants[0], 2, 1],
      [variants[1], 2, 1],
    ]);

    // Three subscribers charged in May: one picked Nuts in April, one picked Crisps for May, one never picked.
    const contracts: string[] = [];
    for (let n = 0; n < 3; n++) {
      const customer = await stack.control.call<{ id: string }>("POST", `${shop}/customers`, {
        email: `box${n}@example.com`,
        paymentMethod: { kind: "credit_card" },
      });
      const c = await stack.control.call<{ id: string }>("POST", `${shop}/contracts`, {
        customerId: customer.id,
        status: "ACTIVE",
        nextBillingDate: "2031-05-20T12:00:00Z",
        billingPolicy: { interval: "MONTH", intervalCount: 1, anchors: [] },
        lines: [{ variantId: variants[0], quantity: 1, sellingPlanId: group.sellingPlans[0].id }],
        webhooks: false,
      });
      await reconcileContract(domain, c.id);
      contracts.push(c.id);
    }
    await prisma.boxSelection.createMany({
      data: [
        { shopId: ctx.shopId, contractGid: contracts[0], period: "2031-04", items: [{ variant_id: variants[1], quantity: 2 }] },
        { shopId: ctx.shopId, contractGid: contracts[1], period: "2031-05", items: [{ variant_id: variants[0], quantity: 2 }] },
      ],
    });
    // May drops Nuts and adds Figs.
    const may = { period: "2031-05", items: [item(variants[0], 2, 1), item(variants[2], 2, 1)] };
    const impact = (await menuImpact(ctx.shopId, b.bundleId, may)) as MenuImpact;
    expect(impact).toEqual({
      period: "2031-05",
      subscribers: 3,
      picked: 1,
      picksNamingDropped: [{ contractGid: contracts[0], dropped: ["Snacks – Nuts"] }],
      fallback: [{ contractGid: contracts[0] }, { contractGid: contracts[2] }].sort(
        (x, y) => contracts.indexOf(x.contractGid) - contracts.indexOf(y.contractGid),
      ),
      droppedItems: [{ variantId: variants[1], title: "Snacks – Nuts" }],
    });
    expect(await prisma.bundleBox.count({ where: { bundleId: b.bundleId, period: "2031-05" } })).toBe(0); // the impact writes nothing

    const published = await saveMenu(ctx, b.bundleId, may, { publish: true, now: new Date("2031-05-01T00:00:00Z") });
    expect(published).toEqual({ ok: true, period: "2031-05", published: true, mailed: 3 });
    // Editing the published May menu to drop Crisps: the May pick naming Crisps now falls back too.
    const again = (await menuImpact(ctx.shopId, b.bundleId, { period: "2031-05", items: [item(variants[2], 4, 2)] })) as MenuImpact;
    expect(again.picksNamingDropped.map((p) => p.contractGid).sort()).toEqual([contracts[0], contracts[1]].sort());
    expect(again.fallback).toHaveLength(3);
  });
});
