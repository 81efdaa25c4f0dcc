-- A contract's history, newest first (app/domain/subscriptions/history.server.ts).
-- Alone in its file: Prisma runs a one-statement file outside any transaction, so the index is
-- built CONCURRENTLY without blocking writes (docs/decisions/144-bounded-tables.md).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "events_shop_id_contract_gid_created_at_id_idx" ON "events" ("shop_id", "contract_gid", "created_at" DESC, "id" DESC);
