// Analytics (/analytics/mrr, churn, cohorts, recovery: docs/decisions/022-analytics-definitions.md). One implementation, in SQL, that
// the Admin API and the in-app dashboards both call. Every query is one aggregate over one shop's
// rows (reached through the (shop_id, ...) indexes), so it never touches another shop's data and
// its cost is bounded by that shop's size, not by the table's (1M contracts across 100 shops).
// Definitions: docs/decisions/022-analytics-definitions.md. Typed views out; the Admin API shapes
// them (app/surfaces/admin/wire.ts, docs/decisions/100-one-read-side.md).
import { prisma } from "../../db.server";
import { money, type Money } from "../shared/money.server";

export const RANGES = ["7d", "30d", "90d", "12mo"] as const;
export type Range = (typeof RANGES)[number];
export const WINDOWS = ["12", "24", "all"] as const;
export type Window = (typeof WINDOWS)[number];

/** [start, end) of a range ending now; 12mo is twelve calendar months back. */
export function rangeBounds(range: Range, now = new Date()): { start: Date; end: Date } {
  const end = new Date(now);
  let start: Date;
  if (range === "12mo") {
    start = new Date(now);
    start.setUTCMonth(start.getUTCMonth() - 12);
  } else {
    start = new Date(now.getTime() - Number(range.slice(0, -1)) * 86_400_000);
  }
  return { start, end };
}

const rate = (num: number, den: number): number | null => (den > 0 ? Math.round((num / den) * 10_000) / 10_000 : null);

function sortMoney(list: Money[], cents: Map<string, bigint>): Money[] {
  return list.sort((a, b) => {
    const d = (cents.get(b.currency_code) ?? 0n) - (cents.get(a.currency_code) ?? 0n);
    return d > 0n ? 1 : d < 0n ? -1 : a.currency_code.localeCompare(b.currency_code);
  });
}

// --- MRR -----------------------------------------------------------------------------------

export interface MrrView {
  asOf: Date;
  /** Sum of monthly amounts of ACTIVE contracts, one entry per currency, largest first. */
  mrr: Money[];
  activeContracts: number;
  /** ACTIVE contracts whose monthly amount was never backfilled; they contribute zero. */
  contractsMissingAmount: number;
}

export async function mrr(shopId: string, now = new Date()): Promise<MrrView> {
  const rows = await prisma.$queryRaw<Array<{ currency_code: string; active: number; missing: number; cents: bigint }>>`
    SELECT currency_code,
           count(*)::int AS active,
           count(*) FILTER (WHERE monthly_amount_cents IS NULL)::int AS missing,
           COALESCE(sum(monthly_amount_cents), 0)::bigint AS cents
    FROM contracts
    WHERE shop_id = ${shopId} AND created_by_service AND status = 'ACTIVE'::"ContractStatus"
    GROUP BY currency_code`;
  const cents = new Map(rows.map((r) => [r.currency_code, BigInt(r.cents)]));
  return {
    asOf: now,
    mrr: sortMoney(
      rows.map((r) => money(BigInt(r.cents), r.currency_code)!),
      cents,
    ),
    activeContracts: rows.reduce((s, r) => s + r.active, 0),
    contractsMissingAmount: rows.reduce((s, r) => s + r.missing, 0),
  };
}

// --- Churn ---------------------------------------------------------------------------------

export interface ChurnView {
  range: Range;
  start: Date;
  end: Date;
  /** Contracts created before start that had not ended by it (ended_at, docs/decisions/041). */
  subscribersAtStart: number;
  /** Of those, the ones that ended (CANCELLED, EXPIRED or FAILED) within the range. */
  churned: number;
  /** churned / subscribersAtStart, 4 decimals; null when there was nobody to churn. */
  churnRate: number | null;
  newSubscriptions: number;
  /** Every contract that ended within the range, including ones created within it. */
  endedTotal: number;
}

export async function churn(shopId: string, range: Range, now = new Date()): Promise<ChurnView> {
  const { start, end } = rangeBounds(range, now);
  const [r] = await prisma.$queryRaw<Array<{ at_start: number; churned: number; created: number; ended: number }>>`
    WITH c AS (
      SELECT created_at, ended_at
      FROM contracts WHERE shop_id = ${shopId} AND created_by_service AND created_at < ${end}
    )
    SELECT
      count(*) FILTER (WHERE created_at < ${start} AND (ended_at IS NULL OR ended_at >= ${start}))::int AS at_start,
      count(*) FILTER (WHERE created_at < ${start} AND ended_at >= ${start} AND ended_at < ${end})::int AS churned,
      count(*) FILTER (WHERE created_at >= ${start})::int AS created,
      count(*) FILTER (WHERE ended_at >= ${start} AND ended_at < ${end})::int AS ended
    FROM c`;
  return {
    range,
    start,
    end,
    subscribersAtStart: r.at_start,
    churned: r.churned,
    churnRate: rate(r.churned, r.at_start),
    newSubscriptions: r.created,
    endedTotal: r.ended,
  };
}

