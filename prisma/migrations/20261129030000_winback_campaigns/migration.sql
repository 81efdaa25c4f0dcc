-- Win-back campaigns that run (docs/decisions/117-winback-campaign-job.md): rules, hold-out and
-- attribution window on the campaign; the ledger records held-out customers, the discount code,
-- the come-back claim and the contract that brought the customer back. Existing rows were sends.
-- AlterTable
ALTER TABLE "winback_campaigns" ADD COLUMN     "attribution_days" INTEGER NOT NULL DEFAULT 30,
ADD COLUMN     "cancelled_within_days" INTEGER NOT NULL DEFAULT 90,
ADD COLUMN     "holdout_percent" INTEGER NOT NULL DEFAULT 10,
ADD COLUMN     "last_run_at" TIMESTAMP(3),
ADD COLUMN     "reasons" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "started_at" TIMESTAMP(3),
ADD COLUMN     "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ALTER COLUMN "status" SET DEFAULT 'draft';

-- AlterTable
ALTER TABLE "winback_sends" ADD COLUMN     "decided_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "discount_code" TEXT,
ADD COLUMN     "discount_gid" TEXT,
ADD COLUMN     "held_out" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "new_contract_gid" TEXT,
ADD COLUMN     "notification_id" TEXT,
ADD COLUMN     "return_claimed_at" TIMESTAMP(3),
ALTER COLUMN "sent_at" DROP NOT NULL;

-- CreateIndex
CREATE INDEX "winback_campaigns_status_idx" ON "winback_campaigns"("status");

-- CreateIndex
CREATE INDEX "winback_sends_shop_id_new_contract_gid_idx" ON "winback_sends"("shop_id", "new_contract_gid");

-- CreateIndex
CREATE UNIQUE INDEX "winback_sends_campaign_id_customer_gid_key" ON "winback_sends"("campaign_id", "customer_gid");


-- Rows written before this migration were all sends: their decision time is their send time.
UPDATE "winback_sends" SET "decided_at" = "sent_at" WHERE "sent_at" IS NOT NULL;
UPDATE "winback_campaigns" SET "started_at" = "created_at" WHERE "status" <> 'draft';
