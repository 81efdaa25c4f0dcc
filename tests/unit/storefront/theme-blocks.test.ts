// The Liquid blocks rendered with liquidjs from metafield values in the shape the app writes
// (app/domain/storefront/metafields.ts): what they put on the product form, what they leave out,
// and that they translate. The demo shop's real values are rendered in Chromium by
// tests/e2e/theme-blocks.spec.ts.
import type { BundlePlanValue, MixMatchValue } from "../../../app/domain/storefront/metafields";
import { renderBlock } from "../../support/theme";

const bundle = (over: Partial<BundlePlanValue> = {}): string =>
  JSON.stringify({
    bundle_id: "b_1",
    title: "Roaster's <Choice> box",
    selling_plan_group_id: "gid://shopify/SellingPlanGroup/10",
    selling_plan_id: "gid://shopify/SellingPlan/77",
    selling_plans: [{ selling_plan_id: "gid://shopify/SellingPlan/77", name: "Monthly" }],
    selection_cutoff_days: 4,
    box_sizes: [],
    ...over,
  } satisfies BundlePlanValue);

const mix = (over: Partial<MixMatchValue> = {}): string =>
  JSON.stringify({
    mix_match_id: "mm_1",
    title: "Coffee Trio",
    selling_plan_group_id: "gid://shopify/SellingPlanGroup/10",
    selling_plan_id: "gid://shopify/SellingPlan/77",
    cart_group_id: "mm-coffee-trio",
    min_items: 2,
    max_items: 3,
    price_cents: 4500,
    categories: [
      { title: "Light", entries: [{ variant_id: "gid://shopify/ProductVariant/501", product_title: "Kenya", variant_title: "250 g", price_cents: 1800 }] },
      { title: "Empty", entries: [] },
    ],
    ...over,
  } satisfies MixMatchValue);

const inputs = (html: string) => [...html.matchAll(/<input\b[^>]*>/g)].map((m) => m[0]);
const attr = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];

describe("bundle-plan block", () => {
  it("puts the numeric selling plan on the theme's product form, escaped title, cutoff sentence", async () => {
    const html = await renderBlock("bundle-plan", { metafields: { bundle_plan: bundle() }, sectionId: "main" });
    const [plan] = inputs(html);
    expect(attr(plan, "name")).toBe("selling_plan");
    expect(attr(plan, "value")).toBe("77");
    expect(attr(plan, "form")).toBe("product-form-main");
    expect(attr(plan, "type")).toBe("hidden");
    expect(html).toContain("Roaster&#39;s &lt;Choice&gt; box");
    expect(html).toContain("Choose your box at least 4 days before your next delivery.");
  });

  it("offers a labelled radio group when the plan has several child plans, the first checked", async () => {
    const html = await renderBlock("bundle-plan", {
      metafields: {
        bundle_plan: bundle({
          selling_plans: [
            { selling_plan_id: "gid://shopify/SellingPlan/77", name: "Monthly" },
            { selling_plan_id: "gid://shopify/SellingPlan/78", name: "Every 2 months" },
          ],
        }),
      },
      settings: { form_id: "custom-form" },
    });
    const radios = inputs(html);
    expect(radios.map((r) => [attr(r, "type"), attr(r, "value"), attr(r, "form"), /\bchecked\b/.test(r)])).toEqual([
      ["radio", "77", "custom-form", true],
      ["radio", "78", "custom-form", false],
    ]);
    expect(html).toMatch(/<fieldset[^>]*>\s*<legend>Delivery schedule<\/legend>/);
    expect(html).toMatch(/<label>\s*<input[^>]*value="78"[^>]*>\s*Every 2 months\s*<\/label>/);
  });

  it("offers a build-a-box bundle's sizes as the _box_size line property, the first checked, escaped", async () => {
    const html = await renderBlock("bundle-plan", {
      metafields: {
        bundle_plan: bundle({
          box_sizes: [
            { label: "Small", min_items: 2, max_items: 2 },
            { label: "Big <& hungry>", min_items: 4, max_items: 6 },
          ],
        }),
      },
      sectionId: "main",
    });
    const sizes = inputs(html).filter((i) => attr(i, "name") === "properties[_box_size]");
    expect(sizes.map((r) => [attr(r, "type"), attr(r, "value"), attr(r, "form"), /\bchecked\b/.test(r)])).toEqual([
      ["radio", "Small", "product-form-main", true],
      ["radio", "Big &lt;&amp; hungry&gt;", "product-form-main", false],
    ]);
    expect(html).toMatch(/<legend>Box size<\/legend>/);
    expect(html).toMatch(/<input[^>]*value="Small"[^>]*>\s*Small: 2 items\s*<\/label>/);
    expect(html).toContain("Big &lt;&amp; hungry&gt;: 4 to 6 items");
    // Without sizes (a curated or regular bundle): no size field.
    expect(await renderBlock("bundle-plan", { metafields: { bundle_plan: bundle() } })).not.toContain("_box_size");
  });

  it("renders nothing without a metafield, or when the plan offers no selling plan (a cleared value)", async () => {
    expect((await renderBlock("bundle-plan", { metafields: {} })).trim()).toBe("");
    expect((await renderBlock("bundle-plan", { metafields: { bundle_plan: bundle({ selling_plan_id: null, selling_plans: [] }) } })).trim()).toBe("");
    expect((await renderBlock("bundle-plan", { metafields: { bundle_plan: JSON.stringify({ selling_plan_id: null }) } })).trim()).toBe("");
  });
});

describe("mix-match block", () => {
  it("carries the selling plan, the cart group and the limits for the script; one labelled checkbox per entry", async () => {
    const html = await renderBlock("mix-match", { metafields: { mix_match: mix() } });
    const root = /<div class="svc-mix-match"[^>]*>/.exec(html)![0];
    expect(attr(root, "data-selling-plan")).toBe("77");
    expect(attr(root, "data-group")).toBe("mm-coffee-trio");
    expect([attr(root, "data-min"), attr(root, "data-max")]).toEqual(["2", "3"]);
    expect(attr(root, "data-cart-add-url")).toBe("/cart/add");
    expect(attr(root, "data-selected-text")).toBe("[picked] of 3 selected");
    const boxes = inputs(html);
    expect(boxes.map((b) => [attr(b, "type"), attr(b, "value")])).toEqual([["checkbox", "501"]]);
    expect(html).toMatch(/<label>\s*<input[^>]*value="501"[^>]*>\s*Kenya \(250 g\)\s*<span class="svc-mix-match__price">\$18\.00<\/span>/);
    expect(html).not.toContain("<legend>Empty</legend>");
    expect(html).toContain('role="status"');
    expect(html).toContain("Pick 2 to 3 items.");
  });

  it("renders nothing when the plan offers no selling plan", async () => {
    expect((await renderBlock("mix-match", { metafields: { mix_match: mix({ selling_plan_id: null }) } })).trim()).toBe("");
  });

  it("translates: the French locale changes every sentence, the data stays", async () => {
    const html = await renderBlock("mix-match", { metafields: { mix_match: mix() }, locale: "fr" });
    expect(html).toContain("Choisissez de 2 à 3 articles.");
    expect(html).toContain("Ajouter la sélection au panier");
    expect(html).not.toContain("translation missing");
    expect(attr(/<div class="svc-mix-match"[^>]*>/.exec(html)![0], "data-selling-plan")).toBe("77");
  });
});
