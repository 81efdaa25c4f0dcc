// The local mirror of Shopify's subscription contracts. Shopify owns the contract; the mirror
// holds what it last reported. Three ways in, one upsert:
//   - an inbound subscription_contracts/create|update webhook (syncContractFromWebhook), which
//     is also the single place status-change events are announced;
//   - an API write reconciling one contract before answering (reconcileContract);
//   - a whole-shop reconcile (reconcile.server.ts: paged for a small shop, one bulk operation for a large one).
// Only contracts this app created are readable through the platform (read_own scope), so a
// contract the platform will not return is never mirrored.
import { recordScheduleDrift } from "./schedule-drift.server";
import type { ContractStatus, Prisma } from "@prisma/client";
import { prisma } from "../../db.server";
import type { ContractWebhook } from "../../infra/job-payloads";
import { platformFor } from "../../platform/index.server";
import type { PlatformContract } from "../../platform/port";
import type { EventType } from "../outbound-webhooks/catalogue";
import { publishEvent, type Published } from "../outbound-webhooks/publish.server";
import { dispatchMail, queueMail, type Queued } from "../notifications/outbox.server";
import { contractVars } from "../notifications/vars.server";
import { giftRequestOf } from "../gifts/attributes";
import { recordGiftPurchase } from "../gifts/purchase.server";

/** The customer's confirmation of a status change, queued with its announcement (docs/decisions/101). */
const CONFIRMATIONS = {
  "subscription.paused": "subscription_paused",
  "subscription.cancelled": "subscription_cancelled",
  "subscription.reactivated": "subscription_resumed",
} as const;
import { dispatchDeliveries } from "../outbound-webhooks/jobs.server";
import { parseDecimalToMinor } from "../shared/money.server";
import { WINBACK_SEND_ATTRIBUTE } from "../retention/winback-return.server";

type Tx = Prisma.TransactionClient;

// Every Shopify contract has a customer; one without cannot be owned by anyone, so it is refused.
function requireCustomer(c: PlatformContract): string {
  if (!c.customerId) throw new Error(`Contract ${c.id} has no customer`);
  return c.customerId;
}

/** Monthly equivalent of one charge, from the billing policy (anchored plans: one charge per anchor). */
export function monthlyCents(chargeCents: number, policy: PlatformContract["billingPolicy"]): number {
  const count = Math.max(1, policy.intervalCount);
  const anchorsPerYear = policy.interval === "YEAR" ? policy.anchors.filter((a) => a.month).length : 0;
  const chargesPerMonth: Record<string, number> = {
    DAY: 365 / 12 / count,
    WEEK: 52 / 12 / count,
    MONTH: 1 / count,
    YEAR: (anchorsPerYear || 1) / 12 / count,
  };
  return Math.round(chargeCents * (chargesPerMonth[policy.interval] ?? 0));
}

export function frequencyLabel(policy: PlatformContract["billingPolicy"]): string {
  const monthsAnchored = policy.anchors.filter((a) => a.month).length;
  if (policy.interval === "YEAR" && monthsAnchored > 1) return `${monthsAnchored} times a year`;
  const unit = policy.interval.toLowerCase();
  return policy.intervalCount === 1 ? `Every ${unit}` : `Every ${policy.intervalCount} ${unit}s`;
}

/** The platform statuses that end a contract (reactivation is a change back to ACTIVE). */
export const ENDED_STATUSES: readonly ContractStatus[] = ["CANCELLED", "EXPIRED", "FAILED"];

/**
 * When the contract ended (docs/decisions/041-contract-ended-at.md): the platform's time of the
 * read that first showed it CANCELLED, EXPIRED or FAILED (its updatedAt, the time of that status
 * change); kept while it stays ended (a later edit of an ended contract, or a move between two
 * ended statuses, does not move it); null while live, so a reactivation clears it.
 */
export function endedAt(existing: { status: ContractStatus; endedAt: Date | null } | null, c: Pick<PlatformContract, "status" | "updatedAt">): Date | null {
  if (!ENDED_STATUSES.includes(c.status as ContractStatus)) return null;
  if (existing?.endedAt && ENDED_STATUSES.includes(existing.status)) return existing.endedAt;
  return new Date(c.updatedAt);
}

async function sellingPlanGroupGid(tx: Tx, shopId: string, sellingPlanGid: string | null): Promise<string | null> {
  if (!sellingPlanGid) return null;
  const plan = await tx.sellingPlan.findFirst({
    where: { sellingPlanGid, group: { shopId } },
    select: { group: { select: { groupGid: true } } },
  });
  return plan?.group.groupGid ?? null;
}

