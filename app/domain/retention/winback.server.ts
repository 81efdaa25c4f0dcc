// Win-back reads (/docs#tag/Admin-API:-Win-back; campaigns; send ledger with attribution outcome).
// The rows as Prisma reads them; the surface shapes them (app/surfaces/admin/wire.ts,
// docs/decisions/100-one-read-side.md).
import type { WinbackCampaign, WinbackSend } from "@prisma/client";
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { KEYSET_ORDER, afterWhere, toPage, type PageRequest, type PageResult } from "../shared/paging.server";

export async function listCampaigns(ctx: { shopId: string; page: PageRequest }): Promise<PageResult<WinbackCampaign>> {
  const rows = await prisma.winbackCampaign.findMany({
    where: { shopId: ctx.shopId, ...afterWhere(ctx.page.after) },
    orderBy: KEYSET_ORDER,
    take: ctx.page.limit + 1,
  });
  return toPage(rows, ctx.page.limit, (c) => c);
}

export async function listSends(ctx: { shopId: string; campaignId: string; page: PageRequest }): Promise<PageResult<WinbackSend>> {
  const campaign = await prisma.winbackCampaign.findFirst({ where: { id: ctx.campaignId, shopId: ctx.shopId }, select: { id: true } });
  if (!campaign) throw new ApiError("not_found", `No win-back campaign ${ctx.campaignId}`);
  const rows = await prisma.winbackSend.findMany({
    where: { campaignId: campaign.id, shopId: ctx.shopId, ...afterWhere(ctx.page.after) },
    orderBy: KEYSET_ORDER,
    take: ctx.page.limit + 1,
  });
  return toPage(rows, ctx.page.limit, (s) => s);
}
