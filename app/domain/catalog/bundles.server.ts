// Bundle reads (/docs#tag/Admin-API:-Bundles; Bundle = selling_plan_group_id; boxes with items per period).
// Typed views out; the surfaces shape them (app/surfaces/admin/wire.ts, docs/decisions/100-one-read-side.md).
import type { Bundle, BundleBox, BundleBoxItem, SellingPlanGroup } from "@prisma/client";
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { KEYSET_ORDER, afterWhere, toPage, type PageRequest, type PageResult } from "../shared/paging.server";

export interface BundleView {
  id: string;
  title: string;
  kind: Bundle["kind"];
  sellingPlanGroupGid: string;
  selectionCutoffDays: number;
  boxSizeMin: number | null;
  boxSizeMax: number | null;
  createdAt: Date;
}

export interface BoxItemView {
  variantGid: string;
  productTitle: string;
  variantTitle: string | null;
  imageUrl: string | null;
  /** Integer minor units (snapshot). */
  priceCents: number;
  quantity: number | null;
  position: number;
}

export interface BoxView {
  bundleId: string;
  /** YYYY-MM. */
  period: string;
  published: boolean;
  publishedAt: Date | null;
  /** In position order. */
  items: BoxItemView[];
}

export const DEFAULT_BOX_PERIODS = 24;

export function bundleView(b: Bundle & { group: Pick<SellingPlanGroup, "groupGid"> }): BundleView {
  return {
    id: b.id,
    title: b.title,
    kind: b.kind,
    sellingPlanGroupGid: b.group.groupGid,
    selectionCutoffDays: b.selectionCutoffDays,
    boxSizeMin: b.boxSizeMin,
    boxSizeMax: b.boxSizeMax,
    createdAt: b.createdAt,
  };
}

export async function listBundles(ctx: { shopId: string; page: PageRequest }): Promise<PageResult<BundleView>> {
  const rows = await prisma.bundle.findMany({
    where: { shopId: ctx.shopId, ...afterWhere(ctx.page.after) },
    include: { group: { select: { groupGid: true } } },
    orderBy: KEYSET_ORDER,
    take: ctx.page.limit + 1,
  });
  return toPage(rows, ctx.page.limit, bundleView);
}

function boxView(bundleId: string, b: BundleBox & { items: BundleBoxItem[] }): BoxView {
  return {
    bundleId,
    period: b.period,
    published: b.published,
    publishedAt: b.publishedAt,
    items: [...b.items]
      .sort((x, y) => x.position - y.position || x.id.localeCompare(y.id))
      .map((i) => ({
        variantGid: i.variantGid,
        productTitle: i.productTitle,
        variantTitle: i.variantTitle,
        imageUrl: i.imageUrl,
        priceCents: i.priceCents,
        quantity: i.quantity,
        position: i.position,
      })),
  };
}

/**
 * The bundle's boxes, newest period first: the one box of `period` (an empty list when that
 * month has none), or without a period the 24 most recent periods that have a box.
 */
export async function listBoxes(ctx: { shopId: string; bundleId: string; period?: string }): Promise<BoxView[]> {
  const bundle = await prisma.bundle.findFirst({ where: { id: ctx.bundleId, shopId: ctx.shopId }, select: { id: true } });
  if (!bundle) throw new ApiError("not_found", `No bundle ${ctx.bundleId}`);
  const boxes = await prisma.bundleBox.findMany({
    where: { bundleId: bundle.id, ...(ctx.period ? { period: ctx.period } : {}) },
    include: { items: true },
    orderBy: { period: "desc" },
    take: DEFAULT_BOX_PERIODS,
  });
  return boxes.map((b) => boxView(bundle.id, b));
}
