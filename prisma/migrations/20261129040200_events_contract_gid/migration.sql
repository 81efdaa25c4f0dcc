-- The contract an event is about (its data's contract_id), so a contract's history is read by
-- an index instead of filtering a shop's events by their JSON (docs/decisions/144-bounded-tables.md).
-- Nullable without a default: a catalogue change only, no table rewrite.
ALTER TABLE "events" ADD COLUMN "contract_gid" TEXT;
