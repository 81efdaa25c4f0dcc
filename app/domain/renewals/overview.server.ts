// What the Billing settings page shows besides the policy: the shop's contracts in dunning now
// (docs/decisions/081). Tenancy: every read is scoped by the shop's id.
import { prisma } from "../../db.server";
import { iso } from "../shared/money.server";

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
