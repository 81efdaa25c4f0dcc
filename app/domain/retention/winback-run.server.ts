// The win-back campaign job (docs/decisions/117-winback-campaign-job.md). Each run, for every active
// campaign of a shop, on the clock it is given (the tests and `at` in the job's payload fix it):
//   1. gather the candidates: the mirror's cancelled contracts within the campaign's window, their
//      cancel reason, whether the customer is back already or touched by this campaign;
//   2. ask Shopify for the marketing consent (`defaultEmailAddress.marketingState`) of those the
//      earlier rules leave in, and check their addresses against the shop's suppression list;
//   3. decide with the pure rules (winback-audience.ts, docs/decisions/115): send, hold out, exclude;
//   4. hold-out: a ledger row, nothing else. Send: the discount code at Shopify (a code derived
//      from campaign and customer, so a rerun after a crash finds it TAKEN instead of making a
//      second), then one transaction: the ledger row, the e-mail's outbox row and
//      customer.winback_started. The unique (campaign, customer) makes a rerun a no-op;
//   5. refresh attribution (winback-attribution.server.ts).
// The delay is a rule: a cancellation younger than delay_days is "waiting" and decided on a later run.
import { createHash, randomUUID } from "node:crypto";
import { prisma } from "../../db.server";
import { log } from "../../infra/log.server";
import { enqueueBulk, QUEUES } from "../../infra/queues.server";
import { PlatformError } from "../../platform/errors";
import { platformFor, type ShopifyPort } from "../../platform/index.server";
import type { CustomerConsent } from "../../platform/port";
import { dispatchMail, queueMail, type Queued } from "../notifications/outbox.server";
import { dispatchDeliveries } from "../outbound-webhooks/jobs.server";
import { publishEvent, type Published } from "../outbound-webhooks/publish.server";
import { refreshAttribution } from "./winback-attribution.server";
import { selectAudience, type Candidate, type WinbackRules } from "./winback-audience";

const DAY = 86_400_000;

export interface WinbackRunReport {
  shop: string;
  at: string;
  campaigns: number;
  sent: number;
  heldOut: number;
  excluded: Record<string, number>;
}

interface CandidateRow {
  contract_gid: string;
  customer_gid: string;
  ended_at: Date;
  currency_code: string;
  product_title: string | null;
  reason: string | null;
  won_back: boolean;
  touched: boolean;
}

/** The hourly tick: one run per shop with an active campaign, at `now` (the job carries it). */
export async function queueWinbackRuns(now = new Date()): Promise<{ shops: number }> {
  const shops = await prisma.shop.findMany({
    where: { installState: "INSTALLED", winbackCampaigns: { some: { status: "active" } } },
    select: { domain: true },
  });
  const hour = now.toISOString().slice(0, 13);
  await enqueueBulk(
    QUEUES.sweeps,
    shops.map((s) => ({ name: "winback-run" as const, data: { domain: s.domain, at: now.toISOString() }, opts: { jobId: `winback-${s.domain}-${hour}` } })),
  );
  return { shops: shops.length };
}

/** The code of one customer's discount: stable for (campaign, customer), so a rerun never makes a second. */
export function discountCodeFor(campaignId: string, customerGid: string): string {
  const h = createHash("sha256").update(`winback\n${campaignId}\n${customerGid}`).digest("base64url");
  return `WB-${h
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, 10)
    .toUpperCase()}`;
}

