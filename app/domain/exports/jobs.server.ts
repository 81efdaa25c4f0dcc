// Export jobs (docs/decisions/057-export-jobs.md): create, read, list. A job row is written before it is handed to the
// queue, and the database itself keeps one queued-or-running job per shop: `active_slot` is
// 'active' while queued or running and NULL otherwise, under a unique (shop_id, active_slot)
// index (NULLs never collide), so 20 parallel POSTs give exactly one row and nineteen 409s.
// docs/decisions/057-export-jobs.md.
import { audited, diffFields, recordRefusal } from "../audit/audit.server";
import type { ExportJob } from "@prisma/client";
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { log } from "../../infra/log.server";
import { QUEUES, enqueue } from "../../infra/queues.server";
import { KEYSET_ORDER, afterWhere, toPage, type PageRequest, type PageResult } from "../shared/paging.server";
import { DATASETS } from "./datasets.server";
import { type DatasetName } from "./stream-types";
import type { ExportFormat } from "../shared/format";
import type { SubscriptionFilterOptions } from "../subscriptions/filters.server";
import { signDownloadUrl } from "./signing.server";

export const EXPORT_RETENTION = { readyMs: 24 * 3600_000, stuckMs: 24 * 3600_000, recordMs: 7 * 24 * 3600_000 };

/** The stable failure codes of error.code (/docs/api/errors). */
export type ExportFailureCode = "export_too_large" | "shop_unavailable" | "enqueue_failed" | "render_failed";

/** An export job as the reads return it (the surfaces shape it: app/surfaces/admin/exports.ts `exportJobJson`). */
export interface ExportJobView {
  id: string;
  dataset: string;
  format: string;
  /** The filters' normalised wire form, as the job was created with them. */
  filters: Record<string, string>;
  status: string;
  rowCount: number | null;
  byteSize: number | null;
  createdAt: Date;
  startedAt: Date | null;
  readyAt: Date | null;
  expiresAt: Date | null;
  /** A ready job's freshly signed one-hour URL (docs/decisions/058-export-downloads.md); null otherwise. */
  download: { url: string; expiresAt: Date } | null;
  error: { code: string; message: string } | null;
  /** Rows rendered so far (equals rowCount once ready). */
  progress: number;
  /** Hex SHA-256 of the file once ready. */
  sha256: string | null;
}

/** The job's view; a ready job gets a freshly signed one-hour URL (docs/decisions/058-export-downloads.md). */
export function exportJobView(j: ExportJob, now = new Date()): ExportJobView {
  return {
    id: j.id,
    dataset: j.dataset,
    format: j.format,
    filters: (j.filters ?? {}) as Record<string, string>,
    status: j.status,
    rowCount: j.rowCount,
    byteSize: j.byteSize === null ? null : Number(j.byteSize),
    createdAt: j.createdAt,
    startedAt: j.startedAt,
    readyAt: j.readyAt,
    expiresAt: j.expiresAt,
    download: j.status === "ready" ? signDownloadUrl(j.id, now) : null,
    error: j.errorCode ? { code: j.errorCode, message: j.errorMessage ?? "" } : null,
    progress: j.progressRows,
    sha256: j.sha256,
  };
}

export interface CreateExportInput {
  shopId: string;
  dataset: DatasetName;
  format: ExportFormat;
  /** The filters' normalised wire form (app/surfaces/subscription-filters.ts filtersToQuery), as returned. */
  filters: Record<string, string>;
  /** The same filters as typed options, what the renderer applies. */
  filterOptions: SubscriptionFilterOptions;
}

const ENQUEUE_TIMEOUT_MS = 5_000;

/** Hands the job to BullMQ; the job id is the export id, so a repeat add is a no-op. */
export async function enqueueRender(exportId: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      enqueue(QUEUES.exports, "render", { exportId }, { jobId: exportId }),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`queue did not answer within ${ENQUEUE_TIMEOUT_MS} ms`)), ENQUEUE_TIMEOUT_MS))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: string }).code === "P2002";
}

