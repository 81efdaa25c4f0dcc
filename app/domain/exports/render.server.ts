// Rendering one export job (the `exports` queue's worker). docs/decisions/057-export-jobs.md: queued -> running
// (started_at) -> ready (row_count, byte_size, ready_at, expires_at = ready + 24 h) or failed
// with error { code, message }. The file is rendered into a temporary file, measured (size and
// SHA-256), then published atomically; a crash at any point leaves nothing downloadable, and the
// retry starts the file again from the first row. docs/decisions/057-export-jobs.md.
import { open, rm, stat } from "node:fs/promises";
import { prisma } from "../../db.server";
import { env } from "../../env.server";
import { log } from "../../infra/log.server";
import { isPlatformError } from "../../platform/index.server";
import type { SubscriptionFilterOptions } from "../subscriptions/filters.server";
import { DATASETS } from "./datasets.server";
import { type DatasetName } from "./stream-types";
import { EXTENSION, encoder, type ExportFormat } from "../shared/format";
import { EXPORT_RETENTION, type ExportFailureCode } from "./jobs.server";
import { exportStorage, storageKey } from "./storage.server";
import { FileSink } from "./file-sink.server";
import { streamDataset } from "./stream.server";

/** A failure that no retry can fix: the job is failed at once with this code. */
export class ExportFailure extends Error {
  constructor(
    readonly code: ExportFailureCode,
    message: string,
  ) {
    super(message);
    this.name = "ExportFailure";
  }
}

export interface RenderOptions {
  /** This is the last attempt BullMQ will make: a retryable error fails the job instead. */
  finalAttempt: boolean;
  now?: () => Date;
  /** Rows between progress writes (the job's `progress`). */
  progressEvery?: number;
}

export type RenderOutcome = "ready" | "failed" | "skipped";

async function fail(id: string, code: ExportFailureCode, message: string): Promise<void> {
  await prisma.exportJob.updateMany({
    where: { id, status: { in: ["queued", "running"] } },
    data: { status: "failed", activeSlot: null, errorCode: code, errorMessage: message },
  });
}

export async function renderExport(exportId: string, opts: RenderOptions): Promise<RenderOutcome> {
  const now = opts.now ?? (() => new Date());
  // Claim: only a queued job, or a running one whose previous attempt died, is rendered.
  const claimed = await prisma.exportJob.updateMany({
    where: { id: exportId, status: { in: ["queued", "running"] } },
    data: { status: "running", progressRows: 0 },
  });
  if (!claimed.count) return "skipped";
  const job = await prisma.exportJob.findUnique({ where: { id: exportId }, include: { shop: { select: { installState: true } } } });
  if (!job) return "skipped";
  if (!job.startedAt) await prisma.exportJob.update({ where: { id: exportId }, data: { startedAt: now() } });

  const storage = exportStorage();
  const temp = await storage.tempPath(job.id);
  try {
    if (job.shop.installState !== "INSTALLED") throw new ExportFailure("shop_unavailable", "The service was uninstalled from the shop before the export ran.");
    const dataset = DATASETS[job.dataset as DatasetName];
    if (!dataset) throw new ExportFailure("render_failed", `Unknown dataset ${job.dataset}.`);
    // The typed options the surface parsed at creation (the `filters` column keeps the wire form).
    const filters = (job.filterOptions ?? {}) as SubscriptionFilterOptions;
    const format = job.format as ExportFormat;
    const max = env().EXPORT_MAX_BYTES;

    const fh = await open(temp, "w");
    const file = new FileSink(fh, max);
    let rows = 0;
    let reported = 0;
    let reportedAt = 0;
    try {
      for await (const chunk of streamDataset(dataset, encoder(format, dataset.columns), { shopId: job.shopId, filters, now: now() })) {
        if (!(await file.add(chunk.bytes))) {
          throw new ExportFailure(
            "export_too_large",
            `The rendered file exceeded ${max} bytes after ${rows} rows; narrow it with filters or export it in parts.`,
          );
        }
        rows += chunk.rows;
        // Progress at most four times a second: one UPDATE per page measured a second per
        // million rows (docs/decisions/068-export-renderer-in-sql.md).
        if (rows - reported >= (opts.progressEvery ?? 1000) && Date.now() - reportedAt >= 250) {
          reported = rows;
          reportedAt = Date.now();
          await prisma.exportJob.updateMany({ where: { id: job.id, status: "running" }, data: { progressRows: rows } });
        }
      }
      await fh.sync();
    } finally {
      await fh.close();
    }
    const bytes = file.bytes;
    const hash = file.hash;
    // Measure what is on disk, not what we think we wrote.
    const size = (await stat(temp)).size;
    if (size !== bytes) throw new Error(`rendered ${bytes} bytes but the file holds ${size}`);

    const key = storageKey(job.shopId, job.id, EXTENSION[format]);
    await storage.publish(key, temp);
    const readyAt = now();
    const done = await prisma.exportJob.updateMany({
      where: { id: job.id, status: "running" },
      data: {
        status: "ready",
        activeSlot: null,
        rowCount: rows,
        progressRows: rows,
        byteSize: BigInt(size),
        sha256: hash.digest("hex"),
        storageKey: key,
        readyAt,
        expiresAt: new Date(readyAt.getTime() + EXPORT_RETENTION.readyMs),
      },
    });
    if (!done.count) {
      // Deleted (uninstall, shop/redact) or released while rendering: the bytes must not outlive it.
      // Unless another run of this same job (a lock BullMQ lost on a busy machine) published first:
      // the ready row names this key, and removing it would leave a ready export with no file.
      const row = await prisma.exportJob.findUnique({ where: { id: job.id }, select: { status: true, storageKey: true } });
      if (row?.status !== "ready" || row.storageKey !== key) await storage.remove(key);
      return "skipped";
    }
    log.info("export ready", { export_id: job.id, dataset: job.dataset, format, rows, bytes: size });
    return "ready";
  } catch (err) {
    await rm(temp, { force: true });
    if (err instanceof ExportFailure) {
      await fail(job.id, err.code, err.message);
      log.warn("export failed", { export_id: job.id, code: err.code });
      return "failed";
    }
    if (isPlatformError(err) && err.kind === "shop_unavailable") {
      await fail(job.id, "shop_unavailable", "The shop no longer grants the service access (uninstalled).");
      return "failed";
    }
    log.warn("export render error", { export_id: job.id, final: opts.finalAttempt, err: err instanceof Error ? err : new Error(String(err)) });
    if (opts.finalAttempt) {
      await fail(
        job.id,
        "render_failed",
        isPlatformError(err)
          ? "Shopify did not answer while the export read customer data; create it again."
          : "The export could not be rendered; create it again.",
      );
      return "failed";
    }
    throw err; // BullMQ retries with back-off
  }
}
