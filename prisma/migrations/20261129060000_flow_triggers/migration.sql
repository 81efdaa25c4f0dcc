-- CreateEnum
CREATE TYPE "FlowCallStatus" AS ENUM ('pending', 'sent', 'refused', 'failed');

-- AlterTable
ALTER TABLE "shops" ADD COLUMN     "flow_enabled" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "flow_trigger_calls" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "status" "FlowCallStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "next_attempt_at" TIMESTAMP(3),
    "sent_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "flow_trigger_calls_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "flow_trigger_calls_event_id_key" ON "flow_trigger_calls"("event_id");

-- CreateIndex
CREATE INDEX "flow_trigger_calls_shop_id_created_at_id_idx" ON "flow_trigger_calls"("shop_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "flow_trigger_calls_due_idx" ON "flow_trigger_calls"("next_attempt_at");

-- AddForeignKey
ALTER TABLE "flow_trigger_calls" ADD CONSTRAINT "flow_trigger_calls_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "flow_trigger_calls" ADD CONSTRAINT "flow_trigger_calls_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE CASCADE;
