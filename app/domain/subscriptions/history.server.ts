// A subscription's history for the admin's detail page: the lifecycle events recorded for the
// contract (from inbound Shopify webhooks, app/domain/subscriptions/mirror.server.ts), newest first.
import { prisma } from "../../db.server";

export interface HistoryEntry {
  at: string;
  type: string;
  previous_status: string | null;
  new_status: string | null;
}

export async function subscriptionHistory(shopId: string, contractGid: string, limit = 50): Promise<HistoryEntry[]> {
  const rows = await prisma.event.findMany({
    // By the contract column and its index (events_shop_id_contract_gid_created_at_id_idx), not the
    // JSON: the shop's other events are never read (docs/decisions/144-bounded-tables.md).
    where: { shopId, contractGid },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { type: true, data: true, createdAt: true },
  });
  return rows.map((r) => {
    const d = (r.data ?? {}) as Record<string, unknown>;
    return {
      at: r.createdAt.toISOString(),
      type: r.type,
      previous_status: typeof d.previous_status === "string" ? d.previous_status : null,
      new_status: typeof d.new_status === "string" ? d.new_status : null,
    };
  });
}
