// The Mix & Match editor's writes (docs/decisions/107-mix-match-editor.md) against the simulator:
// saving checks entries at Shopify, refreshes the price_cents snapshot, rewrites the app.mix_match
// metafield at once and the Admin API follows; refusals land on their field with nothing written;
// a shopper's selection bought through the simulated checkout (every line with `_rc_mm_group` and
// the selling plan) makes a contract whose lines keep that property.
import { prisma } from "../../../app/db.server";
import { saveMixMatchForStorefront } from "../../../app/domain/storefront/mixmatch-save.server";
import type { MixMatchForm } from "../../../app/domain/catalog/mixmatch-builder.server";
import { api } from "../../support/admin-factories";
import { createKey, createPlanGroup } from "../../support/fixtures";
import { useStack } from "../../support/stack";

const stack = useStack({}, 60_000);
const num = (gid: string) => gid.split("/").pop();

async function mixShop() {
  const { domain, shopId } = await stack.installShop();
  const shop = stack.control.shop(domain);
  const product = await stack.control.call<{ id: string; variants: { id: string }[] }>("POST", `${shop}/products`, {
    title: "Tea",
    variants: [
      { title: "Green", price: "4.00" },
      { title: "Black", price: "3.50" },
      { title: "Oolong", price: "6.00" },
      { title: "Rooibos", price: "5.00" },
    ],
  });
  const v = product.variants.map((x) => x.id);
  const group = await stack.control.call<{ id: string; sellingPlans: { id: string }[] }>("POST", `${shop}/selling-plan-groups`, {
    name: "Tea club",
    plans: [{ name: "Monthly", interval: "MONTH", intervalCount: 1 }],
    variantIds: v.slice(0, 3), // Rooibos is not sold on the plan
  });
  await createPlanGroup(shopId, { groupGid: group.id, name: "Tea club", sellingPlanGids: [group.sellingPlans[0].id] });
  return { ctx: { shopId, shopDomain: domain }, domain, shop, productId: product.id, v, group };
}

const form = (groupGid: string, categories: MixMatchForm["categories"], over: Partial<MixMatchForm> = {}): MixMatchForm => ({
  title: "Pick 2 teas",
  groupGid,
  minItems: 2,
  maxItems: 3,
  categories,
  ...over,
});

const metafield = async (shop: string, productId: string) => {
  const all = await stack.control.call<{ ownerId: string; key: string; value: string }[]>("GET", `${shop}/metafields`);
  const m = all.find((x) => x.ownerId === productId && x.key === "mix_match");
  return m ? (JSON.parse(m.value) as { price_cents: number; cart_group_id: string; categories: { title: string; entries: { variant_id: string }[] }[] }) : null;
};