export async function runWinback(shopDomain: string, now = new Date()): Promise<WinbackRunReport> {
  const report: WinbackRunReport = { shop: shopDomain, at: now.toISOString(), campaigns: 0, sent: 0, heldOut: 0, excluded: {} };
  const shop = await prisma.shop.findUnique({ where: { domain: shopDomain }, select: { id: true, installState: true } });
  if (!shop || shop.installState !== "INSTALLED") return report;
  const campaigns = await prisma.winbackCampaign.findMany({ where: { shopId: shop.id, status: "active" }, orderBy: { createdAt: "asc" } });
  if (!campaigns.length) return report;
  const platform = await platformFor(shopDomain, "reminders");
  for (const campaign of campaigns) {
    report.campaigns += 1;
    const rules: WinbackRules = {
      reasons: campaign.reasons,
      cancelledWithinDays: campaign.cancelledWithinDays,
      delayDays: campaign.delayDays,
      holdoutPercent: campaign.holdoutPercent,
    };
    const rows = await candidatesOf(shop.id, campaign.id, new Date(now.getTime() - campaign.cancelledWithinDays * DAY));
    const facts = new Map(rows.map((r) => [r.contract_gid, r]));
    const candidates = await withConsent(shop.id, platform, rules, rows, now);
    const audience = selectAudience(campaign.id, rules, candidates.list, now);
    for (const e of audience.excluded) report.excluded[e.why] = (report.excluded[e.why] ?? 0) + 1;
    for (const c of audience.holdout) {
      const { count } = await prisma.winbackSend.createMany({
        data: [
          {
            shopId: shop.id,
            campaignId: campaign.id,
            contractGid: c.contractId,
            customerGid: c.customerId,
            heldOut: true,
            decidedAt: now,
            currencyCode: facts.get(c.contractId)!.currency_code,
          },
        ],
        skipDuplicates: true,
      });
      report.heldOut += count;
    }
    for (const c of audience.send) {
      const sent = await sendOne(platform, {
        shopId: shop.id,
        shopDomain,
        campaign,
        candidate: c,
        facts: facts.get(c.contractId)!,
        email: candidates.emails.get(c.customerId)!,
        now,
      });
      if (sent) report.sent += 1;
    }
    await prisma.winbackCampaign.update({ where: { id: campaign.id }, data: { lastRunAt: now } });
  }
  await refreshAttribution(shop.id);
  log.info("winback run", { shop: shopDomain, sent: report.sent, heldOut: report.heldOut });
  return report;
}

function candidatesOf(shopId: string, campaignId: string, since: Date): Promise<CandidateRow[]> {
  // "Won back": a live contract now, or a reactivation recorded by any campaign.
  return prisma.$queryRaw<CandidateRow[]>`
    SELECT c.contract_gid, c.customer_gid, c.ended_at, c.currency_code, c.product_title,
      (SELECT r.reason FROM cancel_reasons r WHERE r.shop_id = c.shop_id AND r.contract_gid = c.contract_gid ORDER BY r.created_at DESC LIMIT 1) AS reason,
      (EXISTS (SELECT 1 FROM contracts l WHERE l.shop_id = c.shop_id AND l.customer_gid = c.customer_gid AND l.status IN ('ACTIVE', 'PAUSED'))
        OR EXISTS (SELECT 1 FROM winback_sends w WHERE w.shop_id = c.shop_id AND w.customer_gid = c.customer_gid AND w.reactivated)) AS won_back,
      EXISTS (SELECT 1 FROM winback_sends w WHERE w.campaign_id = ${campaignId} AND w.customer_gid = c.customer_gid) AS touched
    FROM contracts c
    WHERE c.shop_id = ${shopId} AND c.status = 'CANCELLED' AND c.created_by_service AND c.ended_at IS NOT NULL AND c.ended_at >= ${since}`;
}

