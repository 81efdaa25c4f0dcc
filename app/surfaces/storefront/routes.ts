// The Storefront API (publishable key, browser-safe reads; docs/decisions/065-storefront-api.md).
// Every resource returns the child selling_plan_id resolved live at the platform, closing the
// cart gap (docs/decisions/065-storefront-api.md). Success answers are cacheable for a short time
// (STOREFRONT_SURFACE.cacheMaxAgeSeconds, Vary: Origin, Authorization); errors are not.
import { z } from "zod";
import { previewMixMatch, productPlans, storefrontBundle, storefrontMixMatch } from "../../domain/storefront/reads.server";
import { sellingPlanFields, type LiveGroup } from "../../domain/catalog/selling-plans-live.server";
import type { BundleView } from "../../domain/catalog/bundles.server";
import type { MixMatchDetailView } from "../../domain/catalog/mixmatch.server";
import { defineRoute } from "../../http/route";
import { bundleJson as adminBundleJson, mixMatchDetailJson, planJson } from "../admin/wire";
import { ScheduleObject, storefrontSchedulePreviewRoutes } from "../schedule-preview";

const gidOrNumber = (type: string) =>
  z
    .string()
    .regex(new RegExp(`^(gid://shopify/${type}/)?[1-9][0-9]{0,19}$`), `must be gid://shopify/${type}/<number> or the number alone`)
    .transform((v) => (v.startsWith("gid://") ? v : `gid://shopify/${type}/${v}`));

const SellingPlanFields = {
  selling_plan_id: z
    .string()
    .nullable()
    .describe("Child selling plan a cart line must carry (the group's first), resolved live; null when the group offers none at the platform right now"),
  selling_plans: z
    .array(z.strictObject({ selling_plan_id: z.string(), name: z.string() }))
    .describe("Every child plan of the group at the platform, in the platform's order"),
};

const Money = z.strictObject({ amount: z.string().describe("Decimal string in the shop currency"), currency_code: z.string() });

const Schedule = ScheduleObject.describe("{ mode: rolling } or every anchored field (as on the Admin API's Plan)");

const ProductPlans = z.strictObject({
  product_id: z.string(),
  data: z.array(
    z.strictObject({
      selling_plan_group_id: z.string(),
      name: z.string(),
      cadence: z.strictObject({ label: z.string(), interval: z.string(), interval_count: z.number().int() }),
      billing: z.strictObject({ label: z.string() }),
      discount: z.strictObject({ label: z.string() }),
      giftable: z.boolean(),
      schedule: Schedule,
      ...SellingPlanFields,
    }),
  ),
  next_cursor: z.null().describe("Always null: every plan of the product is on one page"),
});

const BundleStorefront = z.strictObject({
  id: z.string(),
  title: z.string(),
  kind: z.enum(["curated", "build_a_box", "regular"]),
  selling_plan_group_id: z.string(),
  selection_cutoff_days: z.number().int().describe("Days before a charge date after which the period's box can no longer be picked"),
  box_size_min: z.number().int().nullable(),
  box_size_max: z.number().int().nullable(),
  ...SellingPlanFields,
});

const MixMatchStorefront = z.strictObject({
  id: z.string(),
  title: z.string(),
  selling_plan_group_id: z.string(),
  cart_group_id: z.string().describe("Value every line of one selection carries as the _rc_mm_group line property"),
  price_cents: z.number().int().describe("Snapshot refreshed on save; the live variant price wins at checkout"),
  min_items: z.number().int(),
  max_items: z.number().int(),
  categories: z.array(
    z.strictObject({
      id: z.string(),
      title: z.string(),
      position: z.number().int(),
      entries: z.array(
        z.strictObject({
          variant_id: z.string(),
          product_title: z.string(),
          variant_title: z.string().nullable(),
          image_url: z.string().nullable(),
          price_cents: z.number().int().describe("Snapshot; see GET /mix-match/{id}/price-preview for the live price"),
          position: z.number().int(),
        }),
      ),
    }),
  ),
  ...SellingPlanFields,
});

/** The Admin API's bundle without its timestamps, with the child selling plan resolved live. */
const bundleJson = ({ bundle, live }: { bundle: BundleView; live: LiveGroup | undefined }): z.input<typeof BundleStorefront> => {
  const { created_at: _c, ...b } = adminBundleJson(bundle);
  return { ...b, ...sellingPlanFields(live) };
};

/** The Admin API's catalogue without its timestamps, with the child selling plan resolved live. */
const mixMatchJson = ({ plan, live }: { plan: MixMatchDetailView; live: LiveGroup | undefined }): z.input<typeof MixMatchStorefront> => {
  const { created_at: _c, updated_at: _u, ...p } = mixMatchDetailJson(plan);
  return { ...p, ...sellingPlanFields(live) };
};