describe("the Mix & Match editor", () => {
  it("saves categories checked at Shopify, refreshes the price snapshot and rewrites the metafield at once; an edit follows", async () => {
    const s = await mixShop();
    const r = await saveMixMatchForStorefront(s.ctx, null, form(s.group.id, [{ title: "Light", entries: [{ variantId: s.v[0] }, { variantId: s.v[1] }] }]));
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    let mf = await metafield(s.shop, s.productId);
    expect(mf).toMatchObject({ price_cents: 700, categories: [{ title: "Light", entries: [{ variant_id: s.v[0] }, { variant_id: s.v[1] }] }] }); // 2 x 3.50
    const key = (await createKey({ shopId: s.ctx.shopId, scopes: ["read:mixmatch"] })).key;
    const before = await api(key, "GET", `/mix-match/${r.id}`);
    expect(before.status).toBe(200);

    const edited = await saveMixMatchForStorefront(
      s.ctx,
      r.id,
      form(s.group.id, [
        { title: "Light", entries: [{ variantId: s.v[0] }] },
        { title: "Strong", entries: [{ variantId: s.v[2] }] },
      ]),
    );
    expect(edited).toEqual({ ok: true, id: r.id });
    mf = await metafield(s.shop, s.productId);
    expect(mf!.price_cents).toBe(800); // 2 x 4.00: Black left
    expect(mf!.categories.map((c) => [c.title, c.entries.map((e) => e.variant_id)])).toEqual([
      ["Light", [s.v[0]]],
      ["Strong", [s.v[2]]],
    ]);
    const after = await api(key, "GET", `/mix-match/${r.id}`);
    expect(JSON.stringify(after.json)).toContain("Strong");
  });

  it("refuses bounds upside down, an empty category, a variant not sold on the plan and another shop's variant, on their fields, writing nothing", async () => {
    const s = await mixShop();
    const other = await mixShop();
    const cat = (ids: string[]) => [{ title: "Teas", entries: ids.map((variantId) => ({ variantId })) }];
    expect(await saveMixMatchForStorefront(s.ctx, null, form(s.group.id, cat([s.v[0], s.v[1]]), { minItems: 3, maxItems: 2 }))).toEqual({
      ok: false,
      errors: { maxItems: "The maximum is below the minimum" },
    });
    expect(await saveMixMatchForStorefront(s.ctx, null, form(s.group.id, [{ title: "Empty", entries: [] }]))).toMatchObject({
      ok: false,
      errors: { "categories.0.entries": "Add at least one product to the category" },
    });
    expect(await saveMixMatchForStorefront(s.ctx, null, form(s.group.id, cat([s.v[0], s.v[3]])))).toEqual({
      ok: false,
      errors: { "categories.0.entries.1": "This variant is not sold on the chosen plan: add it to the plan first" },
    });
    expect(await saveMixMatchForStorefront(s.ctx, null, form(s.group.id, cat([s.v[0], other.v[1]])))).toEqual({
      ok: false,
      errors: { "categories.0.entries.1": "This variant is not in your shop's catalogue" },
    });
    expect(await prisma.mixMatchPlan.count({ where: { shopId: s.ctx.shopId } })).toBe(0);
    expect(await metafield(s.shop, s.productId)).toBeNull();
  });

  it("a selection bought through the simulated checkout keeps one _rc_mm_group on every contract line", async () => {
    const s = await mixShop();
    const r = await saveMixMatchForStorefront(s.ctx, null, form(s.group.id, [{ title: "Teas", entries: [{ variantId: s.v[0] }, { variantId: s.v[2] }] }]));
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const group = (await metafield(s.shop, s.productId))!.cart_group_id;
    const base = `${stack.sim.url}/storefront/${s.domain}`;
    const plan = s.group.sellingPlans[0].id;
    const add = await fetch(`${base}/cart/add.js`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        items: [s.v[0], s.v[2]].map((v) => ({ id: num(v), quantity: 1, selling_plan: num(plan), properties: { _rc_mm_group: group } })),
      }),
    });
    expect(add.status).toBe(200);
    const cookie = add.headers.get("set-cookie")!.split(";")[0];
    const paid = await fetch(`${base}/checkout`, {
      method: "POST",
      headers: { "Content-Type": "application/json", cookie },
      body: JSON.stringify({ email: "mm@example.com", first_name: "Mix", last_name: "Match" }),
    });
    expect(paid.status).toBe(200);
    const { contract_ids } = (await paid.json()) as { contract_ids: string[] };
    expect(contract_ids).toHaveLength(1);
    const contract = await stack.control.call<{ lines: { variantId: string; customAttributes: { key: string; value: string }[] }[] }>(
      "GET",
      `${s.shop}/contracts/${encodeURIComponent(contract_ids[0])}`,
    );
    expect(contract.lines.map((l) => [l.variantId, l.customAttributes])).toEqual([
      [s.v[0], [{ key: "_rc_mm_group", value: group }]],
      [s.v[2], [{ key: "_rc_mm_group", value: group }]],
    ]);
    // The contract reaches the app's mirror through the create webhook (and nothing is left in flight).
    await stack.settled(s.domain, () => prisma.contract.findFirst({ where: { shopId: s.ctx.shopId, contractGid: contract_ids[0] } }));
  });
});
