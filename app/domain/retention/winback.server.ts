// Win-back reads (/docs#tag/Admin-API:-Win-back; campaigns with their results; send ledger with attribution outcome).
// The rows as Prisma reads them; the surface shapes them (app/surfaces/admin/wire.ts,
// docs/decisions/100-one-read-side.md).
import type { WinbackCampaign, WinbackSend } from "@prisma/client";
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { KEYSET_ORDER, afterWhere, toPage, type PageRequest, type PageResult } from "../shared/paging.server";
import { resultsOfCampaigns, type CampaignResults } from "./winback-attribution.server";

export type CampaignWithResults = WinbackCampaign & { results: CampaignResults };

export async function listCampaigns(ctx: { shopId: string; page: PageRequest }): Promise<PageResult<CampaignWithResults>> {
  const rows = await prisma.winbackCampaign.findMany({
    where: { shopId: ctx.shopId, ...afterWhere(ctx.page.after) },
    orderBy: KEYSET_ORDER,
    take: ctx.page.limit + 1,
  });
  const results = await resultsOfCampaigns(
    ctx.shopId,
    rows.slice(0, ctx.page.limit).map((r) => r.id),
  );
  return toPage(
    rows.map((r) => ({ ...r, results: results.get(r.id)! })),
    ctx.page.limit,
    (c) => c,
  );
}

export async function listSends(ctx: { shopId: string; campaignId: string; page: PageRequest }): Promise<PageResult<WinbackSend>> {
  const campaign = await prisma.winbackCampaign.findFirst({ where: { id: ctx.campaignId, shopId: ctx.shopId }, select: { id: true } });
  if (!campaign) throw new ApiError("not_found", `No win-back campaign ${ctx.campaignId}`);
  const rows = await prisma.winbackSend.findMany({
    // The send ledger: customers sent to. The hold-out is counted in the campaign's results.
    where: { campaignId: campaign.id, shopId: ctx.shopId, heldOut: false, ...afterWhere(ctx.page.after) },
    orderBy: KEYSET_ORDER,
    take: ctx.page.limit + 1,
  });
  return toPage(rows, ctx.page.limit, (s) => s);
}
