// Mix & Match reads (docs/decisions/020-admin-api-read-shapes.md: full pickable catalogue, cart_group_id, price_cents snapshot).
import type { MixMatchPlan } from "@prisma/client";
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { KEYSET_ORDER, afterWhere, toPage, type PageRequest, type PageResult } from "../shared/paging.server";

export interface MixMatchJson {
  id: string;
  title: string;
  selling_plan_group_id: string;
  cart_group_id: string;
  /** Snapshot refreshed on save; not a price promise (the live variant price wins at checkout). */
  price_cents: number;
  min_items: number;
  max_items: number;
  created_at: string;
  updated_at: string;
}

export interface MixMatchDetailJson extends MixMatchJson {
  categories: Array<{
    id: string;
    title: string;
    position: number;
    entries: Array<{
      variant_id: string;
      product_title: string;
      variant_title: string | null;
      image_url: string | null;
      price_cents: number;
      position: number;
    }>;
  }>;
}

function summary(p: MixMatchPlan & { group: { groupGid: string } }): MixMatchJson {
  return {
    id: p.id,
    title: p.title,
    selling_plan_group_id: p.group.groupGid,
    cart_group_id: p.cartGroupId,
    price_cents: p.priceCents,
    min_items: p.minItems,
    max_items: p.maxItems,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

export async function listMixMatch(ctx: { shopId: string; page: PageRequest }): Promise<PageResult<MixMatchJson>> {
  const rows = await prisma.mixMatchPlan.findMany({
    where: { shopId: ctx.shopId, ...afterWhere(ctx.page.after) },
    include: { group: { select: { groupGid: true } } },
    orderBy: KEYSET_ORDER,
    take: ctx.page.limit + 1,
  });
  return toPage(rows, ctx.page.limit, summary);
}

const byPos = <T extends { position: number; id: string }>(a: T, b: T) => a.position - b.position || a.id.localeCompare(b.id);

export async function getMixMatch(ctx: { shopId: string; id: string }): Promise<MixMatchDetailJson> {
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
        variant_id: e.variantGid,
        product_title: e.productTitle,
        variant_title: e.variantTitle,
        image_url: e.imageUrl,
        price_cents: e.priceCents,
        position: e.position,
      })),
    })),
  };
}