/** The mirror's columns for what the platform reported (the group looked up by the caller). */
export function contractFields(c: PlatformContract, existing: { status: ContractStatus; endedAt: Date | null } | null, groupGid: string | null) {
  const first = c.lines[0];
  // Minor units in the contract's own currency (JPY has none, KWD three): docs/decisions/020.
  const toMinor = (amount: string) => parseDecimalToMinor(amount, c.currencyCode);
  const chargeCents = c.lines.reduce((sum, l) => sum + toMinor(l.priceAmount) * l.quantity, 0);
  return {
    status: c.status as ContractStatus,
    nextBillingAt: c.nextBillingDate ? new Date(c.nextBillingDate) : null,
    sellingPlanGid: first?.sellingPlanId ?? null,
    sellingPlanGroupGid: groupGid,
    customerGid: requireCustomer(c),
    currencyCode: c.currencyCode,
    chargeAmountCents: chargeCents,
    monthlyAmountCents: monthlyCents(chargeCents, c.billingPolicy),
    billingInterval: c.billingPolicy.interval,
    billingIntervalCount: c.billingPolicy.intervalCount,
    productTitle: first?.title ?? null,
    frequencyLabel: frequencyLabel(c.billingPolicy),
    orderName: c.originOrderName,
    createdByService: true,
    revision: BigInt(c.revisionId || "0"),
    updatedAt: new Date(c.updatedAt),
    endedAt: endedAt(existing, c),
    mirroredAt: new Date(),
    ...cardFields(c),
  };
}

/**
 * The card's expiry month as the mirror keeps it (docs/decisions/158-card-expiry-mirror.md); nothing
 * when the read did not ask for it, so such a read leaves what is stored.
 */
export function cardFields(c: Pick<PlatformContract, "cardExpiry">): { cardExpiryMonth?: number | null; cardExpiryYear?: number | null } {
  if (c.cardExpiry === undefined) return {};
  return { cardExpiryMonth: c.cardExpiry?.month ?? null, cardExpiryYear: c.cardExpiry?.year ?? null };
}

/**
 * A card is not part of the contract's revision: a customer who replaces an expiring card changes
 * no contract. So a read no newer than the stored revision still refreshes the card's expiry.
 */
export async function refreshCard(
  tx: Tx,
  existing: { id: string; cardExpiryMonth: number | null; cardExpiryYear: number | null },
  c: PlatformContract,
): Promise<void> {
  const card = cardFields(c);
  if (!("cardExpiryMonth" in card) || (card.cardExpiryMonth === existing.cardExpiryMonth && card.cardExpiryYear === existing.cardExpiryYear)) return;
  await tx.contract.update({ where: { id: existing.id }, data: card });
}

/** The mirror's line rows of a contract, without the contract's id. */
export function contractLines(c: PlatformContract) {
  return c.lines.map((l, position) => ({
    lineGid: l.id,
    productGid: l.productId,
    variantGid: l.variantId,
    title: l.title,
    variantTitle: l.variantTitle,
    quantity: l.quantity,
    priceCents: parseDecimalToMinor(l.priceAmount, c.currencyCode),
    sellingPlanGid: l.sellingPlanId,
    position,
  }));
}

/**
 * Writes what the platform reported. A read no newer than the stored revision is skipped:
 * webhooks and reconciles arrive in any order, and a nightly reconcile rewrites only what
 * changed. Returns the previous status (null when the contract is new to the mirror).
 */
export async function upsertContract(tx: Tx, shopId: string, c: PlatformContract): Promise<ContractStatus | null> {
  const existing = await tx.contract.findUnique({
    where: { shopId_contractGid: { shopId, contractGid: c.id } },
    select: { id: true, status: true, revision: true, endedAt: true, cardExpiryMonth: true, cardExpiryYear: true },
  });
  const revision = BigInt(c.revisionId || "0");
  if (existing && existing.revision >= revision) {
    await refreshCard(tx, existing, c);
    return existing.status;
  }

  const fields = contractFields(c, existing, await sellingPlanGroupGid(tx, shopId, c.lines[0]?.sellingPlanId ?? null));
  const lines = contractLines(c);

  if (existing) {
    // The revision is checked again by the UPDATE itself: a newer snapshot committed since the read
    // above (a reconcile racing a webhook job that read the platform earlier) wins, whoever read first.
    const { count } = await tx.contract.updateMany({ where: { id: existing.id, revision: { lt: revision } }, data: fields });
    if (count === 0) {
      await refreshCard(tx, existing, c);
      return existing.status;
    }
    await tx.contractLine.deleteMany({ where: { contractId: existing.id } });
    await tx.contractLine.createMany({ data: lines.map((l) => ({ ...l, contractId: existing.id })) });
    return existing.status;
  }
  // A create and an update webhook of a new contract can both find no row and both insert: the
  // second insert waits for the first to commit, then skips, and this snapshot is applied as an
  // update of the row the first one wrote (its revision decides, as above).
  const { count } = await tx.contract.createMany({
    data: [{ ...fields, shopId, contractGid: c.id, createdAt: new Date(c.createdAt) }],
    skipDuplicates: true,
  });
  if (count === 0) return upsertContract(tx, shopId, c);
  const created = await tx.contract.findUniqueOrThrow({ where: { shopId_contractGid: { shopId, contractGid: c.id } }, select: { id: true } });
  await tx.contractLine.createMany({ data: lines.map((l) => ({ ...l, contractId: created.id })) });
  return null;
}

