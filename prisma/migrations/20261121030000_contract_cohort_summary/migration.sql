-- CreateTable
CREATE TABLE "contract_cohorts" (
    "shop_id" TEXT NOT NULL,
    "cohort_month" INTEGER NOT NULL,
    "ended_month" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "contract_cohorts_pkey" PRIMARY KEY ("shop_id","cohort_month","ended_month")
);

-- AddForeignKey
ALTER TABLE "contract_cohorts" ADD CONSTRAINT "contract_cohorts_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The cohort summary is kept exact by this trigger: whatever writes contracts (the mirror, a
-- bulk import, a GDPR erasure, a shop's cascade delete) moves the counts with it, in the same
-- transaction. Only service-created contracts count, as everywhere in the API.
CREATE FUNCTION contract_month(ts TIMESTAMP(3)) RETURNS INTEGER
  LANGUAGE sql IMMUTABLE AS $$ SELECT (EXTRACT(YEAR FROM ts) * 12 + EXTRACT(MONTH FROM ts) - 1)::INTEGER $$;

CREATE FUNCTION contract_ended_month(status "ContractStatus", updated TIMESTAMP(3)) RETURNS INTEGER
  LANGUAGE sql IMMUTABLE AS $$ SELECT CASE WHEN status IN ('CANCELLED', 'EXPIRED') THEN contract_month(updated) ELSE -1 END $$;

CREATE FUNCTION contract_cohorts_follow() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND OLD.shop_id = NEW.shop_id AND OLD.created_by_service = NEW.created_by_service
     AND contract_month(OLD.created_at) = contract_month(NEW.created_at)
     AND contract_ended_month(OLD.status, OLD.updated_at) = contract_ended_month(NEW.status, NEW.updated_at) THEN
    RETURN NULL; -- same cohort cell: nothing moves
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.created_by_service THEN
    UPDATE "contract_cohorts" SET "count" = "count" - 1
     WHERE "shop_id" = OLD.shop_id AND "cohort_month" = contract_month(OLD.created_at)
       AND "ended_month" = contract_ended_month(OLD.status, OLD.updated_at);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.created_by_service THEN
    INSERT INTO "contract_cohorts" ("shop_id", "cohort_month", "ended_month", "count")
    VALUES (NEW.shop_id, contract_month(NEW.created_at), contract_ended_month(NEW.status, NEW.updated_at), 1)
    ON CONFLICT ("shop_id", "cohort_month", "ended_month") DO UPDATE SET "count" = "contract_cohorts"."count" + 1;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "contracts_cohorts" AFTER INSERT OR DELETE OR UPDATE OF "shop_id", "created_at", "updated_at", "status", "created_by_service"
  ON "contracts" FOR EACH ROW EXECUTE FUNCTION contract_cohorts_follow();

-- Contracts that exist already.
INSERT INTO "contract_cohorts" ("shop_id", "cohort_month", "ended_month", "count")
SELECT "shop_id", contract_month("created_at"), contract_ended_month("status", "updated_at"), COUNT(*)::INTEGER
  FROM "contracts" WHERE "created_by_service"
 GROUP BY 1, 2, 3;
