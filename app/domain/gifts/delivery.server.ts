// A gift after its purchase (docs/decisions/136-gift-lifecycle.md): the claim e-mail on the chosen
// day (gift.sent), the bounce the gifter is told of, and the expiry of an unclaimed gift
// (gift.expired) under the merchant's policy. One sweep does all three, shop by shop, by an index
// on (status, send_at); the `gifts-tick` job runs it every five minutes, `npm run cli -- gifts run`
// runs it for one shop at a chosen time (the controllable clock of the billing engine's tests).
//
// The claim e-mail goes through the outbox (docs/email.md) under the key
// gift_claim:<contract>:<gift>#<n>: queued in the transaction that marks the gift sent, with the
// hash of its token (app/domain/notifications/links.server.ts derives the token from the outbox
// row's id while rendering; the token itself is stored nowhere).
import { Prisma, type Gift, type GiftExpiryPolicy } from "@prisma/client";
import { prisma } from "../../db.server";
import { log } from "../../infra/log.server";
import { audited, type AuditedChange } from "../audit/audit.server";
import { platformFor } from "../../platform/index.server";
import { giftClaimToken, giftClaimTokenHash } from "../notifications/links.server";
import { dispatchMail, queueMail, type Queued } from "../notifications/outbox.server";
import { dispatchDeliveries } from "../outbound-webhooks/jobs.server";
import { publishEvent, type Published } from "../outbound-webhooks/publish.server";

type Tx = Prisma.TransactionClient;

export const DEFAULT_EXPIRY_DAYS = 30;
const BATCH = 200;

export interface GiftSettingsView {
  expiryDays: number;
  expiryPolicy: GiftExpiryPolicy;
}

export async function giftSettings(shopId: string, db: Tx | typeof prisma = prisma): Promise<GiftSettingsView> {
  const row = await db.giftSettings.findUnique({ where: { shopId }, select: { expiryDays: true, expiryPolicy: true } });
  return row ?? { expiryDays: DEFAULT_EXPIRY_DAYS, expiryPolicy: "SHIP_TO_GIFTER" };
}

const dateIn = (d: Date, timeZone: string) => new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone }).format(d);

type GiftWithContract = Gift & {
  contract: { contractGid: string; customerGid: string; productTitle: string | null } | null;
  shop: { domain: string; ianaTimezone: string };
};

const WITH_CONTRACT = {
  contract: { select: { contractGid: true, customerGid: true, productTitle: true } },
  shop: { select: { domain: true, ianaTimezone: true } },
} as const;

/**
 * Queues the claim e-mail and marks the gift sent, in one transaction: a new outbox row (the n-th
 * send), the hash of its token on the gift (a resend's new token replaces the old one, so only the
 * latest link works), the claim window from now, and gift.sent.
 */
async function sendClaim(tx: Tx, g: GiftWithContract, now: Date): Promise<{ mail: Queued | null; published: Published[] }> {
  if (!g.contract || !g.recipientEmail) return { mail: null, published: [] };
  const settings = await giftSettings(g.shopId, tx);
  const expiresAt = new Date(now.getTime() + settings.expiryDays * 86_400_000);
  const n = g.sendCount + 1;
  const mail = await queueMail(tx, {
    shopId: g.shopId,
    kind: "gift_claim",
    customerGid: g.contract.customerGid,
    contractGid: g.contract.contractGid,
    cycle: `${g.id}#${n}`,
    recipient: g.recipientEmail,
    vars: {
      shop_name: g.shop.domain.replace(/\.myshopify\.com$/, ""),
      gifter_name: g.gifterName?.split(" ")[0] || "Someone",
      recipient_name: g.recipientName || "there",
      product_title: g.contract.productTitle ?? "a subscription",
      gift_message: g.message ?? "",
      claim_until: dateIn(expiresAt, g.shop.ianaTimezone),
    },
  });
  if (!mail) return { mail: null, published: [] };
  await tx.gift.update({
    where: { id: g.id },
    data: {
      status: "SENT",
      sentAt: now,
      expiresAt,
      sendCount: n,
      claimMailId: mail.id,
      claimTokenHash: giftClaimTokenHash(giftClaimToken(mail.id)),
      bouncedAt: null,
    },
  });
  const published = await publishEvent(tx, {
    shopId: g.shopId,
    type: "gift.sent",
    sourceKey: `gift:${g.id}:sent:${n}`,
    data: { gift_id: g.id, sent_at: now.toISOString() },
  });
  return { mail, published: [published] };
}

/** The gifter hears that the claim e-mail bounced; the gift is flagged for the merchant. */
async function noticeBounce(tx: Tx, g: GiftWithContract): Promise<Queued | null> {
  const flagged = await tx.gift.updateMany({ where: { id: g.id, bouncedAt: null, claimMailId: g.claimMailId }, data: { bouncedAt: new Date() } });
  if (!flagged.count || !g.contract) return null;
  return queueMail(tx, {
    shopId: g.shopId,
    kind: "gift_bounced",
    customerGid: g.contract.customerGid,
    contractGid: g.contract.contractGid,
    cycle: `${g.id}#${g.sendCount}`,
    vars: {
      shop_name: g.shop.domain.replace(/\.myshopify\.com$/, ""),
      product_title: g.contract.productTitle ?? "a subscription",
      recipient_email: g.recipientEmail ?? "",
    },
  });
}

/**
 * Closes an unclaimed gift's window. PAUSE pauses the contract on Shopify first (nothing ships to
 * nobody; the merchant's resend reopens the claim, and the claim resumes it); SHIP_TO_GIFTER
 * leaves the contract as the checkout made it, shipping to the gifter's address.
 */
