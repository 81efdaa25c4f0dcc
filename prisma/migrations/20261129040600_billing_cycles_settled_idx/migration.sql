-- Billing history retention (BILLING_HISTORY_RETENTION_DAYS) reads settled cycles by due date.
-- Partial: cycles still charging, dunning or awaiting their final action are never in it.
-- Alone in its file: Prisma runs a one-statement file outside any transaction, so the index is
-- built CONCURRENTLY without blocking writes (docs/decisions/144-bounded-tables.md).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "billing_cycles_settled_idx" ON "billing_cycles" ("cycle_at") WHERE "status" IN ('PAID', 'REFUSED') OR ("status" = 'FAILED' AND "final_action_at" IS NOT NULL);
