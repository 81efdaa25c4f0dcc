// The metafield definitions behind app.bundle_plan and app.mix_match: storefront access
// PUBLIC_READ, so a headless storefront reads them through Shopify's Storefront API (an app-owned
// metafield without it is invisible there; docs/decisions/123-storefront-metafield-definitions.md).
// Made on install and reinstall (the afterAuth hook) and before every storefront sync, so a
// definition that went missing, or exists with other access, is put right by the next sync.
import { platformFor } from "../../platform/index.server";
import type { MetafieldDefinitionSpec } from "../../platform/port";
import { STOREFRONT_METAFIELDS } from "./metafields";

export const STOREFRONT_METAFIELD_DEFINITIONS: readonly MetafieldDefinitionSpec[] = [
  {
    name: "Bundle plan",
    namespace: STOREFRONT_METAFIELDS.bundlePlan.namespace,
    key: STOREFRONT_METAFIELDS.bundlePlan.key,
    type: STOREFRONT_METAFIELDS.bundlePlan.type,
    ownerType: "PRODUCT",
    description: "The bundle this product is sold as, with the selling_plan_id a cart line carries (written by the app).",
    access: { storefront: "PUBLIC_READ" },
  },
  {
    name: "Mix & Match",
    namespace: STOREFRONT_METAFIELDS.mixMatch.namespace,
    key: STOREFRONT_METAFIELDS.mixMatch.key,
    type: STOREFRONT_METAFIELDS.mixMatch.type,
    ownerType: "PRODUCT",
    description: "The Mix & Match selection this product offers, with its selling_plan_id and cart_group_id (written by the app).",
    access: { storefront: "PUBLIC_READ" },
  },
];

/** Makes both definitions exist with storefront PUBLIC_READ; returns the namespace Shopify resolved `$app` to. */
export async function ensureStorefrontDefinitions(shopDomain: string): Promise<{ namespace: string; created: number }> {
  const port = await platformFor(shopDomain, "storefront_sync");
  let namespace = "";
  let created = 0;
  for (const d of STOREFRONT_METAFIELD_DEFINITIONS) {
    const r = await port.ensureMetafieldDefinition(d);
    namespace = r.namespace;
    if (r.created) created++;
  }
  return { namespace, created };
}
