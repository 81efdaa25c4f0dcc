// The recipient's claim (docs/decisions/136-gift-lifecycle.md). The link's token is looked up by
// its SHA-256 only. Reading (the page's GET) changes nothing, because mail scanners fetch links.
// Claiming is the page's POST: one claim at a time holds a short lease on the gift, the address
// goes to Shopify through the draft flow (subscriptionContractUpdate → subscriptionDraftUpdate →
// subscriptionDraftCommit), and then, in one transaction, the gift is CLAIMED, its token hash is
// cleared (a second POST finds nothing) and gift.claimed is published. A token that is unknown,
// used or past its window reads as null everywhere, so the page cannot tell them apart.
import { z } from "zod";
import { prisma } from "../../db.server";
import { log } from "../../infra/log.server";
import { isPlatformError } from "../../platform/errors";
import { platformFor } from "../../platform/index.server";
import { giftClaimTokenHash } from "../notifications/links.server";
import { dispatchDeliveries } from "../outbound-webhooks/jobs.server";
import { publishEvent } from "../outbound-webhooks/publish.server";

const LEASE_MS = 60_000;
/** Longer than any token the app makes (43 characters): refused before hashing. */
const MAX_TOKEN = 128;

export interface ClaimView {
  shopName: string;
  productTitle: string;
  gifterName: string;
  message: string | null;
  /** The contract's next charge: the first box follows the contract's schedule. */
  nextDelivery: Date | null;
  prepaidCharges: number | null;
  claimUntil: Date;
  timeZone: string;
}

async function liveGift(token: string) {
  if (!token || token.length > MAX_TOKEN) return null;
  const g = await prisma.gift.findUnique({
    where: { claimTokenHash: giftClaimTokenHash(token) },
    include: {
      contract: { select: { contractGid: true, productTitle: true, nextBillingAt: true } },
      shop: { select: { domain: true, ianaTimezone: true, installState: true, notificationSettings: { select: { senderName: true } } } },
    },
  });
  if (!g || g.status !== "SENT" || !g.expiresAt || g.expiresAt.getTime() <= Date.now() || !g.contract) return null;
  if (g.shop.installState !== "INSTALLED") return null;
  return g;
}

/** What the claim page shows, or null (unknown, used or expired: one answer). Reads only. */
export async function claimView(token: string): Promise<ClaimView | null> {
  const g = await liveGift(token);
  if (!g) return null;
  return {
    shopName: g.shop.notificationSettings?.senderName || g.shop.domain.replace(/\.myshopify\.com$/, ""),
    productTitle: g.contract!.productTitle ?? "A subscription",
    gifterName: g.gifterName?.split(" ")[0] || "Someone",
    message: g.message,
    nextDelivery: g.contract!.nextBillingAt,
    prepaidCharges: g.kind === "PREPAID" ? g.prepaidCharges : null,
    claimUntil: g.expiresAt!,
    timeZone: g.shop.ianaTimezone,
  };
}

const line = (max: number) => z.string().trim().min(1, "Required").max(max);
export const claimAddress = z.object({
  firstName: line(100),
  lastName: line(100),
  address1: line(200),
  address2: z
    .string()
    .trim()
    .max(200)
    .transform((v) => v || null),
  city: line(100),
  provinceCode: z
    .string()
    .trim()
    .toUpperCase()
    .max(10)
    .transform((v) => v || null),
  countryCode: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, "Two letters, e.g. CA"),
  zip: line(20),
});
export type ClaimAddress = z.infer<typeof claimAddress>;

export type ClaimOutcome = { kind: "claimed" } | { kind: "gone" } | { kind: "refused"; message: string };

export async function claimGift(token: string, address: ClaimAddress): Promise<ClaimOutcome> {
  const g = await liveGift(token);
  if (!g) return { kind: "gone" };
  // One claim at a time: the lease is taken only by a live gift with this hash and no lease.
  const leased = await prisma.gift.updateMany({
    where: { id: g.id, status: "SENT", claimTokenHash: g.claimTokenHash, OR: [{ claimLeaseUntil: null }, { claimLeaseUntil: { lt: new Date() } }] },
    data: { claimLeaseUntil: new Date(Date.now() + LEASE_MS) },
  });
  if (!leased.count) return { kind: "gone" };
  const release = () => prisma.gift.updateMany({ where: { id: g.id, status: "SENT" }, data: { claimLeaseUntil: null } });
  const contractGid = g.contract!.contractGid;
  try {
    const port = await platformFor(g.shop.domain);
    await port.setShippingAddress(contractGid, address);
    // A gift paused at its expiry (PAUSE policy, then resent) ships again once claimed.
    if (g.expiryAction === "paused") await port.activateContract(contractGid);
  } catch (err) {
    await release();
    if (isPlatformError(err) && err.kind === "invalid_request") return { kind: "refused", message: err.message };
    log.warn("a gift claim could not reach the platform", { err, gift: g.id });
    return { kind: "refused", message: "We could not save your address just now. Please try again in a few minutes." };
  }
  const claimedAt = new Date();
  const published = await prisma.$transaction(async (tx) => {
    const done = await tx.gift.updateMany({
      where: { id: g.id, status: "SENT" },
      data: { status: "CLAIMED", claimedAt, claimTokenHash: null, claimLeaseUntil: null },
    });
    if (!done.count) return [];
    return [
      await publishEvent(tx, {
        shopId: g.shopId,
        type: "gift.claimed",
        sourceKey: `gift:${g.id}:claimed`,
        data: { gift_id: g.id, contract_id: contractGid, claimed_at: claimedAt.toISOString() },
      }),
    ];
  });
  await dispatchDeliveries(published);
  return { kind: "claimed" };
}
