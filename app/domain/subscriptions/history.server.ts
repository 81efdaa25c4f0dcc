// A subscription's history for the admin's detail page, newest first: the lifecycle events Shopify
// announced (inbound webhooks, app/domain/subscriptions/mirror.server.ts) beside every change made
// through this app, read from the audit trail (docs/decisions/125-audit-log.md). A skip changes no
// status, so no webhook announces it: only the audit trail knows it, with the dates it moved
// between; that is also what makes it undoable (docs/decisions/152-skip-undo.md).
import { prisma } from "../../db.server";

export type HistoryActor = "staff" | "api_key" | "customer" | "system";

export interface HistoryEntry {
  at: string;
  /** A lifecycle event type (subscription.paused ...) or an audited change (subscription.skip ...). */
  type: string;
  previous_status: string | null;
  new_status: string | null;
  /** Audited changes only: who made it, and the next charge and quantity it moved between. */
  actor: HistoryActor | null;
  next_charge: { before: string | null; after: string | null } | null;
  quantity: { before: number | null; after: number | null } | null;
}

/** The audited subscription changes the history shows (failed attempts stay in the audit log). */
const CHANGES = ["subscription.skip", "subscription.skip_undone", "subscription.reschedule", "subscription.update_line", "subscription.update_address"];

type Field = { before?: unknown; after?: unknown } | undefined;
const text = (v: unknown): string | null => (typeof v === "string" ? v : null);
const count = (v: unknown): number | null => (typeof v === "number" ? v : null);

export async function subscriptionHistory(shopId: string, contractGid: string, limit = 50): Promise<HistoryEntry[]> {
  const [events, changes] = await Promise.all([
    prisma.event.findMany({
      // By the contract column and its index (events_shop_id_contract_gid_created_at_id_idx), not the
      // JSON: the shop's other events are never read (docs/decisions/144-bounded-tables.md).
      where: { shopId, contractGid },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
      select: { type: true, data: true, createdAt: true },
    }),
    // (shop_id, target_id, created_at) index.
    prisma.auditEvent.findMany({
      where: { shopId, targetId: contractGid, targetType: "subscription", outcome: "success", action: { in: CHANGES } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
      select: { action: true, actorType: true, changes: true, createdAt: true },
    }),
  ]);
  const lifecycle = events.map((r): HistoryEntry => {
    const d = (r.data ?? {}) as Record<string, unknown>;
    return {
      at: r.createdAt.toISOString(),
      type: r.type,
      previous_status: text(d.previous_status),
      new_status: text(d.new_status),
      actor: null,
      next_charge: null,
      quantity: null,
    };
  });
  const audited = changes.map((r): HistoryEntry => {
    const c = (r.changes ?? {}) as Record<string, Field>;
    const next = c.next_billing_at;
    const qty = c.quantity;
    return {
      at: r.createdAt.toISOString(),
      type: r.action,
      previous_status: null,
      new_status: null,
      actor: r.actorType as HistoryActor,
      next_charge: next ? { before: text(next.before), after: text(next.after) } : null,
      quantity: qty ? { before: count(qty.before), after: count(qty.after) } : null,
    };
  });
  return [...lifecycle, ...audited].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).slice(0, limit);
}

/**
 * The skip that can be undone, if any: the contract's latest change of its next charge through
 * this app was a skip, the next charge is still the date that skip set, and the date it moved
 * from is still ahead. Anything since (a reschedule, a renewal, an undo) closes it.
 */
export async function undoableSkip(
  shopId: string,
  contract: { contractGid: string; status: string; nextBillingAt: Date | null },
  now = new Date(),
): Promise<{ restoreTo: Date } | null> {
  if (contract.status !== "ACTIVE" || !contract.nextBillingAt) return null;
  const last = await prisma.auditEvent.findFirst({
    where: {
      shopId,
      targetId: contract.contractGid,
      targetType: "subscription",
      outcome: "success",
      action: { in: ["subscription.skip", "subscription.skip_undone", "subscription.reschedule"] },
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { action: true, changes: true },
  });
  if (last?.action !== "subscription.skip") return null;
  const moved = ((last.changes ?? {}) as Record<string, Field>).next_billing_at;
  const before = text(moved?.before);
  const after = text(moved?.after);
  if (!before || !after || new Date(after).getTime() !== contract.nextBillingAt.getTime()) return null;
  const restoreTo = new Date(before);
  return restoreTo.getTime() > now.getTime() ? { restoreTo } : null;
}
