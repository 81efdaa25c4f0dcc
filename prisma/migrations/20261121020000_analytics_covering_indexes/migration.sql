-- DropIndex
DROP INDEX "contracts_shop_id_created_at_id_idx";

-- DropIndex
DROP INDEX "contracts_shop_id_status_created_at_id_idx";

-- CreateIndex
CREATE INDEX "contracts_shop_id_created_at_id_created_by_service_status_u_idx" ON "contracts"("shop_id", "created_at" DESC, "id" DESC, "created_by_service", "status", "updated_at");

-- CreateIndex
CREATE INDEX "contracts_shop_id_status_created_at_id_created_by_service_c_idx" ON "contracts"("shop_id", "status", "created_at" DESC, "id" DESC, "created_by_service", "currency_code", "monthly_amount_cents");