async function expire(g: GiftWithContract, now: Date): Promise<Published[]> {
  const { expiryPolicy } = await giftSettings(g.shopId);
  if (expiryPolicy === "PAUSE" && g.contract) {
    try {
      await (await platformFor(g.shop.domain)).pauseContract(g.contract.contractGid);
    } catch (err) {
      // Retried by the next sweep: the gift stays SENT until the pause is done.
      log.warn("could not pause an expired gift's contract", { err, gift: g.id });
      return [];
    }
  }
  return prisma.$transaction(async (tx) => {
    const done = await tx.gift.updateMany({
      where: { id: g.id, status: "SENT", claimMailId: g.claimMailId },
      data: { status: "EXPIRED", expiryAction: expiryPolicy === "PAUSE" ? "paused" : "ship_to_gifter", claimLeaseUntil: null },
    });
    if (!done.count) return [];
    const expiredAt = g.expiresAt ?? now;
    return [
      await publishEvent(tx, {
        shopId: g.shopId,
        type: "gift.expired",
        sourceKey: `gift:${g.id}:expired:${g.sendCount}`,
        data: { gift_id: g.id, expired_at: expiredAt.toISOString() },
      }),
    ];
  });
}

export interface SweepResult {
  sent: number;
  bounced: number;
  expired: number;
}

/** One pass: due claim e-mails, bounces to tell, windows to close (optionally one shop, at `now`). */
export async function runGiftSweep(opts: { shopId?: string; now?: Date } = {}): Promise<SweepResult> {
  const now = opts.now ?? new Date();
  const shop = opts.shopId ? { shopId: opts.shopId } : {};
  const result: SweepResult = { sent: 0, bounced: 0, expired: 0 };

  const due = await prisma.gift.findMany({ where: { ...shop, status: "PENDING", sendAt: { lte: now } }, include: WITH_CONTRACT, take: BATCH });
  for (const g of due) {
    const { mail, published } = await prisma.$transaction((tx) => sendClaim(tx, g, now));
    await dispatchDeliveries(published);
    await dispatchMail([mail]);
    if (mail) result.sent++;
  }

  const bounced = await prisma.$queryRaw<{ id: string }[]>`
    SELECT g.id FROM gifts g JOIN notification_log n ON n.id = g.claim_mail_id
    WHERE g.status = 'SENT' AND g.bounced_at IS NULL AND n.status = 'bounced' ${opts.shopId ? Prisma.sql`AND g.shop_id = ${opts.shopId}` : Prisma.empty}
    LIMIT ${BATCH}`;
  for (const { id } of bounced) {
    const g = await prisma.gift.findUniqueOrThrow({ where: { id }, include: WITH_CONTRACT });
    const mail = await prisma.$transaction((tx) => noticeBounce(tx, g));
    await dispatchMail([mail]);
    result.bounced++;
  }

  const closing = await prisma.gift.findMany({ where: { ...shop, status: "SENT", expiresAt: { lte: now } }, include: WITH_CONTRACT, take: BATCH });
  for (const g of closing) {
    const published = await expire(g, now);
    await dispatchDeliveries(published);
    result.expired += published.length;
  }
  return result;
}

export type ResendRefusal = "not_found" | "claimed" | "invalid_email";

/**
 * The merchant's resend from the Gifts page, optionally to a corrected address: a new claim
 * e-mail with a new token and a new window (the old link stops working). A gift not yet sent is
 * sent now. A claimed or ended gift has nothing to send.
 */
export async function resendGift(shopId: string, giftId: string, newEmail?: string | null): Promise<{ ok: true } | { ok: false; reason: ResendRefusal }> {
  const email = newEmail?.trim().toLowerCase() || null;
  if (email && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) return { ok: false, reason: "invalid_email" };
  type Outcome = { ok: false; reason: ResendRefusal } | { ok: true; mail: Queued | null; published: Published[] };
  const outcome = await audited<Outcome>(
    { shopId, action: "gift.resend", target: { type: "gift", id: giftId } },
    async (tx): Promise<AuditedChange<Outcome>> => {
      const g = await tx.gift.findFirst({ where: { id: giftId, shopId }, include: WITH_CONTRACT });
      if (!g) return { result: { ok: false, reason: "not_found" }, changes: {} };
      if (g.status === "CLAIMED" || g.status === "ENDED") return { result: { ok: false, reason: "claimed" }, changes: {} };
      const changed = !!email && email !== g.recipientEmail;
      if (changed) await tx.gift.update({ where: { id: g.id }, data: { recipientEmail: email } });
      const sent = await sendClaim(tx, { ...g, recipientEmail: email ?? g.recipientEmail }, new Date());
      // E-mail addresses stay out of the trail: it says whether the address changed, not what to.
      return { result: { ok: true, ...sent }, changes: { recipient_email_changed: { before: false, after: changed } } };
    },
  );
  if (!outcome.ok) return outcome;
  await dispatchDeliveries(outcome.published);
  await dispatchMail([outcome.mail]);
  return { ok: true };
}

export async function saveGiftSettings(shopId: string, s: GiftSettingsView): Promise<GiftSettingsView> {
  return audited({ shopId, action: "gift_settings.update", target: { type: "settings", id: "gifts" } }, async (tx) => {
    const before = await giftSettings(shopId, tx);
    const row = await tx.giftSettings.upsert({ where: { shopId }, create: { shopId, ...s }, update: s, select: { expiryDays: true, expiryPolicy: true } });
    return {
      result: row,
      changes: {
        expiry_days: { before: before.expiryDays, after: row.expiryDays },
        expiry_policy: { before: before.expiryPolicy, after: row.expiryPolicy },
      },
    };
  });
}
