// Attribution of a win-back campaign (docs/decisions/115-winback-audience.md, 117): the same rule
// for both groups, so the hold-out is a fair baseline.
//   - reactivated: the customer has a new contract created after the decision and within the
//     campaign's attribution window (the come-back link's clone records it at once; a contract
//     bought at checkout is found here), reactivated_at its creation, new_contract_gid its id;
//   - recovered_amount: the succeeded charges of that contract within the window from reactivated_at
//     (the billing engine's attempts, minor units of the contract's currency). Refreshed by every
//     campaign run and after each billing outcome of a win-back contract.
import type { Prisma } from "@prisma/client";
import { prisma } from "../../db.server";
import { money, type Money } from "../shared/money.server";
import { incrementality, type Incrementality } from "./winback-audience";

/** Marks reactivations found in the mirror, then recounts recovered revenue, for the shop's campaigns. */
export async function refreshAttribution(shopId: string): Promise<void> {
  await prisma.$executeRaw`
    WITH found AS (
      SELECT s.id, n.contract_gid, n.created_at
      FROM winback_sends s JOIN winback_campaigns k ON k.id = s.campaign_id
      CROSS JOIN LATERAL (SELECT c.contract_gid, c.created_at FROM contracts c
               WHERE c.shop_id = s.shop_id AND c.customer_gid = s.customer_gid AND c.contract_gid <> s.contract_gid
                 AND c.created_at > s.decided_at AND c.created_at <= s.decided_at + make_interval(days => k.attribution_days)
               ORDER BY c.created_at, c.contract_gid LIMIT 1) n
      WHERE s.shop_id = ${shopId} AND NOT s.reactivated)
    UPDATE winback_sends s SET reactivated = true, reactivated_at = f.created_at, new_contract_gid = f.contract_gid
    FROM found f WHERE s.id = f.id AND NOT s.reactivated`;
  await recountRecovered(shopId, null);
}

/** Recounts recovered revenue of the shop's reactivated sends (of one new contract, after its billing outcome). */
export async function recountRecovered(shopId: string, newContractGid: string | null, db: Prisma.TransactionClient | typeof prisma = prisma): Promise<number> {
  return db.$executeRaw`
    UPDATE winback_sends s SET recovered_amount_cents = COALESCE((
      SELECT sum(a.amount_minor) FROM billing_cycles b JOIN billing_attempts a ON a.cycle_id = b.id
       WHERE b.shop_id = s.shop_id AND b.contract_gid = s.new_contract_gid AND a.status = 'SUCCEEDED'
         AND COALESCE(a.completed_at, a.created_at) >= s.reactivated_at
         AND COALESCE(a.completed_at, a.created_at) <= s.reactivated_at + make_interval(days => k.attribution_days)), 0)
    FROM winback_campaigns k
    WHERE s.shop_id = ${shopId} AND k.id = s.campaign_id AND s.reactivated AND s.new_contract_gid IS NOT NULL
      AND (${newContractGid}::text IS NULL OR s.new_contract_gid = ${newContractGid})`;
}

export interface GroupFigures {
  customers: number;
  reactivated: number;
  recovered: Money[];
}

export interface CampaignResults {
  sent: GroupFigures;
  holdout: GroupFigures;
  sentRate: number | null;
  holdoutRate: number | null;
  incrementalReactivations: number | null;
  /** Per currency: the raw recovered revenue of the sent group and what the e-mail added over the hold-out's baseline. */
  revenue: { currency: string; raw: Money; incremental: Money | null }[];
}

interface Row {
  held_out: boolean;
  currency_code: string;
  customers: number;
  reactivated: number;
  recovered: number;
}

/** The campaign's two groups and what the campaign added (incrementality, docs/decisions/115). */
export async function campaignResults(shopId: string, campaignId: string): Promise<CampaignResults> {
  const rows = await prisma.$queryRaw<Row[]>`
    SELECT held_out, currency_code, count(*)::int AS customers, count(*) FILTER (WHERE reactivated)::int AS reactivated,
           COALESCE(sum(recovered_amount_cents), 0)::int AS recovered
    FROM winback_sends WHERE shop_id = ${shopId} AND campaign_id = ${campaignId}
    GROUP BY held_out, currency_code ORDER BY currency_code`;
  return resultsOf(rows);
}

/** The results of several campaigns at once (a page of the list): one query. */
export async function resultsOfCampaigns(shopId: string, campaignIds: string[]): Promise<Map<string, CampaignResults>> {
  if (!campaignIds.length) return new Map();
  const rows = await prisma.$queryRaw<(Row & { campaign_id: string })[]>`
    SELECT campaign_id, held_out, currency_code, count(*)::int AS customers, count(*) FILTER (WHERE reactivated)::int AS reactivated,
           COALESCE(sum(recovered_amount_cents), 0)::int AS recovered
    FROM winback_sends WHERE shop_id = ${shopId} AND campaign_id = ANY(${campaignIds}::text[])
    GROUP BY campaign_id, held_out, currency_code ORDER BY currency_code`;
  return new Map(campaignIds.map((id) => [id, resultsOf(rows.filter((r) => r.campaign_id === id))]));
}

export function resultsOf(rows: Row[]): CampaignResults {
  const group = (held: boolean) => rows.filter((r) => r.held_out === held);
  const totals = (rs: Row[]) => ({ size: rs.reduce((n, r) => n + r.customers, 0), reactivated: rs.reduce((n, r) => n + r.reactivated, 0) });
  const sent = totals(group(false));
  const hold = totals(group(true));
  const rates: Incrementality = incrementality({ ...sent, recoveredMinor: 0 }, { ...hold, recoveredMinor: 0 });
  const currencies = [...new Set(rows.map((r) => r.currency_code))].sort();
  const recoveredIn = (held: boolean, cur: string) => group(held).find((r) => r.currency_code === cur)?.recovered ?? 0;
  const revenue = currencies.map((cur) => {
    const inc = incrementality({ ...sent, recoveredMinor: recoveredIn(false, cur) }, { ...hold, recoveredMinor: recoveredIn(true, cur) });
    return {
      currency: cur,
      raw: money(inc.rawRecoveredMinor, cur)!,
      incremental: inc.incrementalRecoveredMinor === null ? null : money(inc.incrementalRecoveredMinor, cur)!,
    };
  });
  const figures = (held: boolean, t: { size: number; reactivated: number }): GroupFigures => ({
    customers: t.size,
    reactivated: t.reactivated,
    recovered: currencies.map((cur) => money(recoveredIn(held, cur), cur)!),
  });
  return {
    sent: figures(false, sent),
    holdout: figures(true, hold),
    sentRate: rates.sentRate,
    holdoutRate: rates.holdoutRate,
    incrementalReactivations: rates.incrementalReactivations,
    revenue,
  };
}
