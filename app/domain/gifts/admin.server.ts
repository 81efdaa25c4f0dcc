// The Gifts page's reads (app/routes/app.gifts.tsx): every gift of the shop with its status and
// timeline (purchased, sent, delivered or bounced, claimed, expired, ended). The merchant sees the
// recipient and the gifter (the embedded admin is the shop's own staff); the claim token's hash is
// never selected. Delivery is the claim e-mail's outbox row (docs/email.md: sent is not delivered).
import type { GiftStatus } from "@prisma/client";
import { prisma } from "../../db.server";

export const GIFT_PAGE_LIMIT = 100;

export interface GiftTimelineStep {
  label: "Purchased" | "Sent" | "Delivered" | "Bounced" | "Claimed" | "Expired" | "Ended";
  at: Date;
}

export interface GiftRow {
  id: string;
  status: GiftStatus;
  kind: "PREPAID" | "RECURRING";
  productTitle: string | null;
  contractNumber: string | null;
  recipientName: string | null;
  recipientEmail: string | null;
  gifterName: string | null;
  bounced: boolean;
  /** "paused" or "ship_to_gifter" once expired. */
  expiryAction: string | null;
  prepaidCharges: number | null;
  chargesRun: number;
  sendAt: Date | null;
  timeline: GiftTimelineStep[];
}

export async function giftRows(shopId: string, status: GiftStatus | null): Promise<GiftRow[]> {
  const gifts = await prisma.gift.findMany({
    where: { shopId, ...(status ? { status } : {}) },
    omit: { claimTokenHash: true },
    include: { contract: { select: { contractGid: true, productTitle: true } } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: GIFT_PAGE_LIMIT,
  });
  const mailIds = gifts.map((g) => g.claimMailId).filter((id): id is string => id !== null);
  const mails = await prisma.notificationLogEntry.findMany({
    where: { shopId, id: { in: mailIds } },
    select: { id: true, deliveredAt: true, bouncedAt: true },
  });
  const mailById = new Map(mails.map((m) => [m.id, m]));
  return gifts.map((g) => {
    const mail = g.claimMailId ? mailById.get(g.claimMailId) : undefined;
    const steps: (GiftTimelineStep | null)[] = [
      { label: "Purchased", at: g.createdAt },
      g.sentAt ? { label: "Sent", at: g.sentAt } : null,
      mail?.deliveredAt ? { label: "Delivered", at: mail.deliveredAt } : null,
      mail?.bouncedAt || g.bouncedAt ? { label: "Bounced", at: (mail?.bouncedAt ?? g.bouncedAt)! } : null,
      g.claimedAt ? { label: "Claimed", at: g.claimedAt } : null,
      g.status === "EXPIRED" && g.expiresAt ? { label: "Expired", at: g.expiresAt } : null,
      g.endedAt ? { label: "Ended", at: g.endedAt } : null,
    ];
    return {
      id: g.id,
      status: g.status,
      kind: g.kind,
      productTitle: g.contract?.productTitle ?? null,
      contractNumber: g.contract?.contractGid.split("/").pop() ?? null,
      recipientName: g.recipientName,
      recipientEmail: g.recipientEmail,
      gifterName: g.gifterName,
      bounced: g.status === "SENT" && (!!g.bouncedAt || !!mail?.bouncedAt),
      expiryAction: g.expiryAction,
      prepaidCharges: g.prepaidCharges,
      chargesRun: g.chargesRun,
      sendAt: g.sendAt,
      timeline: steps.filter((s): s is GiftTimelineStep => s !== null),
    };
  });
}
