-- CreateEnum
CREATE TYPE "DunningFinalAction" AS ENUM ('PAUSE', 'CANCEL');

-- CreateEnum
CREATE TYPE "BillingCycleStatus" AS ENUM ('CHARGING', 'PAID', 'DUNNING', 'FAILED', 'REFUSED');

-- CreateEnum
CREATE TYPE "BillingAttemptStatus" AS ENUM ('PENDING', 'SUCCEEDED', 'FAILED', 'CHALLENGED', 'REFUSED');

-- AlterTable
ALTER TABLE "contracts" ADD COLUMN     "reminded_for" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "billing_settings" (
    "shop_id" TEXT NOT NULL,
    "retry_days" INTEGER[],
    "final_action" "DunningFinalAction" NOT NULL,
    "reminder_days" INTEGER NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "billing_settings_pkey" PRIMARY KEY ("shop_id")
);

-- CreateTable
CREATE TABLE "billing_cycles" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "contract_id" TEXT NOT NULL,
    "contract_gid" TEXT NOT NULL,
    "cycle_at" TIMESTAMP(3) NOT NULL,
    "status" "BillingCycleStatus" NOT NULL DEFAULT 'CHARGING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_retry_at" TIMESTAMP(3),
    "last_error_code" TEXT,
    "final_action_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "billing_cycles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "billing_attempts" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "cycle_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "attempt_gid" TEXT,
    "status" "BillingAttemptStatus" NOT NULL DEFAULT 'PENDING',
    "error_code" TEXT,
    "order_gid" TEXT,
    "amount_minor" INTEGER,
    "currency_code" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMP(3),

    CONSTRAINT "billing_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "billing_cycles_shop_id_status_idx" ON "billing_cycles"("shop_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "billing_cycles_contract_id_cycle_at_key" ON "billing_cycles"("contract_id", "cycle_at");

-- CreateIndex
CREATE UNIQUE INDEX "billing_attempts_cycle_id_number_key" ON "billing_attempts"("cycle_id", "number");

-- CreateIndex
CREATE UNIQUE INDEX "billing_attempts_shop_id_idempotency_key_key" ON "billing_attempts"("shop_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "contracts_shop_id_status_next_billing_at_idx" ON "contracts"("shop_id", "status", "next_billing_at");

-- AddForeignKey
ALTER TABLE "billing_settings" ADD CONSTRAINT "billing_settings_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "billing_cycles" ADD CONSTRAINT "billing_cycles_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "billing_cycles" ADD CONSTRAINT "billing_cycles_contract_id_fkey" FOREIGN KEY ("contract_id") REFERENCES "contracts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "billing_attempts" ADD CONSTRAINT "billing_attempts_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "billing_attempts" ADD CONSTRAINT "billing_attempts_cycle_id_fkey" FOREIGN KEY ("cycle_id") REFERENCES "billing_cycles"("id") ON DELETE CASCADE ON UPDATE CASCADE;
