// The Storefront API (publishable key, browser-safe reads). Every resource returns the child
// selling_plan_id resolved live from the platform, closing the cart gap (spec 1 rule 10).
import { z } from "zod";
import { rowId } from "../../http/ids";
import { getMixMatchForStorefront } from "../../domain/mixmatch.server";
import { defineRoute, type AnyRoute } from "../../http/route";

const MixMatchStorefront = z.strictObject({
  id: z.string(),
  title: z.string(),
  selling_plan_group_id: z.string(),
  selling_plan_id: z.string().nullable().describe("Child selling plan a cart line must carry; null when the group has none on the platform"),
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
          price_cents: z.number().int(),
          position: z.number().int(),
        }),
      ),
    }),
  ),
});

export const storefrontRoutes: AnyRoute[] = [
  defineRoute({
    method: "GET",
    path: "/mix-match/:id",
    scopes: ["read:mixmatch"],
    params: z.object({ id: rowId }),
    summary: "A Mix & Match plan with its pickable catalogue and the selling_plan_id a cart line needs",
    tags: ["Mix & Match"],
    response: MixMatchStorefront,
    async handler(ctx) {
      return { body: await getMixMatchForStorefront({ shopId: ctx.shop.id, shopDomain: ctx.shop.domain, id: ctx.params.id }) };
    },
  }),
];
