-- The webhook sweeper's scan (app/domain/outbound-webhooks/sweep.server.ts): webhooks stored and
-- not yet processed, by arrival. Partial: processed rows (nearly all of them) are not in it.
-- Built CONCURRENTLY, alone in its file so it runs outside a transaction (docs/decisions/144-bounded-tables.md).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "inbound_webhooks_pending_idx" ON "inbound_webhooks" ("received_at") WHERE "processed_at" IS NULL;