const PricePreview = z.strictObject({
  mix_match_id: z.string(),
  selling_plan_id: SellingPlanFields.selling_plan_id,
  cart_group_id: z.string(),
  min_items: z.number().int(),
  max_items: z.number().int(),
  items: z.number().int().describe("Picks in the selection (a repeated variant counts each time)"),
  selection_complete: z.boolean().describe("min_items <= items <= max_items"),
  purchasable: z.boolean().describe("Complete, on a live selling plan, every variant available"),
  lines: z.array(
    z.strictObject({
      variant_id: z.string(),
      quantity: z.number().int(),
      available: z.boolean(),
      unit_price: Money.nullable().describe("Live variant price; null when the platform no longer has the variant"),
      snapshot_price_cents: z.number().int(),
    }),
  ),
  subtotal: Money.describe("Sum of live unit prices times quantities, before the plan's discount (checkout applies it)"),
  discount: z.strictObject({ label: z.string() }),
  snapshot_price_cents: z.number().int().describe("The catalogue's saved snapshot, for comparison; not a promise"),
});

const id = z.strictObject({ id: z.string().min(1).max(64) });
const noQuery = z.strictObject({});

export const storefrontRoutes = [
  defineRoute({
    method: "GET",
    path: "/products/:product_id/plans",
    scopes: ["read:plans"],
    params: z.strictObject({
      product_id: gidOrNumber("Product").describe("gid://shopify/Product/<number> (percent-encoded) or the number alone, as Liquid's product.id"),
    }),
    query: noQuery,
    summary: "The plans a product can be bought on, each with its selling_plan_id resolved live",
    description:
      "Asks the platform which of this app's active plans the product is sold on. Plans of other apps are not listed. " +
      "Put selling_plan_id's number into the cart line's selling_plan.",
    tags: ["Plans"],
    errorCodes: ["not_found", "platform_unavailable"],
    response: ProductPlans,
    handler: async (ctx) => {
      const { productId, groups } = await productPlans({ shopId: ctx.shop.id, shopDomain: ctx.shop.domain, productGid: ctx.params.product_id });
      const data = groups.map(({ group, live }) => {
        const { created_at: _c, updated_at: _u, status: _s, ...plan } = planJson(group);
        return { ...plan, ...sellingPlanFields(live) };
      });
      return { body: { product_id: productId, data, next_cursor: null } };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/bundles/:id",
    scopes: ["read:bundles"],
    params: id,
    query: noQuery,
    summary: "A bundle with selection_cutoff_days and its selling_plan_id resolved live",
    tags: ["Bundles"],
    errorCodes: ["not_found", "platform_unavailable"],
    response: BundleStorefront,
    handler: async (ctx) => ({ body: bundleJson(await storefrontBundle({ shopId: ctx.shop.id, shopDomain: ctx.shop.domain, id: ctx.params.id })) }),
  }),
  defineRoute({
    method: "GET",
    path: "/mix-match/:id",
    scopes: ["read:mixmatch"],
    params: id,
    query: noQuery,
    summary: "A Mix & Match plan with its pickable catalogue, cart_group_id and selling_plan_id resolved live",
    tags: ["Mix & Match"],
    errorCodes: ["not_found", "platform_unavailable"],
    response: MixMatchStorefront,
    handler: async (ctx) => ({ body: mixMatchJson(await storefrontMixMatch({ shopId: ctx.shop.id, shopDomain: ctx.shop.domain, id: ctx.params.id })) }),
  }),
  defineRoute({
    method: "GET",
    path: "/mix-match/:id/price-preview",
    scopes: ["read:mixmatch"],
    params: id,
    query: z.object({
      variant_ids: z
        .string()
        .min(1)
        .describe("Comma-separated picks (gids or numbers); a repeated variant is one more of it. At most max_items.")
        .transform((s, c) => {
          const parts = s.split(",").map((p) => p.trim());
          const parsed = parts.map((p) => gidOrNumber("ProductVariant").safeParse(p));
          const bad = parsed.findIndex((r) => !r.success);
          if (bad >= 0) {
            c.addIssue({ code: "custom", message: `"${parts[bad]}" is not a variant id` });
            return z.NEVER;
          }
          return parsed.map((r) => r.data as string);
        }),
    }),
    summary: "Live price of a Mix & Match selection (the live variant price wins over the snapshot)",
    tags: ["Mix & Match"],
    errorCodes: ["not_found", "platform_unavailable"],
    response: PricePreview,
    handler: async (ctx) => ({
      body: await previewMixMatch({ shopId: ctx.shop.id, shopDomain: ctx.shop.domain, id: ctx.params.id, variantGids: ctx.query.variant_ids }),
    }),
  }),
  ...storefrontSchedulePreviewRoutes,
];