// --- Cohorts -------------------------------------------------------------------------------

export interface CohortView {
  /** Signup month (UTC), YYYY-MM. */
  cohort: string;
  size: number;
  /** month k = still live at the cohort month's start + k months; up to the current month. */
  retention: Array<{ month: number; active: number; rate: number | null }>;
}

export interface CohortsView {
  window: Window;
  asOf: Date;
  cohorts: CohortView[];
}

function monthStart(d: Date, deltaMonths = 0): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + deltaMonths, 1));
}

export async function cohorts(shopId: string, window: Window, now = new Date()): Promise<CohortsView> {
  // Read from the per-shop cohort summary (contract_cohorts, kept exact by a trigger on
  // contracts; docs/decisions/009): its size is the number of months, not of contracts.
  const monthIndex = (d: Date) => d.getUTCFullYear() * 12 + d.getUTCMonth();
  const first = window === "all" ? undefined : monthIndex(monthStart(now, -(Number(window) - 1)));
  const cells = await prisma.contractCohort.findMany({
    where: { shopId, count: { gt: 0 }, cohortMonth: { gte: first, lte: monthIndex(now) } },
    select: { cohortMonth: true, endedMonth: true, count: true },
  });
  const byCohort = new Map<string, { start: Date; size: number; ends: Map<number, number> }>();
  for (const c of cells) {
    const start = new Date(Date.UTC(Math.floor(c.cohortMonth / 12), c.cohortMonth % 12, 1));
    const key = `${start.getUTCFullYear()}-${String(start.getUTCMonth() + 1).padStart(2, "0")}`;
    const entry = byCohort.get(key) ?? { start, size: 0, ends: new Map<number, number>() };
    entry.size += c.count;
    // end_k: the first month boundary at which the contract no longer counts.
    if (c.endedMonth >= 0) {
      const endK = c.endedMonth - c.cohortMonth + 1;
      entry.ends.set(endK, (entry.ends.get(endK) ?? 0) + c.count);
    }
    byCohort.set(key, entry);
  }
  const thisMonth = monthStart(now);
  const out: CohortView[] = [...byCohort.entries()]
    .sort(([a], [b]) => (a < b ? 1 : -1))
    .map(([cohort, e]) => {
      const maxK = (thisMonth.getUTCFullYear() - e.start.getUTCFullYear()) * 12 + (thisMonth.getUTCMonth() - e.start.getUTCMonth());
      const retention: CohortView["retention"] = [];
      let ended = 0;
      for (let k = 0; k <= maxK; k++) {
        ended += e.ends.get(k) ?? 0;
        const active = e.size - ended;
        retention.push({ month: k, active, rate: rate(active, e.size) });
      }
      return { cohort, size: e.size, retention };
    });
  return { window, asOf: now, cohorts: out };
}

// --- Recovery ------------------------------------------------------------------------------

export interface RecoveryView {
  range: Range;
  start: Date;
  end: Date;
  /** Win-back sends sent within the range. */
  sends: number;
  /** Of those, the ones whose contract was reactivated (at any time since the send). */
  reactivated: number;
  recoveryRate: number | null;
  /** Sum of the recovered amounts of those reactivations, per currency, largest first. */
  recoveredAmount: Money[];
}

export async function recovery(shopId: string, range: Range, now = new Date()): Promise<RecoveryView> {
  const { start, end } = rangeBounds(range, now);
  const rows = await prisma.$queryRaw<Array<{ currency_code: string; sends: number; reactivated: number; cents: bigint }>>`
    SELECT currency_code,
           count(*)::int AS sends,
           count(*) FILTER (WHERE reactivated)::int AS reactivated,
           COALESCE(sum(recovered_amount_cents) FILTER (WHERE reactivated), 0)::bigint AS cents
    FROM winback_sends
    WHERE shop_id = ${shopId} AND sent_at >= ${start} AND sent_at < ${end}
    GROUP BY currency_code`;
  const sends = rows.reduce((s, r) => s + r.sends, 0);
  const reactivated = rows.reduce((s, r) => s + r.reactivated, 0);
  const cents = new Map(rows.map((r) => [r.currency_code, BigInt(r.cents)]));
  return {
    range,
    start,
    end,
    sends,
    reactivated,
    recoveryRate: rate(reactivated, sends),
    recoveredAmount: sortMoney(
      rows.filter((r) => BigInt(r.cents) > 0n).map((r) => money(BigInt(r.cents), r.currency_code)!),
      cents,
    ),
  };
}
