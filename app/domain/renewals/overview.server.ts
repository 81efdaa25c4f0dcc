// What the Billing settings page shows besides the policy: the shop's contracts in dunning now
// (docs/decisions/081). Tenancy: every read is scoped by the shop's id.
import { Prisma } from "@prisma/client";
import { prisma } from "../../db.server";
import { iso, money, type Money } from "../shared/money.server";
import { chargeFailureReason } from "../shared/payment-errors";

export interface DunningRow {
  contractId: string;
  cycleAt: string;
  attempts: number;
  lastErrorCode: string | null;
  nextRetryAt: string | null;
}

export async function dunningOverview(shopId: string, limit = 10): Promise<{ inDunning: number; rows: DunningRow[] }> {
  const where = { shopId, status: "DUNNING" as const };
  const [inDunning, cycles] = await Promise.all([
    prisma.billingCycle.count({ where }),
    prisma.billingCycle.findMany({ where, orderBy: [{ nextRetryAt: "asc" }, { id: "asc" }], take: limit }),
  ]);
  return {
    inDunning,
    rows: cycles.map((c) => ({
      contractId: c.contractGid,
      cycleAt: c.cycleAt.toISOString(),
      attempts: c.attempts,
      lastErrorCode: c.lastErrorCode,
      nextRetryAt: iso(c.nextRetryAt),
    })),
  };
}

/** One failed payment waiting for its retry, with what it is worth. */
export interface AtRiskPayment {
  contractGid: string;
  customerGid: string;
  amount: Money | null;
  reason: string;
  attempts: number;
  nextRetryAt: string | null;
}

/** An active subscription whose card expires before its next charge, with what that charge is worth. */
export interface ExpiringCard {
  contractGid: string;
  customerGid: string;
  amount: Money | null;
  nextChargeAt: string;
  /** The card's expiry month as printed on it, MM/YYYY. */
  cardExpiry: string;
}

export interface RevenueAtRisk {
  dunning: { count: number; totals: Money[]; rows: AtRiskPayment[] };
  expiringCards: { count: number; totals: Money[]; rows: ExpiringCard[] };
  failed: { count: number; totals: Money[] };
}

/**
 * Active contracts whose card's expiry month ends before the month of the next charge (a card is
 * good through the last day of its expiry month): the mirror's card columns, kept by every contract
 * sync (docs/decisions/158-card-expiry-mirror.md). Months are compared in UTC, as the card-expiring
 * notices count them (../notifications/card-expiry.server.ts).
 */
const expiresBeforeNextCharge = (shopId: string) => Prisma.sql`
  shop_id = ${shopId} AND created_by_service AND status = 'ACTIVE' AND next_billing_at IS NOT NULL
  AND card_expiry_year IS NOT NULL AND card_expiry_month IS NOT NULL
  AND card_expiry_year * 12 + card_expiry_month
    < EXTRACT(YEAR FROM next_billing_at AT TIME ZONE 'UTC') * 12 + EXTRACT(MONTH FROM next_billing_at AT TIME ZONE 'UTC')`;

/**
 * What the Risk Center leads with: payments in dunning (the amount each charge is worth, the
 * reason in words, the next retry), cards expiring before the next charge (soonest charge first)
 * and subscriptions whose payments were given up on (FAILED).
 * Totals per currency, never converted.
 */
export async function revenueAtRisk(shopId: string, limit = 10): Promise<RevenueAtRisk> {
  const [dunningTotals, cycles, failedTotals, expiringTotals, expiring] = await Promise.all([
    prisma.$queryRaw<{ currency_code: string; cents: bigint; n: bigint }[]>`
      SELECT c.currency_code, COALESCE(SUM(c.charge_amount_cents), 0) AS cents, COUNT(*) AS n
      FROM billing_cycles b JOIN contracts c ON c.id = b.contract_id
      WHERE b.shop_id = ${shopId} AND b.status = 'DUNNING' GROUP BY c.currency_code ORDER BY c.currency_code`,
    prisma.billingCycle.findMany({
      where: { shopId, status: "DUNNING" },
      orderBy: [{ nextRetryAt: "asc" }, { id: "asc" }],
      take: limit,
      include: { contract: { select: { chargeAmountCents: true, currencyCode: true, customerGid: true } } },
    }),
    prisma.$queryRaw<{ currency_code: string; cents: bigint; n: bigint }[]>`
      SELECT currency_code, COALESCE(SUM(charge_amount_cents), 0) AS cents, COUNT(*) AS n
      FROM contracts WHERE shop_id = ${shopId} AND created_by_service AND status = 'FAILED' GROUP BY currency_code ORDER BY currency_code`,
    prisma.$queryRaw<{ currency_code: string; cents: bigint; n: bigint }[]>`
      SELECT currency_code, COALESCE(SUM(charge_amount_cents), 0) AS cents, COUNT(*) AS n
      FROM contracts WHERE ${expiresBeforeNextCharge(shopId)} GROUP BY currency_code ORDER BY currency_code`,
    prisma.$queryRaw<
      { contract_gid: string; customer_gid: string; charge_amount_cents: number | null; currency_code: string; next_billing_at: Date; m: number; y: number }[]
    >`
      SELECT contract_gid, customer_gid, charge_amount_cents, currency_code, next_billing_at, card_expiry_month AS m, card_expiry_year AS y
      FROM contracts WHERE ${expiresBeforeNextCharge(shopId)} ORDER BY next_billing_at, id LIMIT ${limit}`,
  ]);
  const totals = (rows: { currency_code: string; cents: bigint }[]) => rows.map((r) => money(r.cents, r.currency_code)!);
  const count = (rows: { n: bigint }[]) => rows.reduce((sum, r) => sum + Number(r.n), 0);
  return {
    dunning: {
      count: count(dunningTotals),
      totals: totals(dunningTotals),
      rows: cycles.map((c) => ({
        contractGid: c.contractGid,
        customerGid: c.contract.customerGid,
        amount: money(c.contract.chargeAmountCents, c.contract.currencyCode),
        reason: chargeFailureReason(c.lastErrorCode),
        attempts: c.attempts,
        nextRetryAt: iso(c.nextRetryAt),
      })),
    },
    expiringCards: {
      count: count(expiringTotals),
      totals: totals(expiringTotals),
      rows: expiring.map((c) => ({
        contractGid: c.contract_gid,
        customerGid: c.customer_gid,
        amount: money(c.charge_amount_cents, c.currency_code),
        nextChargeAt: c.next_billing_at.toISOString(),
        cardExpiry: `${String(c.m).padStart(2, "0")}/${c.y}`,
      })),
    },
    failed: { count: count(failedTotals), totals: totals(failedTotals) },
  };
}
