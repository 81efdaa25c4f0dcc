// Reading the audit trail (GET /audit-events and the admin's Audit log page) and its retention
// (docs/decisions/125-audit-log.md): keyset-paged (created_at desc, id desc) like every list.
import { Prisma, type AuditEvent } from "@prisma/client";
import { prisma } from "../../db.server";
import { deleteInBatches } from "../../infra/batched-delete.server";
import { KEYSET_ORDER, afterWhere, toPage, type PageRequest, type PageResult } from "../shared/paging.server";
import type { Changes } from "./audit.server";

/** Kept 400 days: a year of history plus a month to compare a year-end against (docs/decisions/125-audit-log.md). */
export const AUDIT_RETENTION_DAYS = 400;

export const ACTOR_TYPES = ["api_key", "staff", "customer", "system"] as const;
export const OUTCOMES = ["success", "failure"] as const;

export interface AuditFilters {
  actorType?: (typeof ACTOR_TYPES)[number];
  actorId?: string;
  targetType?: string;
  targetId?: string;
  action?: string;
  outcome?: (typeof OUTCOMES)[number];
  createdAfter?: Date;
  createdBefore?: Date;
}

export interface AuditEventView {
  id: string;
  actor: { type: string; id: string; name: string | null };
  requestId: string | null;
  action: string;
  target: { type: string; id: string };
  outcome: string;
  errorCode: string | null;
  changes: Changes;
  createdAt: Date;
}

export const auditView = (r: AuditEvent): AuditEventView => ({
  id: r.id,
  actor: { type: r.actorType, id: r.actorId, name: r.actorName },
  requestId: r.requestId,
  action: r.action,
  target: { type: r.targetType, id: r.targetId },
  outcome: r.outcome,
  errorCode: r.errorCode,
  changes: (r.changes ?? {}) as Changes,
  createdAt: r.createdAt,
});

export function auditWhere(shopId: string, f: AuditFilters): Prisma.AuditEventWhereInput {
  const createdAt: Prisma.DateTimeFilter = {};
  if (f.createdAfter) createdAt.gte = f.createdAfter;
  if (f.createdBefore) createdAt.lt = f.createdBefore;
  return {
    shopId,
    ...(f.actorType ? { actorType: f.actorType } : {}),
    ...(f.actorId ? { actorId: f.actorId } : {}),
    ...(f.targetType ? { targetType: f.targetType } : {}),
    ...(f.targetId ? { targetId: f.targetId } : {}),
    ...(f.action ? { action: f.action } : {}),
    ...(f.outcome ? { outcome: f.outcome } : {}),
    ...(f.createdAfter || f.createdBefore ? { createdAt } : {}),
  };
}

export async function listAuditEvents(input: { shopId: string; filters: AuditFilters; page: PageRequest }): Promise<PageResult<AuditEventView>> {
  const rows = await prisma.auditEvent.findMany({
    where: { AND: [auditWhere(input.shopId, input.filters), afterWhere(input.page.after)] },
    orderBy: KEYSET_ORDER,
    take: input.page.limit + 1,
  });
  return toPage(rows, input.page.limit, auditView);
}

/** The retention rule, run by the daily sweep: idempotent, in bounded batches (docs/decisions/144-bounded-tables.md). */
export async function pruneAuditEvents(now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - AUDIT_RETENTION_DAYS * 86_400_000);
  return deleteInBatches("audit_events", Prisma.sql`created_at < ${cutoff}`);
}
