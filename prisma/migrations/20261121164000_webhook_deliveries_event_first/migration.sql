-- One index instead of two on the busiest table: the uniqueness of (event, endpoint) with the
-- event first serves the lookup by event too (the sweeper, and cascades from events), so the
-- separate event_id index goes. Every index costs each delivery's insert and each attempt's
-- UPDATE (which changes next_attempt_at, an indexed column, so it is never a HOT update).
DROP INDEX "webhook_deliveries_event_id_idx";
DROP INDEX "webhook_deliveries_endpoint_id_event_id_key";
CREATE UNIQUE INDEX "webhook_deliveries_event_id_endpoint_id_key" ON "webhook_deliveries"("event_id", "endpoint_id");
