// Storefront API reads (docs/decisions/065-storefront-api.md): browser-safe views of plans,
// bundles and Mix & Match, each with the child selling_plan_id resolved live at the platform,
// and a live price preview for a Mix & Match selection (the live variant price wins; the
// price_cents snapshot is not a promise). Speaks domain: ids are gids, options are typed.
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { bundleView, type BundleView } from "../catalog/bundles.server";
import { getMixMatch, type MixMatchDetailView } from "../catalog/mixmatch.server";
import { formatMinor, parseDecimalToMinor, type Money } from "../shared/money.server";
import { planJson } from "../catalog/selling-plans.server";
import { livePlatform, resolveGroupsLive, sellingPlanFields, type LiveGroup } from "../catalog/selling-plans-live.server";

interface ShopRef {
  shopId: string;
  shopDomain: string;
}

/** The plans (selling plan groups of this app, active) a product can be bought on, live. */
export async function productPlans(ctx: ShopRef & { productGid: string }) {
  const product = await livePlatform(ctx.shopDomain, (port) => port.productSellingPlanGroups(ctx.productGid));
  if (!product) throw new ApiError("not_found", `No product ${ctx.productGid}`);
  const live = new Map(product.groups.map((g) => [g.groupId, g]));
  // Groups another app owns are not in the mirror and stay invisible (docs/decisions/065-storefront-api.md).
  const rows = await prisma.sellingPlanGroup.findMany({
    where: { shopId: ctx.shopId, status: "ACTIVE", groupGid: { in: [...live.keys()] } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return {
    product_id: product.productId,
    data: rows.map((g) => {
      const { created_at: _c, updated_at: _u, status: _s, ...plan } = planJson(g);
      const plans = live.get(g.groupGid)!.sellingPlans;
      return { ...plan, ...sellingPlanFields({ groupGid: g.groupGid, sellingPlans: plans, variantIds: [] }) };
    }),
    next_cursor: null,
  };
}

/** One bundle and its group as the platform has it now (the live selling_plan_id; the surface shapes both). */
export async function storefrontBundle(ctx: ShopRef & { id: string }): Promise<{ bundle: BundleView; live: LiveGroup | undefined }> {
  const b = await prisma.bundle.findFirst({ where: { id: ctx.id, shopId: ctx.shopId }, include: { group: { select: { groupGid: true } } } });
  if (!b) throw new ApiError("not_found", `No bundle ${ctx.id}`);
  const live = await resolveGroupsLive(ctx.shopDomain, [b.group.groupGid]);
  return { bundle: bundleView(b), live: live.get(b.group.groupGid) };
}

/** The Mix & Match catalogue and its group as the platform has it now (the live selling_plan_id a cart line must carry). */
export async function storefrontMixMatch(ctx: ShopRef & { id: string }): Promise<{ plan: MixMatchDetailView; live: LiveGroup | undefined }> {
  const plan = await getMixMatch(ctx);
  const live = await resolveGroupsLive(ctx.shopDomain, [plan.sellingPlanGroupGid]);
  return { plan, live: live.get(plan.sellingPlanGroupGid) };
}

export interface PreviewLine {
  variant_id: string;
  quantity: number;
  available: boolean;
  /** Live unit price; null when the platform no longer has the variant. */
  unit_price: Money | null;
  /** The catalogue's snapshot, for comparison only. */
  snapshot_price_cents: number;
}

/**
 * Prices a selection (variant gids, a repeat is one more of the same) at the live variant
 * prices. A variant outside the catalogue or more picks than max_items is 400; fewer than
 * min_items is priced, with selection_complete false (a picker shows a running total).
 */
export async function previewMixMatch(ctx: ShopRef & { id: string; variantGids: string[] }) {
  const plan = await getMixMatch(ctx);
  const entries = new Map(plan.categories.flatMap((c) => c.entries.map((e) => [e.variantGid, e])));
  for (const v of ctx.variantGids) {
    if (!entries.has(v)) throw new ApiError("invalid_request", `query.variant_ids: ${v} is not in this Mix & Match catalogue`);
  }
  if (ctx.variantGids.length > plan.maxItems) {
    throw new ApiError("invalid_request", `query.variant_ids: ${ctx.variantGids.length} picks, at most ${plan.maxItems} allowed`);
  }
  const counts = new Map<string, number>();
  for (const v of ctx.variantGids) counts.set(v, (counts.get(v) ?? 0) + 1);

  const { shop, variants, group } = await livePlatform(ctx.shopDomain, async (port) => ({
    shop: await port.getShop(),
    variants: await port.getVariants([...counts.keys()]),
    group: await port.resolveSellingPlans(plan.sellingPlanGroupGid),
  }));
  const currency = shop.currencyCode;
  const byId = new Map(variants.map((v) => [v.id, v]));
  let subtotal = 0;
  const lines: PreviewLine[] = [...counts].map(([variantGid, quantity]) => {
    const v = byId.get(variantGid);
    const unit = v ? parseDecimalToMinor(v.price, currency) : null;
    if (unit !== null) subtotal += unit * quantity;
    return {
      variant_id: variantGid,
      quantity,
      available: v?.available ?? false,
      unit_price: unit === null ? null : { amount: formatMinor(unit, currency), currency_code: currency },
      snapshot_price_cents: entries.get(variantGid)!.priceCents,
    };
  });
  const complete = ctx.variantGids.length >= plan.minItems && ctx.variantGids.length <= plan.maxItems;
  const plans = sellingPlanFields(group ? { groupGid: group.groupId, sellingPlans: group.sellingPlans, variantIds: group.variantIds } : undefined);
  return {
    mix_match_id: plan.id,
    selling_plan_id: plans.selling_plan_id,
    cart_group_id: plan.cartGroupId,
    min_items: plan.minItems,
    max_items: plan.maxItems,
    items: ctx.variantGids.length,
    selection_complete: complete,
    purchasable: complete && plans.selling_plan_id !== null && lines.every((l) => l.available && l.unit_price !== null),
    lines,
    subtotal: { amount: formatMinor(subtotal, currency), currency_code: currency },
    discount: {
      label:
        (await prisma.sellingPlanGroup.findFirst({ where: { shopId: ctx.shopId, groupGid: plan.sellingPlanGroupGid }, select: { discountLabel: true } }))
          ?.discountLabel ?? "",
    },
    snapshot_price_cents: plan.priceCents,
  };
}
