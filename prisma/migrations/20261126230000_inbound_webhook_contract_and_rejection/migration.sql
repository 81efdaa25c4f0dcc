-- AlterTable
ALTER TABLE "inbound_webhooks" ADD COLUMN     "contract_gid" TEXT,
ADD COLUMN     "rejection" TEXT;

-- CreateIndex
CREATE INDEX "inbound_webhooks_contract_gid_idx" ON "inbound_webhooks"("contract_gid");
