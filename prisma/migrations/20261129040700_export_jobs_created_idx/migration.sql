-- The export sweep's record retention and stuck-job release read by created_at.
-- Alone in its file: Prisma runs a one-statement file outside any transaction, so the index is
-- built CONCURRENTLY without blocking writes (docs/decisions/144-bounded-tables.md).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "export_jobs_created_at_idx" ON "export_jobs" ("created_at");
