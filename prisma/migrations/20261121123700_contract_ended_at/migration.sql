-- DropIndex
DROP INDEX "contracts_shop_id_created_at_id_created_by_service_status_u_idx";

-- AlterTable
ALTER TABLE "contracts" ADD COLUMN     "ended_at" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "contracts_shop_id_created_at_id_created_by_service_status_e_idx" ON "contracts"("shop_id", "created_at" DESC, "id" DESC, "created_by_service", "status", "ended_at");

-- When a contract ended (docs/decisions/041-contract-ended-at.md). Contracts the mirror already
-- holds as ended get their last platform update, the closest record there is of the change.
UPDATE "contracts" SET "ended_at" = "updated_at" WHERE "status" IN ('CANCELLED', 'EXPIRED', 'FAILED');

-- The cohort summary follows ended_at instead of (status, updated_at): the month a contract
-- ended, -1 while it has not. Same lock order as migration 20261121040000.
CREATE FUNCTION contract_ended_month(ended TIMESTAMP(3)) RETURNS INTEGER
  LANGUAGE sql IMMUTABLE AS $$ SELECT CASE WHEN ended IS NULL THEN -1 ELSE contract_month(ended) END $$;

CREATE OR REPLACE FUNCTION contract_cohorts_follow() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE
  old_c INTEGER; old_e INTEGER; new_c INTEGER; new_e INTEGER;
  dec BOOLEAN := TG_OP IN ('UPDATE', 'DELETE') AND OLD.created_by_service;
  inc BOOLEAN := TG_OP IN ('INSERT', 'UPDATE') AND NEW.created_by_service;
BEGIN
  IF dec THEN old_c := contract_month(OLD.created_at); old_e := contract_ended_month(OLD.ended_at); END IF;
  IF inc THEN new_c := contract_month(NEW.created_at); new_e := contract_ended_month(NEW.ended_at); END IF;
  IF dec AND inc AND OLD.shop_id = NEW.shop_id AND old_c = new_c AND old_e = new_e THEN
    RETURN NULL; -- same cell: nothing moves
  END IF;
  IF inc AND (NOT dec OR (NEW.shop_id, new_c, new_e) < (OLD.shop_id, old_c, old_e)) THEN
    INSERT INTO "contract_cohorts" ("shop_id", "cohort_month", "ended_month", "count") VALUES (NEW.shop_id, new_c, new_e, 1)
    ON CONFLICT ("shop_id", "cohort_month", "ended_month") DO UPDATE SET "count" = "contract_cohorts"."count" + 1;
    inc := FALSE;
  END IF;
  IF dec THEN
    UPDATE "contract_cohorts" SET "count" = "count" - 1
     WHERE "shop_id" = OLD.shop_id AND "cohort_month" = old_c AND "ended_month" = old_e;
  END IF;
  IF inc THEN
    INSERT INTO "contract_cohorts" ("shop_id", "cohort_month", "ended_month", "count") VALUES (NEW.shop_id, new_c, new_e, 1)
    ON CONFLICT ("shop_id", "cohort_month", "ended_month") DO UPDATE SET "count" = "contract_cohorts"."count" + 1;
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER "contracts_cohorts" ON "contracts";
CREATE TRIGGER "contracts_cohorts" AFTER INSERT OR DELETE OR UPDATE OF "shop_id", "created_at", "ended_at", "created_by_service"
  ON "contracts" FOR EACH ROW EXECUTE FUNCTION contract_cohorts_follow();

DROP FUNCTION contract_ended_month("ContractStatus", TIMESTAMP(3));

-- Rebuild the summary under the new definition.
DELETE FROM "contract_cohorts";
INSERT INTO "contract_cohorts" ("shop_id", "cohort_month", "ended_month", "count")
SELECT "shop_id", contract_month("created_at"), contract_ended_month("ended_at"), COUNT(*)::INTEGER
  FROM "contracts" WHERE "created_by_service"
 GROUP BY 1, 2, 3;
