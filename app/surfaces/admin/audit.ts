// GET /audit-events (/docs#tag/Admin-API:-Audit-log; docs/decisions/125-audit-log.md): the shop's audit trail,
// newest first, keyset-paged like every list, under read:audit. Additive to v1.
import { z } from "zod";
import { defineRoute } from "../../http/route";
import { decodeCursor, toEnvelope } from "../../http/cursor.server";
import { clampLimit } from "../../domain/shared/paging.server";
import { ACTOR_TYPES, AUDIT_RETENTION_DAYS, OUTCOMES, listAuditEvents, type AuditEventView } from "../../domain/audit/reads.server";
import { isoTimestamp } from "../fields";
import { page, Timestamp } from "./schemas";

const FieldValue = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.union([z.string(), z.number(), z.boolean()]))]);

export const AuditEvent = z.strictObject({
  id: z.string().describe("aud_…"),
  actor: z.strictObject({
    type: z.enum(ACTOR_TYPES).describe("api_key, staff (a Shopify staff user of the embedded admin), customer (a customer session) or system (a job)"),
    id: z.string().describe("the key id, the Shopify user id, the customer gid, or the job's name"),
    name: z.string().nullable().describe("the key's name; null for other actors"),
  }),
  request_id: z.string().nullable().describe("X-Service-Request-Id of the request that made the change; null for jobs and the admin"),
  action: z.string().meta({ example: "subscription.pause" }).describe("<target type>.<verb>"),
  target: z.strictObject({ type: z.string(), id: z.string().describe('the changed record\'s id ("new" when a create was refused)') }),
  outcome: z.enum(OUTCOMES),
  error_code: z.string().nullable().describe("the error code of a refused change"),
  changes: z.record(z.string(), z.strictObject({ before: FieldValue, after: FieldValue })).describe("the fields that changed; never a secret"),
  created_at: Timestamp,
});

const auditJson = (e: AuditEventView): z.input<typeof AuditEvent> => ({
  id: e.id,
  actor: { type: e.actor.type as (typeof ACTOR_TYPES)[number], id: e.actor.id, name: e.actor.name },
  request_id: e.requestId,
  action: e.action,
  target: e.target,
  outcome: e.outcome as (typeof OUTCOMES)[number],
  error_code: e.errorCode,
  changes: e.changes,
  created_at: e.createdAt.toISOString(),
});

const short = z.string().max(200);

export const adminAuditRoutes = [
  defineRoute({
    method: "GET",
    path: "/audit-events",
    scopes: ["read:audit"],
    query: z
      .object({
        limit: z.string().optional().describe("Page size: default 50, maximum 250 (larger values are clamped)"),
        cursor: z.string().optional().describe("Opaque cursor from next_cursor"),
        actor_type: z.enum(ACTOR_TYPES).optional().describe("api_key, staff, customer or system"),
        actor_id: short.optional().describe("one actor: a key id, a Shopify user id, a customer gid or a job name"),
        target_type: short.optional().describe("subscription, api_key, webhook_endpoint, export, import, plan, settings, …"),
        target_id: short.optional().describe("one record, e.g. a contract gid"),
        action: short.optional().describe("e.g. subscription.pause"),
        outcome: z.enum(OUTCOMES).optional(),
        created_after: isoTimestamp().optional().describe("at or after this ISO 8601 timestamp"),
        created_before: isoTimestamp().optional().describe("strictly before this ISO 8601 timestamp"),
      })
      .strict(),
    summary: "The audit log: every change, who made it, from where and how it ended (newest first)",
    description: `One event per write (subscription writes, API key mint and revoke, webhook endpoint changes, exports, imports, plans, settings), written in the change's own transaction where the change is the app's; a refused change is recorded with outcome failure and its error code; a request refused before it reached the change (authentication, scope, a malformed body) is not. Secrets never appear. Kept ${AUDIT_RETENTION_DAYS} days, pruned daily.`,
    tags: ["Audit log"],
    response: page(AuditEvent),
    handler: async (ctx) => {
      const q = ctx.query;
      const filters = {
        actorType: q.actor_type,
        actorId: q.actor_id,
        targetType: q.target_type,
        targetId: q.target_id,
        action: q.action,
        outcome: q.outcome,
        createdAfter: q.created_after,
        createdBefore: q.created_before,
      };
      const bind = ["audit-events", ...Object.values(filters).map((v) => (v instanceof Date ? v.toISOString() : (v ?? "")))].join("|");
      const pageRequest = { limit: clampLimit(q.limit), after: q.cursor ? decodeCursor(q.cursor, bind) : null };
      const result = await listAuditEvents({ shopId: ctx.shop.id, filters, page: pageRequest });
      return { body: toEnvelope({ data: result.data.map(auditJson), next: result.next }, bind) };
    },
  }),
];
