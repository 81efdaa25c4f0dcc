// Mix & Match reads (docs/decisions/020-admin-api-read-shapes.md: full pickable catalogue, cart_group_id, price_cents snapshot).
// Typed views out; the surfaces shape them (app/surfaces/admin/wire.ts, docs/decisions/100-one-read-side.md).
import type { MixMatchPlan } from "@prisma/client";
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { KEYSET_ORDER, afterWhere, toPage, type PageRequest, type PageResult } from "../shared/paging.server";

export interface MixMatchView {
  id: string;
  title: string;
  sellingPlanGroupGid: string;
  cartGroupId: string;
  /** Snapshot refreshed on save; not a price promise (the live variant price wins at checkout). */
  priceCents: number;
  minItems: number;
  maxItems: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface MixMatchEntryView {
  variantGid: string;
  productTitle: string;
  variantTitle: string | null;
  imageUrl: string | null;
  priceCents: number;
  position: number;
}

export interface MixMatchCategoryView {
  id: string;
  title: string;
  position: number;
  /** In position order. */
  entries: MixMatchEntryView[];
}

export interface MixMatchDetailView extends MixMatchView {
  /** In position order. */
  categories: MixMatchCategoryView[];
}

function summary(p: MixMatchPlan & { group: { groupGid: string } }): MixMatchView {
  return {
    id: p.id,
    title: p.title,
    sellingPlanGroupGid: p.group.groupGid,
    cartGroupId: p.cartGroupId,
    priceCents: p.priceCents,
    minItems: p.minItems,
    maxItems: p.maxItems,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

export async function listMixMatch(ctx: { shopId: string; page: PageRequest }): Promise<PageResult<MixMatchView>> {
  const rows = await prisma.mixMatchPlan.findMany({
    where: { shopId: ctx.shopId, ...afterWhere(ctx.page.after) },
    include: { group: { select: { groupGid: true } } },
    orderBy: KEYSET_ORDER,
    take: ctx.page.limit + 1,
  });
  return toPage(rows, ctx.page.limit, summary);
}

const byPos = <T extends { position: number; id: string }>(a: T, b: T) => a.position - b.position || a.id.localeCompare(b.id);

export async function getMixMatch(ctx: { shopId: string; id: string }): Promise<MixMatchDetailView> {
  const p = await prisma.mixMatchPlan.findFirst({
    where: { id: ctx.id, shopId: ctx.shopId },
    include: { group: { select: { groupGid: true } }, categories: { include: { entries: true } } },
  });
  if (!p) throw new ApiError("not_found", `No Mix & Match plan ${ctx.id}`);
  return {
    ...summary(p),
    categories: [...p.categories].sort(byPos).map((c) => ({
      id: c.id,
      title: c.title,
      position: c.position,
      entries: [...c.entries].sort(byPos).map((e) => ({
        variantGid: e.variantGid,
        productTitle: e.productTitle,
        variantTitle: e.variantTitle,
        imageUrl: e.imageUrl,
        priceCents: e.priceCents,
        position: e.position,
      })),
    })),
  };
}
