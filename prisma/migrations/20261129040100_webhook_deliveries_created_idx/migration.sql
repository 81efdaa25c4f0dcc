-- Delivery log retention (30 days) deletes by age in batches: an index leading on created_at.
-- Alone in its file: Prisma runs a one-statement file outside any transaction, so the index is
-- built CONCURRENTLY without blocking writes (docs/decisions/144-bounded-tables.md).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "webhook_deliveries_created_at_idx" ON "webhook_deliveries" ("created_at");