/** Consent and suppression, asked only for the customers the other rules leave in. */
async function withConsent(shopId: string, platform: ShopifyPort, rules: WinbackRules, rows: CandidateRow[], now: Date) {
  const base = rows.map((r): Candidate => ({
    customerId: r.customer_gid,
    contractId: r.contract_gid,
    cancelledAt: r.ended_at,
    reason: r.reason,
    marketingState: null,
    suppressed: false,
    wonBack: r.won_back,
    alreadyTouched: r.touched,
  }));
  // Who would be eligible with consent: only their consent is worth a Shopify call.
  const probe = selectAudience(
    "probe",
    { ...rules, holdoutPercent: 0 },
    base.map((c) => ({ ...c, marketingState: "SUBSCRIBED" })),
    now,
  );
  const ask = [...new Set(probe.send.map((c) => c.customerId))];
  const consent = new Map<string, CustomerConsent>((ask.length ? await platform.getMarketingConsent(ask) : []).map((c) => [c.id, c]));
  const addresses = [...consent.values()].flatMap((c) => (c.email ? [c.email.trim().toLowerCase()] : []));
  const suppressed = new Set(
    (await prisma.emailSuppression.findMany({ where: { shopId, address: { in: addresses } }, select: { address: true } })).map((s) => s.address),
  );
  const emails = new Map<string, string>();
  const list = base.map((c) => {
    const k = consent.get(c.customerId);
    if (k?.email) emails.set(c.customerId, k.email);
    return { ...c, marketingState: k?.marketingState ?? null, suppressed: k?.email ? suppressed.has(k.email.trim().toLowerCase()) : false };
  });
  return { list, emails };
}

interface SendInput {
  shopId: string;
  shopDomain: string;
  campaign: { id: string; offerLabel: string; discountPercent: number | null; attributionDays: number };
  candidate: Candidate;
  facts: CandidateRow;
  email: string;
  now: Date;
}

async function sendOne(platform: ShopifyPort, i: SendInput): Promise<boolean> {
  const { campaign, candidate: c } = i;
  const discount = campaign.discountPercent ? await discountFor(platform, i) : null;
  const sendId = `wbs_${randomUUID().replace(/-/g, "")}`;
  const mail: (Queued | null)[] = [];
  const events: Published[] = [];
  const created = await prisma.$transaction(async (tx) => {
    const { count } = await tx.winbackSend.createMany({
      data: [
        {
          id: sendId,
          shopId: i.shopId,
          campaignId: campaign.id,
          contractGid: c.contractId,
          customerGid: c.customerId,
          decidedAt: i.now,
          sentAt: i.now,
          discountCode: discount?.code ?? null,
          discountGid: discount?.id ?? null,
          currencyCode: i.facts.currency_code,
        },
      ],
      skipDuplicates: true,
    });
    if (count === 0) return false; // another run decided on this customer first
    const queued = await queueMail(tx, {
      shopId: i.shopId,
      kind: "winback_offer",
      customerGid: c.customerId,
      contractGid: c.contractId,
      cycle: campaign.id,
      recipient: i.email,
      vars: {
        shop_name: i.shopDomain.replace(/\.myshopify\.com$/, ""),
        product_title: i.facts.product_title ?? "your subscription",
        offer: campaign.offerLabel,
        discount_code: discount?.code ?? "",
        // Replaced by the signed come-back address when the message is rendered (send.server.ts).
        send_id: sendId,
      },
    });
    mail.push(queued);
    if (queued) await tx.winbackSend.update({ where: { id: sendId }, data: { notificationId: queued.id } });
    events.push(
      await publishEvent(tx, {
        shopId: i.shopId,
        type: "customer.winback_started",
        sourceKey: `winback-started:${campaign.id}:${c.customerId}`,
        occurredAt: i.now,
        data: { campaign_id: campaign.id, send_id: sendId, customer_id: c.customerId, contract_id: c.contractId },
      }),
    );
    return true;
  });
  await dispatchDeliveries(events);
  await dispatchMail(mail);
  return created;
}

/** The customer's code at Shopify: made now, or made by an earlier run that stopped before its ledger row (TAKEN). */
async function discountFor(platform: ShopifyPort, i: SendInput): Promise<{ id: string | null; code: string }> {
  const code = discountCodeFor(i.campaign.id, i.candidate.customerId);
  try {
    return await platform.createCodeDiscount({
      title: `Win-back ${code}`,
      code,
      customerId: i.candidate.customerId,
      percent: i.campaign.discountPercent!,
      startsAt: i.now.toISOString(),
      endsAt: new Date(i.now.getTime() + i.campaign.attributionDays * DAY).toISOString(),
    });
  } catch (err) {
    if (err instanceof PlatformError && err.code === "TAKEN") return { id: null, code };
    throw err;
  }
}
