// Export file formats (docs/decisions/056-export-datasets.md), byte for byte:
//   csv   UTF-8 with a BOM, CRLF after every row (the last too), a header row of the column
//         labels, every field quoted, inner quotes doubled (RFC 4180), empty value `""`.
//   jsonl UTF-8, no BOM, one JSON object per row and "\n" after each, no header; keys are the
//         snake_case of the labels, in column order; numbers and booleans stay JSON numbers and
//         booleans, exporter-formatted values (money, ISO dates) stay strings, empty is null.
// Formula injection (docs/decisions/057-export-formats.md): in CSV only, a free-text cell that
// a spreadsheet would evaluate (first character = + - @ TAB CR) gets a leading apostrophe.
// JSONL is for programs and carries every value exactly.

export const EXPORT_FORMATS = ["csv", "jsonl"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * What a column holds. `text` is free text that came from a merchant, a customer or the platform
 * (titles, names, addresses, order names): the only kind neutralised against formula injection.
 * The other kinds are produced by the exporter itself (ids, enums, money, dates, numbers).
 */
export type ColumnKind = "text" | "id" | "enum" | "money" | "date" | "number" | "boolean";
export type CellValue = string | number | boolean | null;

export interface Column<R> {
  label: string;
  kind: ColumnKind;
  value(row: R): CellValue;
}

/** `Plan group ID` -> `plan_group_id`, `Contract #` -> `contract`, `Mix & Match ID` -> `mix_match_id`. */
export function snakeKey(label: string): string {
  return label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

export const CONTENT_TYPE: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  jsonl: "application/x-ndjson; charset=utf-8",
};

export const EXTENSION: Record<ExportFormat, string> = { csv: "csv", jsonl: "jsonl" };

const BOM = "\uFEFF";
const FORMULA_START = /^[=+\-@\t\r]/;

function csvField(v: CellValue, kind: ColumnKind): string {
  if (v === null || v === undefined) return '""';
  let s = typeof v === "string" ? v : String(v);
  if (kind === "text" && FORMULA_START.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

/**
 * The value a CSV text cell held before csvField neutralised it: the importer reads exported
 * files back (docs/decisions/085-migration-import.md), so the leading apostrophe added to a
 * formula-looking text goes again. Other kinds were never changed.
 */
export function csvCellValue(cell: string, kind: ColumnKind): string {
  return kind === "text" && cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}

/** Turns rows into text chunks of one format: `start()` once, `row()` per row. */
export interface Encoder<R> {
  format: ExportFormat;
  /** BOM and header for CSV; "" for JSONL. */
  start(): string;
  row(row: R): string;
}

export function encoder<R>(format: ExportFormat, columns: readonly Column<R>[]): Encoder<R> {
  if (format === "csv") {
    return {
      format,
      start: () => BOM + columns.map((c) => csvField(c.label, "id")).join(",") + "\r\n",
      row: (r) => columns.map((c) => csvField(c.value(r), c.kind)).join(",") + "\r\n",
    };
  }
  const keys = columns.map((c) => JSON.stringify(snakeKey(c.label)));
  return {
    format,
    start: () => "",
    // Built by hand so key order is the column order and no intermediate object is allocated.
    row: (r) => {
      let out = "{";
      for (let i = 0; i < columns.length; i++) {
        const v = columns[i].value(r);
        out += (i ? "," : "") + keys[i] + ":" + (v === null || v === undefined ? "null" : JSON.stringify(v));
      }
      return out + "}\n";
    },
  };
}

/** `<dataset>-<YYYY-MM-DD>.<ext>` (docs/decisions/058-export-downloads.md); the date is the render day (UTC). */
export function exportFilename(dataset: string, format: ExportFormat, day: Date): string {
  return `${dataset}-${day.toISOString().slice(0, 10)}.${EXTENSION[format]}`;
}