/** subscription.created's link to the cancelled contract of a win-back (docs/decisions/116-winback-events.md). */
async function winbackOf(tx: Tx, shopId: string, sendId: string | undefined) {
  if (!sendId) return null;
  const send = await tx.winbackSend.findFirst({ where: { id: sendId, shopId }, select: { id: true, campaignId: true, contractGid: true } });
  return send ? { campaign_id: send.campaignId, send_id: send.id, previous_contract_id: send.contractGid } : null;
}

/** Which event a status change announces, if any (the update webhook is the chokepoint: docs/decisions/005). */
export function eventForTransition(previous: ContractStatus | null, next: ContractStatus, created: boolean): EventType | null {
  if (created && previous === null) return "subscription.created";
  if (previous === next) return null;
  if (next === "PAUSED") return "subscription.paused";
  if (next === "CANCELLED") return "subscription.cancelled";
  if (next === "ACTIVE" && previous !== null) return "subscription.reactivated";
  return null;
}

/** A contract webhook received and not yet processed, as its stored job names it. */
type StoredContractJob = { data: ContractWebhook };

/**
 * The status notices the holder of a contract's row lock settles: this webhook and every other
 * webhook of the contract received but not yet processed, newer than the last announcement,
 * in Shopify's revision order (a create before an update of the same revision).
 */
async function noticesToAnnounce(tx: Tx, hook: ContractWebhook, announcedRevision: bigint, announced: boolean) {
  const waiting = await tx.inboundWebhook.findMany({
    where: { shopDomain: hook.shopDomain, contractGid: hook.contractGid, processedAt: null, webhookId: { not: hook.webhookId } },
    select: { webhookId: true, job: true },
  });
  const all = [hook, ...waiting.map((w) => (w.job as unknown as StoredContractJob).data)];
  const rank = (h: ContractWebhook) => (h.topic === "subscription_contracts/create" ? 0 : 1);
  const notices = all
    .map((h) => ({ ...h, revisionNumber: BigInt(h.revision || "0") }))
    .filter((h) => !announced || h.revisionNumber > announcedRevision)
    .sort((a, b) => (a.revisionNumber < b.revisionNumber ? -1 : a.revisionNumber > b.revisionNumber ? 1 : rank(a) - rank(b)));
  return { notices, settled: waiting.map((w) => w.webhookId) };
}

/**
 * Handles one inbound contract webhook: re-reads the contract from the platform (the payload
 * carries no lines or dates), upserts the mirror, and announces each status change once, in
 * Shopify's revision order, whatever order and concurrency the mirror queue's jobs run in
 * (docs/decisions/093-ordered-status-announcements.md): the contract's row is locked, and the
 * job holding the lock announces its own webhook together with every other webhook of the
 * contract already received but not yet processed, and marks those processed. A webhook that
 * arrives after a newer one was announced is late: it announces nothing.
 */
