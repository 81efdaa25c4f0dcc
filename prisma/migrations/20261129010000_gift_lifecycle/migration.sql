-- CreateEnum
CREATE TYPE "GiftExpiryPolicy" AS ENUM ('SHIP_TO_GIFTER', 'PAUSE');

-- AlterTable
ALTER TABLE "gifts" ADD COLUMN     "bounced_at" TIMESTAMP(3),
ADD COLUMN     "claim_lease_until" TIMESTAMP(3),
ADD COLUMN     "claim_mail_id" TEXT,
ADD COLUMN     "ended_at" TIMESTAMP(3),
ADD COLUMN     "expiry_action" TEXT,
ADD COLUMN     "send_count" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "gift_settings" (
    "shop_id" TEXT NOT NULL,
    "expiry_days" INTEGER NOT NULL DEFAULT 30,
    "expiry_policy" "GiftExpiryPolicy" NOT NULL DEFAULT 'SHIP_TO_GIFTER',
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "gift_settings_pkey" PRIMARY KEY ("shop_id")
);

-- CreateIndex
CREATE INDEX "gifts_status_send_at_idx" ON "gifts"("status", "send_at");

-- CreateIndex
CREATE UNIQUE INDEX "gifts_claim_token_hash_key" ON "gifts"("claim_token_hash");

-- AddForeignKey
ALTER TABLE "gift_settings" ADD CONSTRAINT "gift_settings_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

