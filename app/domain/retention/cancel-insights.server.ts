// Cancellation insights (docs/decisions/114-cancellation-insights.md): what the cancel flow saved,
// from the rows the Customer API's cancel-reason and save-event record. One shop's rows only,
// through their (shop_id, created_at) indexes. Definitions:
// - cancellations by reason: cancel-reason rows in the range (a survey answer per cancel flow);
//   `cancelledWithoutReason` counts the mirror's contracts cancelled in the range that never got a
//   reason (the survey was off, skipped, or the cancel happened at Shopify);
// - offers: save-event rows per offer type and event type (`shown`, `accepted`);
// - save rate: of the contracts shown at least one offer in the range, the share that also accepted
//   one in the range (an accepted event without a shown one in the same period is not a save here:
//   the Customer API reference asks clients to send both);
// - revenue preserved: the sum of accepted events' preserved revenue, which the Customer API derived
//   from the mirror (the contract's monthly amount), per currency of the contract.
import { prisma } from "../../db.server";
import { money, type Money } from "../shared/money.server";
import { RANGES, rangeBounds, type Range } from "../insights/analytics.server";

export { RANGES };
export const OFFER_TYPES = ["pause", "skip", "discount"] as const;

/** Buckets small enough to show a trend, few enough to read: days, weeks or months. */
export const BUCKET_OF: Record<Range, "day" | "week" | "month"> = { "7d": "day", "30d": "day", "90d": "week", "12mo": "month" };

export interface OfferFigures {
  offerType: (typeof OFFER_TYPES)[number];
  shown: number;
  accepted: number;
  /** accepted / shown, 4 decimals; null when never shown. */
  acceptanceRate: number | null;
}

export interface InsightBucket {
  /** Start of the bucket (UTC), clamped to the range's start. */
  start: Date;
  cancellations: number;
  offersShown: number;
  offersAccepted: number;
  contractsShown: number;
  contractsSaved: number;
  saveRate: number | null;
}

export interface CancellationInsights {
  range: Range;
  start: Date;
  end: Date;
  bucket: "day" | "week" | "month";
  byReason: Array<{ reason: string; count: number }>;
  cancelledWithoutReason: number;
  offers: OfferFigures[];
  contractsShown: number;
  contractsSaved: number;
  saveRate: number | null;
  revenuePreserved: Money[];
  series: InsightBucket[];
}

const rate = (num: number, den: number): number | null => (den > 0 ? Math.round((num / den) * 10_000) / 10_000 : null);

