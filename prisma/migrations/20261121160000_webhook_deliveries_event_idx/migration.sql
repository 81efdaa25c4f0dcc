-- The sweeper reads an event's first attempts together (docs/decisions/052), and deleting an
-- event (its shop's deletion) cascades to its deliveries: both look deliveries up by event.
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries"("event_id");
