// Analytics by month (GET /analytics/trends; definitions in docs/decisions/153-analytics-trends.md):
// MRR at each month's end, churn within each month, win-back sends and reactivations per month,
// for the twelve calendar months (UTC, like every analytics figure: docs/decisions/022) ending with
// the current one. Three aggregates over one shop's rows, each one statement over
// generate_series, reached through the (shop_id, ...) indexes.
import { prisma } from "../../db.server";
import { money, type Money } from "../shared/money.server";

export const TREND_MONTHS = 12;

export interface MonthTrend {
  /** YYYY-MM (UTC). */
  month: string;
  /** The month's end, or now for the current month: the instant MRR and "at start" are read at. */
  end: Date;
  mrr: Money[];
  activeContracts: number;
  subscribersAtStart: number;
  churned: number;
  churnRate: number | null;
  newSubscriptions: number;
  sends: number;
  reactivated: number;
}

export interface TrendsView {
  asOf: Date;
  /** Oldest first. */
  months: MonthTrend[];
}

const rate = (num: number, den: number): number | null => (den > 0 ? Math.round((num / den) * 10_000) / 10_000 : null);

export async function trends(shopId: string, now = new Date()): Promise<TrendsView> {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (TREND_MONTHS - 1), 1));
  // Each month: [start, end), the current one ending now.
  const months = Array.from({ length: TREND_MONTHS }, (_, i) => {
    const start = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + i, 1));
    const next = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + i + 1, 1));
    return { start, end: next > now ? now : next };
  });
  const starts = months.map((m) => m.start);
  const ends = months.map((m) => m.end);

  const [mrrRows, churnRows, winbackRows] = await Promise.all([
    // MRR at a month's end: contracts created by then and not ended by then, counting those that
    // are ACTIVE now and those that ended later; PAUSED and STALE ones count nowhere (the mirror
    // keeps no pause history). The current month's point is therefore GET /analytics/mrr.
    prisma.$queryRaw<Array<{ i: number; currency_code: string; active: number; cents: bigint }>>`
      SELECT m.i::int AS i, c.currency_code, count(*)::int AS active, COALESCE(sum(c.monthly_amount_cents), 0)::bigint AS cents
      FROM unnest(${ends}::timestamp[]) WITH ORDINALITY AS m(at, i)
      JOIN contracts c ON c.shop_id = ${shopId} AND c.created_by_service AND c.created_at < m.at
        AND (c.ended_at IS NULL OR c.ended_at >= m.at)
        AND (c.status = 'ACTIVE'::"ContractStatus" OR c.ended_at IS NOT NULL)
      GROUP BY m.i, c.currency_code`,
    // Churn within a month, as GET /analytics/churn defines it over a range.
    prisma.$queryRaw<Array<{ i: number; at_start: number; churned: number; created: number }>>`
      SELECT m.i::int AS i,
        count(c.id) FILTER (WHERE c.created_at < m.s AND (c.ended_at IS NULL OR c.ended_at >= m.s))::int AS at_start,
        count(c.id) FILTER (WHERE c.created_at < m.s AND c.ended_at >= m.s AND c.ended_at < m.e)::int AS churned,
        count(c.id) FILTER (WHERE c.created_at >= m.s AND c.created_at < m.e)::int AS created
      FROM unnest(${starts}::timestamp[], ${ends}::timestamp[]) WITH ORDINALITY AS m(s, e, i)
      LEFT JOIN contracts c ON c.shop_id = ${shopId} AND c.created_by_service AND c.created_at < m.e
      GROUP BY m.i`,
    prisma.$queryRaw<Array<{ i: number; sends: number; reactivated: number }>>`
      SELECT m.i::int AS i, count(w.id)::int AS sends, count(w.id) FILTER (WHERE w.reactivated)::int AS reactivated
      FROM unnest(${starts}::timestamp[], ${ends}::timestamp[]) WITH ORDINALITY AS m(s, e, i)
      LEFT JOIN winback_sends w ON w.shop_id = ${shopId} AND w.sent_at >= m.s AND w.sent_at < m.e
      GROUP BY m.i`,
  ]);

  return {
    asOf: now,
    months: months.map((m, idx) => {
      const i = idx + 1; // WITH ORDINALITY counts from 1
      const mrr = mrrRows
        .filter((r) => r.i === i)
        .sort((a, b) => (BigInt(b.cents) > BigInt(a.cents) ? 1 : BigInt(b.cents) < BigInt(a.cents) ? -1 : a.currency_code.localeCompare(b.currency_code)));
      const ch = churnRows.find((r) => r.i === i);
      const wb = winbackRows.find((r) => r.i === i);
      return {
        month: `${m.start.getUTCFullYear()}-${String(m.start.getUTCMonth() + 1).padStart(2, "0")}`,
        end: m.end,
        mrr: mrr.map((r) => money(BigInt(r.cents), r.currency_code)!),
        activeContracts: mrr.reduce((s, r) => s + r.active, 0),
        subscribersAtStart: ch?.at_start ?? 0,
        churned: ch?.churned ?? 0,
        churnRate: rate(ch?.churned ?? 0, ch?.at_start ?? 0),
        newSubscriptions: ch?.created ?? 0,
        sends: wb?.sends ?? 0,
        reactivated: wb?.reactivated ?? 0,
      };
    }),
  };
}
