// The Audit log page's loader (app/routes/app.audit.tsx; docs/decisions/125-audit-log.md): the
// shop's audit trail, 50 a page, filtered by actor type (tabs), a search over actor and target ids,
// target type and time. Filters live in the URL; values the page does not know are dropped.
import { ACTOR_TYPES, AUDIT_RETENTION_DAYS, listAuditEvents, type AuditFilters } from "../../domain/audit/reads.server";
import { decodeCursor, encodeCursor } from "../../http/cursor.server";
import { ApiError } from "../../infra/errors";

const PAGE_SIZE = 50;
export const TARGET_TYPES = ["subscription", "api_key", "webhook_endpoint", "export", "import", "plan", "bundle", "settings"] as const;
export const SINCE = { "24h": 1, "7d": 7, "30d": 30 } as const;

const pick = <T extends string>(value: string | null, allowed: readonly T[]): T | "" =>
  (allowed as readonly string[]).includes(value ?? "") ? (value as T) : "";

export async function auditPageData(shopId: string, params: URLSearchParams, now = new Date()) {
  const actor = pick(params.get("actor"), ACTOR_TYPES);
  const target = pick(params.get("target"), TARGET_TYPES);
  const since = pick(params.get("since"), Object.keys(SINCE) as (keyof typeof SINCE)[]);
  const q = (params.get("q") ?? "").trim().slice(0, 200);
  const filters: AuditFilters = {
    ...(actor ? { actorType: actor } : {}),
    ...(target ? { targetType: target } : {}),
    ...(since ? { createdAfter: new Date(now.getTime() - SINCE[since] * 86_400_000) } : {}),
  };
  // The search box takes an actor id (key id, staff user id, customer gid) or a target id (a contract gid).
  const bind = ["audit-page", shopId, actor, target, since, q].join("|");
  let after = null;
  let cursorError: string | null = null;
  const cursor = params.get("cursor");
  if (cursor) {
    try {
      after = decodeCursor(cursor, bind);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      cursorError = "That page link is no longer valid; showing the newest events.";
    }
  }
  const page = { limit: PAGE_SIZE, after };
  const byTarget = q ? await listAuditEvents({ shopId, filters: { ...filters, targetId: q }, page }) : null;
  const result = byTarget && byTarget.data.length ? byTarget : await listAuditEvents({ shopId, filters: q ? { ...filters, actorId: q } : filters, page });
  return {
    filters: { actor, target, since, q },
    actorTypes: ACTOR_TYPES,
    targetTypes: TARGET_TYPES,
    retentionDays: AUDIT_RETENTION_DAYS,
    cursorError,
    paged: !!after,
    nextCursor: result.next ? encodeCursor(result.next, bind) : null,
    events: result.data.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() })),
  };
}
