-- The export sweep's expiry: ready files by ready_at. Partial: only ready jobs are in it.
-- Alone in its file: Prisma runs a one-statement file outside any transaction, so the index is
-- built CONCURRENTLY without blocking writes (docs/decisions/144-bounded-tables.md).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "export_jobs_ready_idx" ON "export_jobs" ("ready_at") WHERE "status" = 'ready';
