// Win-back reads (/docs#tag/Admin-API:-Win-back; campaigns; send ledger with attribution outcome).
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { iso, money, type Money } from "../shared/money.server";
import { KEYSET_ORDER, afterWhere, toPage, type PageRequest, type PageResult } from "../shared/paging.server";

export interface CampaignJson {
  id: string;
  name: string;
  status: string;
  offer_label: string;
  discount_percent: number | null;
  delay_days: number;
  created_at: string;
}

export interface SendJson {
  id: string;
  campaign_id: string;
  contract_id: string;
  customer_id: string;
  sent_at: string;
  reactivated: boolean;
  reactivated_at: string | null;
  recovered_amount: Money;
  created_at: string;
}

export async function listCampaigns(ctx: { shopId: string; page: PageRequest }): Promise<PageResult<CampaignJson>> {
  const rows = await prisma.winbackCampaign.findMany({
    where: { shopId: ctx.shopId, ...afterWhere(ctx.page.after) },
    orderBy: KEYSET_ORDER,
    take: ctx.page.limit + 1,
  });
  return toPage(rows, ctx.page.limit, (c) => ({
    id: c.id,
    name: c.name,
    status: c.status,
    offer_label: c.offerLabel,
    discount_percent: c.discountPercent,
    delay_days: c.delayDays,
    created_at: c.createdAt.toISOString(),
  }));
}

export async function listSends(ctx: { shopId: string; campaignId: string; page: PageRequest }): Promise<PageResult<SendJson>> {
  const campaign = await prisma.winbackCampaign.findFirst({ where: { id: ctx.campaignId, shopId: ctx.shopId }, select: { id: true } });
  if (!campaign) throw new ApiError("not_found", `No win-back campaign ${ctx.campaignId}`);
  const rows = await prisma.winbackSend.findMany({
    where: { campaignId: campaign.id, shopId: ctx.shopId, ...afterWhere(ctx.page.after) },
    orderBy: KEYSET_ORDER,
    take: ctx.page.limit + 1,
  });
  return toPage(rows, ctx.page.limit, (s) => ({
    id: s.id,
    campaign_id: s.campaignId,
    contract_id: s.contractGid,
    customer_id: s.customerGid,
    sent_at: s.sentAt.toISOString(),
    reactivated: s.reactivated,
    reactivated_at: iso(s.reactivatedAt),
    recovered_amount: money(s.recoveredAmountCents, s.currencyCode)!,
    created_at: s.createdAt.toISOString(),
  }));
}
