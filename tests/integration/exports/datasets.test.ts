// The plans, bundles and mix_match datasets over the real database: one row per plan, per box
// item and per catalogue entry (empty containers still give one row), keyset-paged across page
// boundaries, each shop's rows only, and the same rows in CSV and JSONL.
import { prisma } from "../../../app/db.server";
import { DATASETS } from "../../../app/domain/exports/datasets.server";
import { type DatasetName } from "../../../app/domain/exports/stream-types";
import { encoder } from "../../../app/domain/shared/format";
import { streamDataset } from "../../../app/domain/exports/stream.server";
import { createBundle, createPlanGroup, createShop, gid } from "../../support/fixtures";

async function render(name: DatasetName, shopId: string, format: "csv" | "jsonl", pageSize?: number) {
  const ds = DATASETS[name];
  let text = "";
  let rows = 0;
  for await (const chunk of streamDataset(ds, encoder(format, ds.columns), { shopId, filters: {}, now: new Date(), pageSize })) {
    text += chunk.text;
    rows += chunk.rows;
  }
  return { text, rows };
}
const jsonl = async (name: DatasetName, shopId: string, pageSize?: number) =>
  (await render(name, shopId, "jsonl", pageSize)).text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));

describe("export datasets", () => {
  it("plans: one row per selling plan group, newest first, schedule columns only on anchored plans", async () => {
    const shop = await createShop();
    const other = await createShop();
    const rolling = await createPlanGroup(shop.id, { name: "Rolling", createdAt: new Date("2026-01-01T00:00:00Z") });
    const anchored = await createPlanGroup(shop.id, {
      name: "=Anchored",
      scheduleMode: "ANCHORED",
      anchorDay: 15,
      anchorMonths: [9, 3],
      cutoffDays: 5,
      preAnchorBehavior: "ASAP",
      scheduleLabel: "Ships on the 15th",
      giftable: true,
      createdAt: new Date("2026-02-01T00:00:00Z"),
      sellingPlanGids: ["gid://shopify/SellingPlan/1", "gid://shopify/SellingPlan/2"],
    });
    await createPlanGroup(other.id);
    const rows = await jsonl("plans", shop.id, 1);
    expect(rows.map((r) => r.plan_group_id)).toEqual([anchored.groupGid, rolling.groupGid]);
    expect(rows[0]).toMatchObject({
      name: "=Anchored",
      giftable: true,
      schedule_mode: "anchored",
      anchor_day: 15,
      anchor_months: "3;9",
      cutoff_days: 5,
      pre_anchor_behavior: "ASAP",
      selling_plan_ids: "gid://shopify/SellingPlan/1;gid://shopify/SellingPlan/2",
    });
    expect(rows[1]).toMatchObject({ schedule_mode: "rolling", anchor_day: null, anchor_months: null, giftable: false });
    const csv = await render("plans", shop.id, "csv");
    expect(csv.rows).toBe(2);
    expect(csv.text).toContain(`"'=Anchored"`);
  });

  it("bundles: one row per box item of each period; a box or bundle without items gives one row", async () => {
    const shop = await createShop();
    const group = await createPlanGroup(shop.id);
    const full = await createBundle({
      shopId: shop.id,
      groupId: group.id,
      title: "Coffee box",
      kind: "CURATED",
      createdAt: new Date("2026-03-01T00:00:00Z"),
      boxes: {
        create: [
          {
            period: "2026-01",
            published: true,
            items: {
              create: [
                { variantGid: gid("ProductVariant"), productTitle: "Beans", priceCents: 900, quantity: 2, position: 0 },
                { variantGid: gid("ProductVariant"), productTitle: "Mug", priceCents: 1500, quantity: 1, position: 1 },
              ],
            },
          },
          { period: "2026-02", published: false },
        ],
      },
    });
    const empty = await createBundle({ shopId: shop.id, groupId: group.id, title: "Empty", kind: "BUILD_A_BOX", createdAt: new Date("2026-01-01T00:00:00Z") });
    const rows = await jsonl("bundles", shop.id, 1);
    expect(rows.map((r) => [r.bundle_id, r.period, r.product])).toEqual([
      [full.id, "2026-02", null],
      [full.id, "2026-01", "Beans"],
      [full.id, "2026-01", "Mug"],
      [empty.id, null, null],
    ]);
    expect(rows[1]).toMatchObject({ kind: "curated", plan_group_id: group.groupGid, published: true, quantity: 2, price_cents: 900, item_position: 0 });
    expect((await render("bundles", shop.id, "csv")).rows).toBe(4);
  });

  it("mix_match: one row per catalogue entry; an empty category gives one row", async () => {
    const shop = await createShop();
    const group = await createPlanGroup(shop.id);
    const plan = await prisma.mixMatchPlan.create({
      data: {
        shopId: shop.id,
        groupId: group.id,
        title: "Pick 3",
        cartGroupId: "mm-1",
        priceCents: 2999,
        minItems: 3,
        maxItems: 3,
        categories: {
          create: [
            {
              title: "Teas",
              position: 0,
              entries: {
                create: [{ variantGid: "gid://shopify/ProductVariant/7", productTitle: "Green", variantTitle: "50 g", priceCents: 500, position: 0 }],
              },
            },
            { title: "Soon", position: 1 },
          ],
        },
      },
    });
    const rows = await jsonl("mix_match", shop.id);
    expect(rows).toEqual([
      {
        mix_match_id: plan.id,
        title: "Pick 3",
        plan_group_id: group.groupGid,
        cart_group_id: "mm-1",
        price_cents: 2999,
        min_items: 3,
        max_items: 3,
        category: "Teas",
        category_position: 0,
        entry_position: 0,
        variant_id: "gid://shopify/ProductVariant/7",
        product: "Green",
        variant: "50 g",
        entry_price_cents: 500,
      },
      expect.objectContaining({ category: "Soon", category_position: 1, variant_id: null, entry_price_cents: null }),
    ]);
    const csv = await render("mix_match", shop.id, "csv");
    expect(csv.rows).toBe(rows.length);
  });
});
