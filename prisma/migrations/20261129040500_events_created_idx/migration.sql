-- Event retention (EVENT_RETENTION_DAYS) deletes by age in batches: an index leading on created_at.
-- Alone in its file: Prisma runs a one-statement file outside any transaction, so the index is
-- built CONCURRENTLY without blocking writes (docs/decisions/144-bounded-tables.md).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "events_created_at_idx" ON "events" ("created_at");
