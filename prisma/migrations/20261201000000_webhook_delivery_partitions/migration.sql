-- The delivery log and its attempts, partitioned by month (docs/decisions/169-delivery-partitions.md).
-- One file, one transaction: the new partitioned tables are built beside the old ones, every row is
-- copied, the old tables are dropped and the new ones take their names, keys and indexes. The old
-- tables stay locked while this runs (measured in the record).
--
-- Keys: a partitioned table's primary and unique keys include its partition key, so a delivery is
-- (id, created_at), one delivery per (event_id, endpoint_id, created_at) with created_at the event's,
-- and an attempt carries its delivery's created_at (delivery_created_at), its partition key too.

CREATE TABLE "webhook_deliveries_new" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "status" "DeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "response_code" INTEGER,
    "last_error" TEXT,
    "delivered_at" TIMESTAMP(3),
    "next_attempt_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "manual" BOOLEAN NOT NULL DEFAULT false
) PARTITION BY RANGE ("created_at");

CREATE TABLE "webhook_attempts_new" (
    "id" TEXT NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "delivery_created_at" TIMESTAMP(3) NOT NULL,
    "number" INTEGER NOT NULL,
    "manual" BOOLEAN NOT NULL DEFAULT false,
    "started_at" TIMESTAMP(3) NOT NULL,
    "finished_at" TIMESTAMP(3) NOT NULL,
    "response_code" INTEGER,
    "error" TEXT,
    "outcome" "DeliveryStatus" NOT NULL
) PARTITION BY RANGE ("delivery_created_at");

-- A partition per month from the oldest row's month (or this month) to two months ahead, named
-- <table>_yYYYYmMM; the daily sweep keeps them ahead from now on. DEFAULT takes any other month.
DO $$
DECLARE
  m date := LEAST(date_trunc('month', now()), COALESCE((SELECT date_trunc('month', min(created_at)) FROM webhook_deliveries), date_trunc('month', now())))::date;
  last date := (date_trunc('month', now()) + interval '2 months')::date;
BEGIN
  WHILE m <= last LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF "webhook_deliveries_new" FOR VALUES FROM (%L) TO (%L)',
                   'webhook_deliveries_' || to_char(m, '"y"YYYY"m"MM'), m, (m + interval '1 month')::date);
    EXECUTE format('CREATE TABLE %I PARTITION OF "webhook_attempts_new" FOR VALUES FROM (%L) TO (%L)',
                   'webhook_attempts_' || to_char(m, '"y"YYYY"m"MM'), m, (m + interval '1 month')::date);
    m := (m + interval '1 month')::date;
  END LOOP;
END $$;
CREATE TABLE "webhook_deliveries_default" PARTITION OF "webhook_deliveries_new" DEFAULT;
CREATE TABLE "webhook_attempts_default" PARTITION OF "webhook_attempts_new" DEFAULT;

INSERT INTO "webhook_deliveries_new" ("id", "shop_id", "endpoint_id", "event_id", "event", "status", "attempts", "response_code", "last_error",
                                      "delivered_at", "next_attempt_at", "created_at", "manual")
SELECT "id", "shop_id", "endpoint_id", "event_id", "event", "status", "attempts", "response_code", "last_error",
       "delivered_at", "next_attempt_at", "created_at", "manual"
  FROM "webhook_deliveries";

INSERT INTO "webhook_attempts_new" ("id", "delivery_id", "delivery_created_at", "number", "manual", "started_at", "finished_at", "response_code", "error", "outcome")
SELECT a."id", a."delivery_id", d."created_at", a."number", a."manual", a."started_at", a."finished_at", a."response_code", a."error", a."outcome"
  FROM "webhook_attempts" a JOIN "webhook_deliveries" d ON d."id" = a."delivery_id";

DROP TABLE "webhook_attempts";
DROP TABLE "webhook_deliveries";
ALTER TABLE "webhook_deliveries_new" RENAME TO "webhook_deliveries";
ALTER TABLE "webhook_attempts_new" RENAME TO "webhook_attempts";

-- Keys and indexes under the names Prisma gives them, built once the rows are in.
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id", "created_at");
CREATE UNIQUE INDEX "webhook_deliveries_event_id_endpoint_id_created_at_key" ON "webhook_deliveries"("event_id", "endpoint_id", "created_at");
CREATE INDEX "webhook_deliveries_shop_id_created_at_id_idx" ON "webhook_deliveries"("shop_id", "created_at" DESC, "id" DESC);
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_id_idx" ON "webhook_deliveries"("endpoint_id", "created_at" DESC, "id" DESC);
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries"("next_attempt_at");
CREATE INDEX "webhook_deliveries_created_at_idx" ON "webhook_deliveries"("created_at");
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id", "delivery_created_at");
CREATE INDEX "webhook_attempts_delivery_id_number_idx" ON "webhook_attempts"("delivery_id", "number");
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_delivery_created_at_fkey" FOREIGN KEY ("delivery_id", "delivery_created_at") REFERENCES "webhook_deliveries"("id", "created_at") ON DELETE CASCADE ON UPDATE CASCADE;
