// The app-owned product metafields the theme app extension reads (extensions/subscriptions-theme).
// Namespace "$app" makes them writable only by this app and public-read on the storefront; both
// carry the resolved child selling_plan_id a cart line needs (the cart gap: docs/decisions/066-storefront-metafields.md).
// The value shapes below are the contract between the app (storefront-sync.server.ts writes
// them) and the Liquid blocks (which read them); docs/decisions/066-storefront-metafields.md.
// No server imports: the theme tests build and render these values too.
export const STOREFRONT_METAFIELDS = {
  bundlePlan: { namespace: "$app", key: "bundle_plan", type: "json" },
  mixMatch: { namespace: "$app", key: "mix_match", type: "json" },
} as const;

export type StorefrontMetafieldKey = (typeof STOREFRONT_METAFIELDS)[keyof typeof STOREFRONT_METAFIELDS]["key"];

export interface SellingPlanOption {
  selling_plan_id: string;
  name: string;
}

/** app.bundle_plan: the bundle the product is sold as. */
export interface BundlePlanValue {
  bundle_id: string;
  title: string;
  selling_plan_group_id: string;
  /** The child plan a cart line carries (the group's first); null: not sold on a plan right now. */
  selling_plan_id: string | null;
  selling_plans: SellingPlanOption[];
  selection_cutoff_days: number;
  /**
   * Build-a-box: the sizes sold. The block sends the one chosen as the `_box_size` line property,
   * which the contract keeps and picks are held to (docs/decisions/167-box-size-on-the-line.md).
   */
  box_sizes: Array<{ label: string; min_items: number; max_items: number }>;
}

/** app.mix_match: the Mix & Match selection the product page offers. */
export interface MixMatchValue {
  mix_match_id: string;
  title: string;
  selling_plan_group_id: string;
  selling_plan_id: string | null;
  /** Every line of one selection carries this as the _rc_mm_group line property. */
  cart_group_id: string;
  min_items: number;
  max_items: number;
  /** Snapshot refreshed on save; the live variant price wins at checkout. */
  price_cents: number;
  categories: Array<{
    title: string;
    entries: Array<{ variant_id: string; product_title: string; variant_title: string | null; price_cents: number }>;
  }>;
}

/** The number Shopify's cart endpoints take for a selling plan or variant gid. */
export const numericId = (gid: string): string => gid.slice(gid.lastIndexOf("/") + 1);
