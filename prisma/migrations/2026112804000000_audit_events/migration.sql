-- CreateTable
CREATE TABLE "audit_events" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "actor_type" TEXT NOT NULL,
    "actor_id" TEXT NOT NULL,
    "actor_name" TEXT,
    "request_id" TEXT,
    "action" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "error_code" TEXT,
    "changes" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_events_shop_id_created_at_id_idx" ON "audit_events"("shop_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_events_shop_id_target_id_created_at_idx" ON "audit_events"("shop_id", "target_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "audit_events_shop_id_actor_id_created_at_idx" ON "audit_events"("shop_id", "actor_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "audit_events_created_at_idx" ON "audit_events"("created_at");

-- AddForeignKey
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;
