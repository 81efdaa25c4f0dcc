-- The overdue-outcome sweep reads a shop's PENDING billing attempts by age (app/domain/renewals/overdue.server.ts).
CREATE INDEX "billing_attempts_shop_id_status_created_at_idx" ON "billing_attempts"("shop_id", "status", "created_at");
