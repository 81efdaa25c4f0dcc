// What the Billing settings page shows besides the policy: the shop's contracts in dunning now
// (docs/decisions/081). Tenancy: every read is scoped by the shop's id.
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
  amount: Money | null;
  reason: string;
  attempts: number;
  nextRetryAt: string | null;
}

export interface RevenueAtRisk {
  dunning: { count: number; totals: Money[]; rows: AtRiskPayment[] };
  failed: { count: number; totals: Money[] };
}

/**
 * What the Risk Center leads with: payments in dunning (the amount each charge is worth, the
 * reason in words, the next retry) and subscriptions whose payments were given up on (FAILED).
 * Totals per currency, never converted.
 */
export async function revenueAtRisk(shopId: string, limit = 10): Promise<RevenueAtRisk> {
  const [dunningTotals, cycles, failedTotals] = await Promise.all([
    prisma.$queryRaw<{ currency_code: string; cents: bigint; n: bigint }[]>`
      SELECT c.currency_code, COALESCE(SUM(c.charge_amount_cents), 0) AS cents, COUNT(*) AS n
      FROM billing_cycles b JOIN contracts c ON c.id = b.contract_id
      WHERE b.shop_id = ${shopId} AND b.status = 'DUNNING' GROUP BY c.currency_code ORDER BY c.currency_code`,
    prisma.billingCycle.findMany({
      where: { shopId, status: "DUNNING" },
      orderBy: [{ nextRetryAt: "asc" }, { id: "asc" }],
      take: limit,
      include: { contract: { select: { chargeAmountCents: true, currencyCode: true } } },
    }),
    prisma.$queryRaw<{ currency_code: string; cents: bigint; n: bigint }[]>`
      SELECT currency_code, COALESCE(SUM(charge_amount_cents), 0) AS cents, COUNT(*) AS n
      FROM contracts WHERE shop_id = ${shopId} AND created_by_service AND status = 'FAILED' GROUP BY currency_code ORDER BY currency_code`,
  ]);
  const totals = (rows: { currency_code: string; cents: bigint }[]) => rows.map((r) => money(r.cents, r.currency_code)!);
  const count = (rows: { n: bigint }[]) => rows.reduce((sum, r) => sum + Number(r.n), 0);
  return {
    dunning: {
      count: count(dunningTotals),
      totals: totals(dunningTotals),
      rows: cycles.map((c) => ({
        contractGid: c.contractGid,
        amount: money(c.contract.chargeAmountCents, c.contract.currencyCode),
        reason: chargeFailureReason(c.lastErrorCode),
        attempts: c.attempts,
        nextRetryAt: iso(c.nextRetryAt),
      })),
    },
    failed: { count: count(failedTotals), totals: totals(failedTotals) },
  };
}
