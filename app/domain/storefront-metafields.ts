// The app-owned product metafields the theme app extension reads (extensions/subscriptions-theme).
// Namespace "$app" makes them writable only by this app and public-read on the storefront; both
// carry the resolved child selling_plan_id a cart line needs (spec 1 rule 10, the cart gap).
export const STOREFRONT_METAFIELDS = {
  /** JSON: { selling_plan_id, selling_plan_group_id, title, selection_cutoff_days } */
  bundlePlan: { namespace: "$app", key: "bundle_plan", type: "json" },
  /** JSON: { selling_plan_id, selling_plan_group_id, cart_group_id, min_items, max_items, categories: [{ title, entries: [{ variant_id, title, price_cents }] }] } */
  mixMatch: { namespace: "$app", key: "mix_match", type: "json" },
} as const;
