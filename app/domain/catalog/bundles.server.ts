// Bundle reads (/docs#tag/Admin-API:-Bundles; Bundle = selling_plan_group_id; boxes with items per period).
import type { Bundle, BundleBox, BundleBoxItem, SellingPlanGroup } from "@prisma/client";
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { iso } from "../shared/money.server";
import { KEYSET_ORDER, afterWhere, toPage, type PageRequest, type PageResult } from "../shared/paging.server";

export interface BundleJson {
  id: string;
  title: string;
  kind: "curated" | "build_a_box" | "regular";
  selling_plan_group_id: string;
  selection_cutoff_days: number;
  box_size_min: number | null;
  box_size_max: number | null;
  created_at: string;
}

export interface BoxJson {
  bundle_id: string;
  period: string;
  published: boolean;
  published_at: string | null;
  items: Array<{
    variant_id: string;
    product_title: string;
    variant_title: string | null;
    image_url: string | null;
    price_cents: number;
    quantity: number | null;
    position: number;
  }>;
}

export const DEFAULT_BOX_PERIODS = 24;

export function bundleJson(b: Bundle & { group: Pick<SellingPlanGroup, "groupGid"> }): BundleJson {
  return {
    id: b.id,
    title: b.title,
    kind: b.kind === "CURATED" ? "curated" : b.kind === "BUILD_A_BOX" ? "build_a_box" : "regular",
    selling_plan_group_id: b.group.groupGid,
    selection_cutoff_days: b.selectionCutoffDays,
    box_size_min: b.boxSizeMin,
    box_size_max: b.boxSizeMax,
    created_at: b.createdAt.toISOString(),
  };
}

export async function listBundles(ctx: { shopId: string; page: PageRequest }): Promise<PageResult<BundleJson>> {
  const rows = await prisma.bundle.findMany({
    where: { shopId: ctx.shopId, ...afterWhere(ctx.page.after) },
    include: { group: { select: { groupGid: true } } },
    orderBy: KEYSET_ORDER,
    take: ctx.page.limit + 1,
  });
  return toPage(rows, ctx.page.limit, bundleJson);
}

export function boxJson(bundleId: string, b: BundleBox & { items: BundleBoxItem[] }): BoxJson {
  return {
    bundle_id: bundleId,
    period: b.period,
    published: b.published,
    published_at: iso(b.publishedAt),
    items: [...b.items]
      .sort((x, y) => x.position - y.position || x.id.localeCompare(y.id))
      .map((i) => ({
        variant_id: i.variantGid,
        product_title: i.productTitle,
        variant_title: i.variantTitle,
        image_url: i.imageUrl,
        price_cents: i.priceCents,
        quantity: i.quantity,
        position: i.position,
      })),
  };
}

/**
 * The bundle's boxes, newest period first: the one box of `period` (an empty list when that
 * month has none), or without a period the 24 most recent periods that have a box.
 */
export async function listBoxes(ctx: { shopId: string; bundleId: string; period?: string }): Promise<BoxJson[]> {
  const bundle = await prisma.bundle.findFirst({ where: { id: ctx.bundleId, shopId: ctx.shopId }, select: { id: true } });
  if (!bundle) throw new ApiError("not_found", `No bundle ${ctx.bundleId}`);
  const boxes = await prisma.bundleBox.findMany({
    where: { bundleId: bundle.id, ...(ctx.period ? { period: ctx.period } : {}) },
    include: { items: true },
    orderBy: { period: "desc" },
    take: DEFAULT_BOX_PERIODS,
  });
  return boxes.map((b) => boxJson(bundle.id, b));
}
