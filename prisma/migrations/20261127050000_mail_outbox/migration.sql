-- AlterTable
ALTER TABLE "notification_log" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "bounced_at" TIMESTAMP(3),
ADD COLUMN     "idempotency_key" TEXT,
ADD COLUMN     "lease_until" TIMESTAMP(3),
ADD COLUMN     "message_id" TEXT,
ADD COLUMN     "payload" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "reason" TEXT,
ADD COLUMN     "recipient" TEXT,
ADD COLUMN     "send_after" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "sent_at" TIMESTAMP(3),
ADD COLUMN     "smtp_response" TEXT,
ADD COLUMN     "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateTable
CREATE TABLE "notification_settings" (
    "shop_id" TEXT NOT NULL,
    "sender_name" TEXT,
    "reply_to" TEXT,
    "sending_domain" TEXT,
    "dkim_selector" TEXT,
    "dkim_private_key" TEXT,
    "dkim_public_key" TEXT,
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "quiet_start" INTEGER,
    "quiet_end" INTEGER,
    "disabled_kinds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "notification_settings_pkey" PRIMARY KEY ("shop_id")
);

-- CreateTable
CREATE TABLE "notification_templates" (
    "shop_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "notification_templates_pkey" PRIMARY KEY ("shop_id","kind")
);

-- CreateTable
CREATE TABLE "email_suppressions" (
    "shop_id" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_suppressions_pkey" PRIMARY KEY ("shop_id","address")
);

-- CreateIndex
CREATE INDEX "notification_log_status_send_after_idx" ON "notification_log"("status", "send_after");

-- CreateIndex
CREATE INDEX "notification_log_message_id_idx" ON "notification_log"("message_id");

-- CreateIndex
CREATE UNIQUE INDEX "notification_log_shop_id_idempotency_key_key" ON "notification_log"("shop_id", "idempotency_key");

-- AddForeignKey
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_templates" ADD CONSTRAINT "notification_templates_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "email_suppressions" ADD CONSTRAINT "email_suppressions_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;
