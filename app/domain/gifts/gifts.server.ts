// Gift reads (/docs#tag/Admin-API:-Gifts). Names, e-mails and the message are protected
// customer data: null unless the key holds read:customers. The claim token is never returned at
// any scope (only its hash is stored, and it is never selected into a response). Typed views
// out; the surface shapes them (app/surfaces/admin/wire.ts, docs/decisions/100-one-read-side.md).
import type { Gift } from "@prisma/client";
import { prisma } from "../../db.server";
import { KEYSET_ORDER, afterWhere, toPage, type PageRequest, type PageResult } from "../shared/paging.server";

export const GIFT_STATUSES = ["pending", "sent", "claimed", "expired", "ended"] as const;

export interface GiftFilters {
  status?: (typeof GIFT_STATUSES)[number];
}

/** A gift as the Admin API may see it: the protected customer data is null without read:customers. */
export interface GiftView {
  id: string;
  /** The contract's gid when the service created it; null otherwise. */
  contractGid: string | null;
  kind: Gift["kind"];
  status: Gift["status"];
  gifterName: string | null;
  gifterEmail: string | null;
  recipientName: string | null;
  recipientEmail: string | null;
  message: string | null;
  prepaidCharges: number | null;
  chargesRun: number;
  sendAt: Date | null;
  sentAt: Date | null;
  claimedAt: Date | null;
  expiresAt: Date | null;
  createdAt: Date;
}

export function giftView(g: Omit<Gift, "claimTokenHash"> & { contractGid: string | null }, canReadCustomers: boolean): GiftView {
  const pii = <T>(v: T) => (canReadCustomers ? (v ?? null) : null);
  return {
    id: g.id,
    contractGid: g.contractGid,
    kind: g.kind,
    status: g.status,
    gifterName: pii(g.gifterName),
    gifterEmail: pii(g.gifterEmail),
    recipientName: pii(g.recipientName),
    recipientEmail: pii(g.recipientEmail),
    message: pii(g.message),
    prepaidCharges: g.prepaidCharges,
    chargesRun: g.chargesRun,
    sendAt: g.sendAt,
    sentAt: g.sentAt,
    claimedAt: g.claimedAt,
    expiresAt: g.expiresAt,
    createdAt: g.createdAt,
  };
}

export async function listGifts(ctx: { shopId: string; canReadCustomers: boolean; filters: GiftFilters; page: PageRequest }): Promise<PageResult<GiftView>> {
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
    giftView({ ...g, contractGid: contract && contract.createdByService ? contract.contractGid : null }, ctx.canReadCustomers),
  );
}
