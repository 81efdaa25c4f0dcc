-- The attempts' foreign key moves from the parent tables to each month (docs/decisions/170-per-month-foreign-keys.md):
-- webhook_attempts_yM references webhook_deliveries_yM, DEFAULT references DEFAULT, so dropping a
-- month removes its only reference and checks no other month. Catalogue changes only: each key is
-- added NOT VALID (no row read here, brief locks); the next migration validates them with locks
-- that let the delivery log's reads and writes go on. The key on the parents holds until the
-- month keys are in, in this same transaction, so no attempt is ever left unchecked.
DO $$
DECLARE
  a text;
  d text;
BEGIN
  FOR a IN
    SELECT c.relname::text FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'webhook_attempts'::regclass ORDER BY 1
  LOOP
    d := replace(a, 'webhook_attempts_', 'webhook_deliveries_');
    IF to_regclass(format('%I', d)) IS NULL THEN
      RAISE EXCEPTION 'attempts partition % has no deliveries partition %', a, d;
    END IF;
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I FOREIGN KEY ("delivery_id", "delivery_created_at") REFERENCES %I ("id", "created_at") ON DELETE CASCADE ON UPDATE CASCADE NOT VALID',
                   a, a || '_delivery_fkey', d);
  END LOOP;
END $$;

ALTER TABLE "webhook_attempts" DROP CONSTRAINT "webhook_attempts_delivery_id_delivery_created_at_fkey";
