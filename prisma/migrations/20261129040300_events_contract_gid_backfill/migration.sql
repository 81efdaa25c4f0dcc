-- Fills contract_gid for events recorded before the column existed, 10,000 rows per transaction
-- (a DO block may COMMIT when it is the whole statement), so no transaction holds the big table's
-- rows for long. Safe to run again (docs/decisions/144-bounded-tables.md).
DO $$
DECLARE
  done_to text := '';
  upto text;
BEGIN
  LOOP
    SELECT max(id) INTO upto FROM (SELECT id FROM events WHERE id > done_to ORDER BY id LIMIT 10000) page;
    EXIT WHEN upto IS NULL;
    UPDATE events SET contract_gid = data->>'contract_id'
     WHERE id > done_to AND id <= upto AND contract_gid IS NULL AND jsonb_typeof(data->'contract_id') = 'string';
    done_to := upto;
    COMMIT;
  END LOOP;
END $$;