/**
 * POST /exports. 409 export_in_progress names the job being waited on. If the queue cannot take
 * the job, the row is failed with enqueue_failed (and its slot freed) and returned as such.
 */
export async function createExport(input: CreateExportInput, enqueue: (id: string) => Promise<void> = enqueueRender): Promise<ExportJobView> {
  // One audit row per create, in the insert's transaction; a refusal is a failure row (docs/decisions/125-audit-log.md).
  const what = { shopId: input.shopId, action: "export.create", target: { type: "export" as const, id: "new" } };
  let job: ExportJob | undefined;
  // The slot may free up between our refused insert and the look-up of its holder (the holder
  // finished): then the insert is simply tried again.
  for (let attempt = 0; !job; attempt++) {
    try {
      job = await audited(what, async (tx) => {
        const row = await tx.exportJob.create({
          data: {
            shopId: input.shopId,
            dataset: input.dataset,
            format: input.format,
            filters: input.filters,
            filterOptions: input.filterOptions as object,
            status: "queued",
            activeSlot: "active",
          },
        });
        return { result: row, targetId: row.id, changes: diffFields(null, { ...row, filters: JSON.stringify(row.filters) }, ["dataset", "format", "filters"]) };
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const active = await prisma.exportJob.findFirst({ where: { shopId: input.shopId, activeSlot: "active" } });
      if (active || attempt >= 2) {
        const name = active ? `${active.id} (${active.dataset}, ${active.status})` : "another export";
        await recordRefusal(
          new ApiError("export_in_progress", `Export ${name} is still queued or running; one export per shop at a time. Retry once it is ready or failed.`),
          what,
        );
      }
    }
  }
  try {
    await enqueue(job.id);
  } catch (err) {
    log.error("export enqueue failed", { export_id: job.id, err: err instanceof Error ? err : new Error(String(err)) });
    job = await prisma.exportJob.update({
      where: { id: job.id },
      data: { status: "failed", activeSlot: null, errorCode: "enqueue_failed", errorMessage: "The export could not be handed to the queue. Create it again." },
    });
  }
  return exportJobView(job);
}

/** Jobs of the shop whose datasets the caller may read, newest first. */
export async function listExports(ctx: { shopId: string; datasets: readonly string[]; page: PageRequest }): Promise<PageResult<ExportJobView>> {
  const rows = await prisma.exportJob.findMany({
    where: { shopId: ctx.shopId, dataset: { in: [...ctx.datasets] }, ...afterWhere(ctx.page.after) },
    orderBy: KEYSET_ORDER,
    take: ctx.page.limit + 1,
  });
  const now = new Date();
  return toPage(rows, ctx.page.limit, (j) => exportJobView(j, now));
}

export function exportNotFound(id: string): ApiError {
  return new ApiError("not_found", `No export ${id}`);
}

/** GET /exports/{id}: 404 for another shop's job; insufficient_scope for a dataset the key cannot read. */
export async function getExport(ctx: { shopId: string; id: string; scopes: readonly string[] }): Promise<ExportJobView> {
  const job = await prisma.exportJob.findUnique({ where: { id: ctx.id } });
  if (!job || job.shopId !== ctx.shopId) throw exportNotFound(ctx.id);
  const dataset = DATASETS[job.dataset as DatasetName];
  const missing = dataset ? dataset.scopes.filter((s) => !ctx.scopes.includes(s)) : [];
  if (missing.length)
    throw new ApiError("insufficient_scope", `This export's dataset ${job.dataset} requires the scope ${missing.map((s) => `"${s}"`).join(" and ")}.`);
  return exportJobView(job);
}

/** The Export Center's read-only list (admin session, no key scopes). */
export async function recentExports(shopId: string, limit = 20): Promise<ExportJobView[]> {
  const rows = await prisma.exportJob.findMany({ where: { shopId }, orderBy: KEYSET_ORDER, take: limit });
  return rows.map((j) => exportJobView(j));
}
