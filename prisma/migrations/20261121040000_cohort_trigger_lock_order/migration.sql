-- The cohort trigger moves a contract between two cells of contract_cohorts. Touch the two cells
-- in one global order (the smaller (cohort_month, ended_month) first), so two transactions that
-- move contracts in opposite directions (a cancel and a reactivation of the same month) never
-- wait on each other crosswise, which Postgres would resolve by aborting one of them.
CREATE OR REPLACE FUNCTION contract_cohorts_follow() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE
  old_c INTEGER; old_e INTEGER; new_c INTEGER; new_e INTEGER;
  dec BOOLEAN := TG_OP IN ('UPDATE', 'DELETE') AND OLD.created_by_service;
  inc BOOLEAN := TG_OP IN ('INSERT', 'UPDATE') AND NEW.created_by_service;
BEGIN
  IF dec THEN old_c := contract_month(OLD.created_at); old_e := contract_ended_month(OLD.status, OLD.updated_at); END IF;
  IF inc THEN new_c := contract_month(NEW.created_at); new_e := contract_ended_month(NEW.status, NEW.updated_at); END IF;
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
