-- Validates the month keys the previous migration added NOT VALID (docs/decisions/170-per-month-foreign-keys.md).
-- VALIDATE CONSTRAINT reads a month's attempts under SHARE UPDATE EXCLUSIVE on that month's
-- attempts and ROW SHARE on its deliveries: the delivery log is read and written meanwhile. Every
-- row here was checked by the key on the parents until the previous migration, so this finds none
-- missing; it makes the catalogue say so.
DO $$
DECLARE
  k record;
BEGIN
  FOR k IN
    SELECT t.relname::text AS tbl, c.conname::text AS name FROM pg_constraint c JOIN pg_inherits i ON i.inhrelid = c.conrelid JOIN pg_class t ON t.oid = c.conrelid
     WHERE i.inhparent = 'webhook_attempts'::regclass AND c.contype = 'f' AND NOT c.convalidated ORDER BY 1
  LOOP
    EXECUTE format('ALTER TABLE %I VALIDATE CONSTRAINT %I', k.tbl, k.name);
  END LOOP;
END $$;
