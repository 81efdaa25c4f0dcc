// Gift reads (/docs#tag/Admin-API:-Gifts). Names, e-mails and the message are protected
// customer data: null unless the key holds read:customers. The claim token is never returned at
// any scope (only its hash is stored, and it is never selected into a response).
import type { Gift } from "@prisma/client";
import { prisma } from "../../db.server";
import { iso } from "../shared/money.server";
import { KEYSET_ORDER, afterWhere, toPage, type PageRequest, type PageResult } from "../shared/paging.server";

export const GIFT_STATUSES = ["pending", "sent", "claimed", "expired", "ended"] as const;

export interface GiftFilters {
  status?: (typeof GIFT_STATUSES)[number];
}

export interface GiftJson {
  id: string;
  contract_id: string | null;
  kind: "prepaid" | "recurring";
  status: string;
  gifter_name: string | null;
  gifter_email: string | null;
  recipient_name: string | null;
  recipient_email: string | null;
  message: string | null;
  prepaid_charges: number | null;
  charges_run: number;
  send_at: string | null;
  sent_at: string | null;
  claimed_at: string | null;
  expires_at: string | null;
  created_at: string;
}

export function giftJson(g: Omit<Gift, "claimTokenHash"> & { contractGid: string | null }, canReadCustomers: boolean): GiftJson {
  const pii = <T>(v: T) => (canReadCustomers ? (v ?? null) : null);
  return {
    id: g.id,
    contract_id: g.contractGid,
    kind: g.kind === "PREPAID" ? "prepaid" : "recurring",
    status: g.status.toLowerCase(),
    gifter_name: pii(g.gifterName),
    gifter_email: pii(g.gifterEmail),
    recipient_name: pii(g.recipientName),
    recipient_email: pii(g.recipientEmail),
    message: pii(g.message),
    prepaid_charges: g.prepaidCharges,
    charges_run: g.chargesRun,
    send_at: iso(g.sendAt),
    sent_at: iso(g.sentAt),
    claimed_at: iso(g.claimedAt),
    expires_at: iso(g.expiresAt),
    created_at: g.createdAt.toISOString(),
  };
}

export async function listGifts(ctx: { shopId: string; canReadCustomers: boolean; filters: GiftFilters; page: PageRequest }): Promise<PageResult<GiftJson>> {
  const rows = await prisma.gift.findMany({
    where: {
      shopId: ctx.shopId,
      ...(ctx.filters.status ? { status: ctx.filters.status.toUpperCase() as Gift["status"] } : {}),
      ...afterWhere(ctx.page.after),
    },
    omit: { claimTokenHash: true },
    include: { contract: { select: { contractGid: true, createdByService: true } } },
    orderBy: KEYSET_ORDER,
    take: ctx.page.limit + 1,
  });
  return toPage(rows, ctx.page.limit, ({ contract, ...g }) =>
    giftJson({ ...g, contractGid: contract && contract.createdByService ? contract.contractGid : null }, ctx.canReadCustomers),
  );
}