export async function syncContractFromWebhook(hook: ContractWebhook): Promise<"mirrored" | "ignored"> {
  const shop = await prisma.shop.findUnique({ where: { domain: hook.shopDomain }, select: { id: true, installState: true, ianaTimezone: true } });
  if (!shop || shop.installState !== "INSTALLED") return "ignored";
  const platform = await platformFor(hook.shopDomain, "reconcile");
  const contract = await platform.getContract(hook.contractGid);
  if (!contract) return "ignored"; // not ours (read_own) or gone
  // A gift's lines carry its recipient (docs/decisions/136-gift-lifecycle.md); the gifter's name
  // and e-mail are read once, outside the transaction, for the merchant's Gifts page.
  const giftRequest = giftRequestOf(contract);
  const gifter = giftRequest && contract.customerId ? ((await platform.getCustomers([contract.customerId]))[0] ?? null) : null;

  // The mirror, the announcements and their deliveries commit together (the outbox, decision 051).
  const mail: (Queued | null)[] = [];
  const announced = await prisma.$transaction(async (tx): Promise<Published[]> => {
    await upsertContract(tx, shop.id, contract);
    // Announcements of one contract take turns: without the lock, a pause and a resume processed
    // at once both read ACTIVE, and the resume announced nothing (decision 093).
    await tx.$executeRaw`SELECT 1 FROM contracts WHERE shop_id = ${shop.id} AND contract_gid = ${hook.contractGid} FOR UPDATE`;
    const row = await tx.contract.findUniqueOrThrow({
      where: { shopId_contractGid: { shopId: shop.id, contractGid: hook.contractGid } },
      select: {
        id: true,
        customerGid: true,
        announcedStatus: true,
        announcedRevision: true,
        productTitle: true,
        nextBillingAt: true,
        chargeAmountCents: true,
        currencyCode: true,
      },
    });
    const { notices, settled } = await noticesToAnnounce(tx, hook, row.announcedRevision, row.announcedStatus !== null);
    const published: Published[] = [];
    let status = row.announcedStatus;
    let at = 0;
    for (const notice of notices) {
      const type = eventForTransition(status, notice.status, notice.topic === "subscription_contracts/create");
      // Times strictly increase, so the events list and its readers (sorted by created_at, in
      // milliseconds) see this transaction's events in revision order too.
      at = Math.max(notice.occurredAt ? Date.parse(notice.occurredAt) : Date.now(), at + 1);
      const base = { shopId: shop.id, sourceKey: `shopify-webhook:${notice.webhookId}`, occurredAt: new Date(at) };
      const contractId = hook.contractGid;
      if (type === "subscription.created") {
        // A new contract: does Shopify's first billing date agree with the schedule engine's?
        await recordScheduleDrift(tx, shop.id, contract);
        const winback = await winbackOf(tx, shop.id, contract.attributes?.[WINBACK_SEND_ATTRIBUTE]);
        published.push(
          await publishEvent(tx, {
            ...base,
            type,
            data: { contract_id: contractId, customer_id: row.customerGid, status: notice.status, ...(winback ? { winback } : {}) },
          }),
        );
        if (giftRequest) {
          const purchase = { shopId: shop.id, timeZone: shop.ianaTimezone, contractRowId: row.id, contractGid: contractId, request: giftRequest, gifter };
          published.push(...(await recordGiftPurchase(tx, { ...purchase, sellingPlanGid: contract.lines[0]?.sellingPlanId ?? null, ...base })));
        }
      } else if (type) {
        const data = { contract_id: contractId, customer_id: row.customerGid, previous_status: status, new_status: notice.status };
        published.push(await publishEvent(tx, { ...base, type, data }));
        if (type in CONFIRMATIONS) {
          const kind = CONFIRMATIONS[type as keyof typeof CONFIRMATIONS];
          const vars = contractVars(hook.shopDomain, { ...row, contractGid: contractId });
          mail.push(
            await queueMail(tx, { shopId: shop.id, kind, customerGid: row.customerGid, contractGid: contractId, cycle: `rev${notice.revisionNumber}`, vars }),
          );
        }
      }
      status = notice.status;
    }
    const last = notices.at(-1);
    if (last) await tx.contract.update({ where: { id: row.id }, data: { announcedStatus: last.status, announcedRevision: last.revisionNumber } });
    // The other waiting webhooks are settled here: announced now, or older than what was.
    if (settled.length) await tx.inboundWebhook.updateMany({ where: { webhookId: { in: settled }, processedAt: null }, data: { processedAt: new Date() } });
    return published;
  });
  await dispatchDeliveries(announced);
  await dispatchMail(mail);
  return "mirrored";
}

/**
 * A customer's card changed at Shopify (customer_payment_methods/update): every contract of theirs
 * that can still be charged is read again, so the card expiry it mirrors follows the new card
 * although the contract's revision did not move (docs/decisions/158-card-expiry-mirror.md).
 * Answers how many contracts were read.
 */
export async function refreshCustomerCards(job: { shopDomain: string; customerGid: string }): Promise<number> {
  const shop = await prisma.shop.findUnique({ where: { domain: job.shopDomain }, select: { id: true, installState: true } });
  if (!shop || shop.installState !== "INSTALLED") return 0;
  const contracts = await prisma.contract.findMany({
    where: { shopId: shop.id, customerGid: job.customerGid, status: { in: ["ACTIVE", "PAUSED", "FAILED"] } },
    select: { contractGid: true },
  });
  for (const c of contracts) await reconcileContract(job.shopDomain, c.contractGid);
  return contracts.length;
}

/** Re-reads one contract into the mirror (after an API write). Announces nothing. */
export async function reconcileContract(shopDomain: string, contractGid: string): Promise<void> {
  const shop = await prisma.shop.findUniqueOrThrow({ where: { domain: shopDomain }, select: { id: true } });
  const contract = await (await platformFor(shopDomain)).getContract(contractGid);
  if (!contract) return;
  await prisma.$transaction((tx) => upsertContract(tx, shop.id, contract).then(() => undefined));
}
