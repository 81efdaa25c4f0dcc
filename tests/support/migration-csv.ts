// A `migration` file as the importer reads it (UTF-8 with a BOM, CRLF, every field quoted, inner
// quotes doubled), from rows keyed by the column labels; a label a row leaves out is empty.
import { MIGRATION_HEADER } from "../../app/domain/exports/migration-columns";

export function migrationCsv(rows: readonly Record<string, string>[]): string {
  const line = (cells: readonly string[]) => cells.map((c) => `"${c.replace(/"/g, '""')}"`).join(",") + "\r\n";
  return "\uFEFF" + line(MIGRATION_HEADER) + rows.map((r) => line(MIGRATION_HEADER.map((h) => r[h] ?? ""))).join("");
}
