// Control routes (/_sim/...) for what a headless storefront and the shop's Shopify plan need:
// a storefront access token, the metafield definitions as stored, and the store moving to
// another Shopify plan (docs/simulator.md). Kept beside control.ts; handleControl asks these first.
import { z } from "zod";
import type { SimCore } from "./core";
import type { ShopState } from "./state";
import { mintStorefrontAccessToken } from "./storefront-api";

export type ExtraHandler = (core: SimCore, shop: ShopState, body: unknown) => unknown;

const ShopPlanPatchBody = z.object({ displayName: z.string().min(1).optional(), partnerDevelopment: z.boolean().optional() }).strict();

export const STOREFRONT_CONTROL_ROUTES: [string, RegExp, ExtraHandler][] = [
  [
    // The merchant changes the store's Shopify plan (a development store moving to a paid plan).
    // Shopify sends this app no webhook for it: the app learns it by reading shop.plan.
    "PATCH",
    /^\/_sim\/shops\/([^/]+)\/plan$/,
    (core, shop, body) => {
      Object.assign(shop.plan, ShopPlanPatchBody.parse(body ?? {}));
      core.changed();
      return shop.plan;
    },
  ],
  ["GET", /^\/_sim\/shops\/([^/]+)\/metafield-definitions$/, (_core, shop) => Object.values(shop.metafieldDefinitions ?? {})],
  [
    // What the merchant's Headless channel hands a headless storefront (simulator/storefront-api.ts).
    "POST",
    /^\/_sim\/shops\/([^/]+)\/storefront-access-tokens$/,
    (core, shop) => {
      const accessToken = mintStorefrontAccessToken(shop, core.now());
      core.changed();
      return { accessToken };
    },
  ],
];
