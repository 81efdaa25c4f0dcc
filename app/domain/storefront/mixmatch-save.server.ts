// Saving a Mix & Match plan from the editor (docs/decisions/107-mix-match-editor.md): the catalogue
// write, then the app.mix_match metafields rewritten at once, so the theme block shows the new
// entries without waiting for the nightly repair. Here rather than in catalog/ because the storefront
// room already depends on the catalog room, never the other way (app/domain/README.md).
import { saveMixMatch, type MixMatchResult } from "../catalog/mixmatch-builder.server";
import type { BundleContext } from "../catalog/bundle-builder.server";
import type { ShopifyPort } from "../../platform/index.server";
import { syncStorefrontMetafields } from "./sync.server";

export async function saveMixMatchForStorefront(ctx: BundleContext, id: string | null, input: unknown, port?: ShopifyPort): Promise<MixMatchResult> {
  const r = await saveMixMatch(ctx, id, input, port);
  if (r.ok) await syncStorefrontMetafields(ctx.shopDomain);
  return r;
}
