// A migration import's progress and its error file (docs/decisions/085-migration-import.md).
import { prisma } from "../../db.server";
import { encoder, snakeKey, type Column } from "../shared/format";
import { MIGRATION_COLUMNS } from "../exports/migration-columns";
import { ERROR_COLUMN_LABEL, parseMigrationFile, type FileRow, type ImportFormat } from "./file";

export interface ImportProgress {
  id: string;
  fileName: string;
  format: string;
  status: string;
  rows: number;
  contracts: number;
  done: number;
  created: number;
  skipped: number;
  failed: number;
  failures: { rows: number[]; column: string | null; message: string }[];
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export async function importProgress(shopId: string, importId: string): Promise<ImportProgress | null> {
  const imp = await prisma.migrationImport.findFirst({ where: { id: importId, shopId }, omit: { content: true } });
  if (!imp) return null;
  const counts = await prisma.migrationImportItem.groupBy({ by: ["status"], where: { importId }, _count: { _all: true } });
  const n = (s: string) => counts.find((c) => c.status === s)?._count._all ?? 0;
  const failures = await prisma.migrationImportItem.findMany({
    where: { importId, status: "failed" },
    orderBy: { rows: "asc" },
    take: 100,
    select: { rows: true, errorColumn: true, errorMessage: true },
  });
  return {
    id: imp.id,
    fileName: imp.fileName,
    format: imp.format,
    status: imp.status,
    rows: imp.rowCount,
    contracts: imp.contractCount,
    done: n("created") + n("skipped") + n("failed"),
    created: n("created"),
    skipped: n("skipped"),
    failed: n("failed"),
    failures: failures.map((f) => ({ rows: f.rows, column: f.errorColumn, message: f.errorMessage ?? "" })),
    error: imp.errorMessage,
    createdAt: imp.createdAt.toISOString(),
    finishedAt: imp.finishedAt?.toISOString() ?? null,
  };
}

export async function latestImport(shopId: string): Promise<ImportProgress | null> {
  const last = await prisma.migrationImport.findFirst({
    where: { shopId, status: { not: "validated" } },
    orderBy: { createdAt: "desc" },
    select: { id: true },
  });
  return last ? importProgress(shopId, last.id) : null;
}

type ErrorRow = FileRow & { error: string };

/**
 * The failed rows in the file's own format, with a trailing "Import error" column the importer
 * ignores: fix the cells, upload the file again (docs/decisions/085-migration-import.md).
 */
export async function importErrorFile(shopId: string, importId: string): Promise<{ fileName: string; contentType: string; body: string } | null> {
  const imp = await prisma.migrationImport.findFirst({ where: { id: importId, shopId } });
  if (!imp) return null;
  const failed = await prisma.migrationImportItem.findMany({ where: { importId, status: "failed" }, select: { rows: true, errorMessage: true } });
  const messageOf = new Map(failed.flatMap((f) => f.rows.map((r) => [r, f.errorMessage ?? ""] as const)));
  const format = imp.format as ImportFormat;
  const rows = parseMigrationFile(imp.content, format).rows.filter((r) => messageOf.has(r.row));
  const columns: Column<ErrorRow>[] = [
    ...MIGRATION_COLUMNS.map((c) => ({
      label: c.label,
      kind: c.kind,
      value: (r: ErrorRow) => {
        const v = r.cells[c.field];
        if (v === undefined) return null;
        return c.kind === "number" && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
      },
    })),
    { label: ERROR_COLUMN_LABEL, kind: "text", value: (r) => r.error },
  ];
  const enc = encoder(format, columns);
  let body = enc.start();
  for (const r of rows) body += enc.row({ ...r, error: messageOf.get(r.row) ?? "" });
  const base = imp.fileName.replace(/\.(csv|jsonl|ndjson)$/i, "");
  return {
    fileName: `${base}-errors.${format}`,
    contentType: format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
    body,
  };
}

/** snake_case key of the error column in JSONL (for tests and docs). */
export const ERROR_COLUMN_KEY = snakeKey(ERROR_COLUMN_LABEL);
