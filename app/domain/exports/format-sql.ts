// The export formats (./format.ts) as SQL expressions: PostgreSQL renders each row's CSV or JSONL
// line inside the keyset query, so the worker only concatenates text it receives (no row
// objects, no per-field strings in JavaScript). The bytes are those of `encoder()` in ./format.ts
// for the same values: tests/integration/exports/format-sql.test.ts compares the two on every
// kind and on the characters that need escaping, and the golden files pin both.
// docs/decisions/068-export-renderer-in-sql.md.
import type { Column, ColumnKind, ExportFormat } from "./format";
import { snakeKey } from "./format";

/**
 * A column that PostgreSQL can render. `sql` is an expression over the dataset's table giving the
 * cell's value: text for the string kinds (already formatted: `isoSql` for dates, `minorSql`
 * for money), an integer for `number`, a boolean for `boolean`; NULL is the empty value.
 * `value` stays: the JavaScript encoder is the reference the SQL one is tested against.
 */
export interface SqlColumn<R> extends Column<R> {
  sql: string;
}

const STRING_KINDS: ReadonlySet<ColumnKind> = new Set(["text", "id", "enum", "money", "date"]);
/** Values the exporter formats itself (no quote can occur in them). */
const OWN_FORMAT: ReadonlySet<ColumnKind> = new Set(["money", "date"]);

/**
 * The arguments one CSV field adds to the line's `concat()` (which reads NULL as "", the empty
 * field): inner quotes doubled, and for free text the formula guard of ./format.ts (a leading
 * apostrophe before = + - @ TAB CR). One `concat()` per line: measured, a chain of `||` copies
 * the growing line once per operator.
 */
function csvFieldArgs(c: SqlColumn<unknown>): string[] {
  const v = `(${c.sql})`;
  if (!STRING_KINDS.has(c.kind) || OWN_FORMAT.has(c.kind)) return [v];
  const escaped = `replace(${v}, '"', '""')`;
  if (c.kind !== "text") return [escaped];
  // First code point = + - @ TAB CR (ascii() of an empty string or NULL is 0 or NULL).
  return [`(CASE WHEN ascii(${v}) IN (61, 43, 45, 64, 9, 13) THEN '''' END)`, escaped];
}

/**
 * How PostgreSQL renders one line of `format` for a row of `rows` (a relation holding the raw
 * columns the `sql` expressions read): `expr` is the line with its terminator, `from` the FROM
 * clause to evaluate it in.
 *   csv:   concat('"', f1, '","', f2, ..., '"' CR LF)
 *   jsonl: row_to_json of a row whose column names are the snake_case keys, in column order.
 *          PostgreSQL escapes JSON strings as JSON.stringify does (\" \\ \b \f \n \r \t, other
 *          controls as lower-case \u00xx, nothing else), numbers and booleans stay bare, NULL
 *          is null, and row_to_json writes no whitespace: the bytes of `encoder()`.
 */
export function lineSql(format: ExportFormat, columns: readonly SqlColumn<unknown>[], rows: string): { expr: string; from: string } {
  if (format === "csv") {
    const args: string[] = [];
    columns.forEach((c, i) => args.push(i ? `'","'` : `'"'`, ...csvFieldArgs(c)));
    return { expr: `concat(${args.join(", ")}, E'"\\r\\n')`, from: rows };
  }
  const fields = columns.map((c) => {
    const key = snakeKey(c.label);
    if (!/^[a-z0-9_]+$/.test(key)) throw new Error(`column key ${key} is not SQL-safe`);
    const value = STRING_KINDS.has(c.kind) ? `(${c.sql})::text` : `(${c.sql})`;
    return `${value} AS "${key}"`;
  });
  return { expr: `row_to_json(export_line)::text || E'\\n'`, from: `${rows} CROSS JOIN LATERAL (SELECT ${fields.join(", ")}) AS export_line` };
}
