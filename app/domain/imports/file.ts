// Reading a `migration` file (CSV or its JSONL twin, in the export formats of docs/decisions/056-export-datasets.md) back into cells keyed by the
// importer's field names (app/domain/exports/migration-columns.ts, the one column definition).
// Pure: no database, no platform. docs/decisions/085-migration-import.md.
import { csvCellValue, snakeKey } from "../shared/format";
import { MIGRATION_COLUMNS, type MigrationField } from "../exports/migration-columns";

export type ImportFormat = "csv" | "jsonl";

/** A data row: its 1-based number in the file (the CSV header is row 0) and its cells. */
export interface FileRow {
  row: number;
  cells: Partial<Record<MigrationField, string>>;
}

export interface FileProblem {
  row: number;
  column: string | null;
  message: string;
}

export interface ParsedFile {
  format: ImportFormat;
  rows: FileRow[];
  /** Problems with the file as a whole (header, syntax): nothing is imported while there are any. */
  problems: FileProblem[];
}

/** Not a migration column: the error file's trailing column, ignored on the way back in. */
export const ERROR_COLUMN_LABEL = "Import error";

const BY_LABEL = new Map(MIGRATION_COLUMNS.map((c) => [c.label.toLowerCase(), c]));
const BY_KEY = new Map(MIGRATION_COLUMNS.map((c) => [snakeKey(c.label), c]));
/**
 * Columns a file must carry (or a preset's mapping must fill); the others may be left out (the
 * exporter always writes them all).
 */
export const REQUIRED_FIELDS: readonly MigrationField[] = [
  "email",
  "status",
  "currency",
  "nextBillingAt",
  "billingInterval",
  "billingIntervalCount",
  "variantId",
  "quantity",
  "linePrice",
];

export function detectFormat(fileName: string, text: string): ImportFormat {
  if (/\.jsonl$|\.ndjson$/i.test(fileName)) return "jsonl";
  if (/\.csv$/i.test(fileName)) return "csv";
  return text.trimStart().startsWith("{") ? "jsonl" : "csv";
}

/** RFC 4180 records: quoted fields with doubled quotes, CRLF or LF line ends, a leading BOM. */
export function parseCsvRecords(text: string): string[][] {
  const src = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let i = 0;
  while (i < src.length) {
    const ch = src[i];
    if (quoted) {
      if (ch === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"') {
      quoted = true;
      i++;
    } else if (ch === ",") {
      record.push(field);
      field = "";
      i++;
    } else if (ch === "\r" || ch === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i += ch === "\r" && src[i + 1] === "\n" ? 2 : 1;
    } else {
      field += ch;
      i++;
    }
  }
  if (field !== "" || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  // A blank line is no record (a trailing newline, an editor's extra line).
  return records.filter((r) => !(r.length === 1 && r[0] === ""));
}

function checkColumns(fields: Set<MigrationField>, problems: FileProblem[]) {
  for (const f of REQUIRED_FIELDS) {
    if (!fields.has(f)) {
      const label = MIGRATION_COLUMNS.find((c) => c.field === f)!.label;
      problems.push({ row: 0, column: label, message: `The file has no "${label}" column` });
    }
  }
}

function parseCsv(text: string): ParsedFile {
  const records = parseCsvRecords(text);
  const problems: FileProblem[] = [];
  const header = records[0] ?? [];
  const columns = header.map((label) => {
    const col = BY_LABEL.get(label.trim().toLowerCase());
    if (!col && label.trim() !== ERROR_COLUMN_LABEL) problems.push({ row: 0, column: label, message: `Unknown column "${label}"` });
    return col ?? null;
  });
  checkColumns(new Set(columns.flatMap((c) => (c ? [c.field] : []))), problems);
  const rows: FileRow[] = records.slice(1).map((record, i) => {
    const cells: FileRow["cells"] = {};
    columns.forEach((col, j) => {
      const raw = record[j];
      if (col && raw !== undefined && raw !== "") cells[col.field] = csvCellValue(raw, col.kind);
    });
    if (record.length !== header.length) {
      problems.push({ row: i + 1, column: null, message: `Row has ${record.length} fields, the header has ${header.length}` });
    }
    return { row: i + 1, cells };
  });
  return { format: "csv", rows, problems };
}

function parseJsonl(text: string): ParsedFile {
  const problems: FileProblem[] = [];
  const rows: FileRow[] = [];
  const seen = new Set<MigrationField>();
  text.split(/\r?\n/).forEach((line) => {
    if (!line.trim()) return;
    const row = rows.length + 1;
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch {
      problems.push({ row, column: null, message: "Not a JSON object" });
      rows.push({ row, cells: {} });
      return;
    }
    if (!obj || typeof obj !== "object" || Array.isArray(obj)) {
      problems.push({ row, column: null, message: "Not a JSON object" });
      rows.push({ row, cells: {} });
      return;
    }
    const cells: FileRow["cells"] = {};
    for (const [key, value] of Object.entries(obj)) {
      const col = BY_KEY.get(key);
      if (!col) {
        if (key !== snakeKey(ERROR_COLUMN_LABEL)) problems.push({ row, column: key, message: `Unknown key "${key}"` });
        continue;
      }
      seen.add(col.field);
      if (value === null || value === "") continue;
      if (typeof value === "object") {
        problems.push({ row, column: col.label, message: "Must be a string or a number" });
        continue;
      }
      cells[col.field] = String(value);
    }
    rows.push({ row, cells });
  });
  if (rows.length) checkColumns(seen, problems);
  return { format: "jsonl", rows, problems };
}

export function parseMigrationFile(text: string, format: ImportFormat): ParsedFile {
  const parsed = format === "csv" ? parseCsv(text) : parseJsonl(text);
  if (parsed.rows.length === 0) parsed.problems.push({ row: 0, column: null, message: "The file has no rows" });
  return parsed;
}