export async function cancellationInsights(shopId: string, range: Range, now = new Date()): Promise<CancellationInsights> {
  const { start, end } = rangeBounds(range, now);
  const unit = BUCKET_OF[range];
  const [reasons, offers, totals, preserved, cancelled, series] = await Promise.all([
    prisma.$queryRaw<Array<{ reason: string; n: number }>>`
      SELECT reason, count(*)::int AS n FROM cancel_reasons
      WHERE shop_id = ${shopId} AND created_at >= ${start} AND created_at < ${end}
      GROUP BY reason ORDER BY n DESC, reason`,
    prisma.$queryRaw<Array<{ offer_type: string; shown: number; accepted: number }>>`
      SELECT offer_type,
        count(*) FILTER (WHERE event_type = 'shown')::int AS shown,
        count(*) FILTER (WHERE event_type = 'accepted')::int AS accepted
      FROM save_events WHERE shop_id = ${shopId} AND created_at >= ${start} AND created_at < ${end}
      GROUP BY offer_type`,
    prisma.$queryRaw<Array<{ shown: number; saved: number }>>`
      WITH e AS (
        SELECT contract_gid, bool_or(event_type = 'shown') AS shown, bool_or(event_type = 'accepted') AS accepted
        FROM save_events WHERE shop_id = ${shopId} AND created_at >= ${start} AND created_at < ${end}
        GROUP BY contract_gid
      )
      SELECT count(*) FILTER (WHERE shown)::int AS shown, count(*) FILTER (WHERE shown AND accepted)::int AS saved FROM e`,
    prisma.$queryRaw<Array<{ currency_code: string; cents: bigint }>>`
      SELECT c.currency_code, sum(s.preserved_revenue_cents)::bigint AS cents
      FROM save_events s JOIN contracts c ON c.shop_id = s.shop_id AND c.contract_gid = s.contract_gid
      WHERE s.shop_id = ${shopId} AND s.event_type = 'accepted' AND s.created_at >= ${start} AND s.created_at < ${end}
      GROUP BY c.currency_code ORDER BY cents DESC, c.currency_code`,
    prisma.$queryRaw<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM contracts c
      WHERE c.shop_id = ${shopId} AND c.created_by_service AND c.status = 'CANCELLED' AND c.ended_at >= ${start} AND c.ended_at < ${end}
        AND NOT EXISTS (SELECT 1 FROM cancel_reasons r WHERE r.shop_id = c.shop_id AND r.contract_gid = c.contract_gid)`,
    // One row per bucket, empty ones included, so a chart's x axis is the range's calendar.
    prisma.$queryRaw<Array<{ bucket: Date; cancellations: number; shown: number; accepted: number; c_shown: number; c_saved: number }>>`
      WITH b AS (
        SELECT g AS bucket, g + ('1 ' || ${unit})::interval AS next
        FROM generate_series(date_trunc(${unit}, ${start}::timestamp), ${end}::timestamp, ('1 ' || ${unit})::interval) AS g
        WHERE g < ${end}::timestamp
      )
      SELECT greatest(b.bucket, ${start}::timestamp) AS bucket,
        (SELECT count(*) FROM cancel_reasons r WHERE r.shop_id = ${shopId}
           AND r.created_at >= greatest(b.bucket, ${start}::timestamp) AND r.created_at < least(b.next, ${end}::timestamp))::int AS cancellations,
        e.shown, e.accepted, e.c_shown, e.c_saved
      FROM b CROSS JOIN LATERAL (
        SELECT coalesce(sum(k.shown), 0)::int AS shown, coalesce(sum(k.accepted), 0)::int AS accepted,
          count(*) FILTER (WHERE k.shown > 0)::int AS c_shown, count(*) FILTER (WHERE k.shown > 0 AND k.accepted > 0)::int AS c_saved
        FROM (
          SELECT count(*) FILTER (WHERE event_type = 'shown') AS shown, count(*) FILTER (WHERE event_type = 'accepted') AS accepted
          FROM save_events s WHERE s.shop_id = ${shopId}
            AND s.created_at >= greatest(b.bucket, ${start}::timestamp) AND s.created_at < least(b.next, ${end}::timestamp)
          GROUP BY s.contract_gid
        ) k
      ) e
      ORDER BY b.bucket`,
  ]);
  const byType = new Map(offers.map((o) => [o.offer_type, o]));
  const [t] = totals;
  const [c] = cancelled;
  return {
    range,
    start,
    end,
    bucket: unit,
    byReason: reasons.map((r) => ({ reason: r.reason, count: r.n })),
    cancelledWithoutReason: c.n,
    offers: OFFER_TYPES.map((offerType) => {
      const o = byType.get(offerType);
      const shown = o?.shown ?? 0;
      const accepted = o?.accepted ?? 0;
      return { offerType, shown, accepted, acceptanceRate: rate(accepted, shown) };
    }),
    contractsShown: t.shown,
    contractsSaved: t.saved,
    saveRate: rate(t.saved, t.shown),
    revenuePreserved: preserved.map((p) => money(p.cents, p.currency_code)!),
    series: series.map((s) => ({
      start: s.bucket,
      cancellations: s.cancellations,
      offersShown: s.shown,
      offersAccepted: s.accepted,
      contractsShown: s.c_shown,
      contractsSaved: s.c_saved,
      saveRate: rate(s.c_saved, s.c_shown),
    })),
  };
}
