// One whole-shop read through a Shopify bulk operation, resumable (docs/decisions/097-bulk-reads.md).
// The run is a row of bulk_reads (shop, purpose): the operation it waits on and how far the JSONL
// result has been applied. A worker that dies mid-way leaves the row open; the next run of the
// same purpose picks it up: it waits on the same operation (never starting a second one while it
// runs) and applies the result from the last committed checkpoint, each batch committed together
// with its checkpoint so no root object is applied twice.
import type { Prisma } from "@prisma/client";
import { prisma } from "../../db.server";
import { env } from "../../env.server";
import { sleep } from "../../infra/async";
import { log } from "../../infra/log.server";
import { bulkResultRows, type BulkRow } from "../../platform/bulk-results.server";
import { isPlatformError, PlatformError, platformFor, type CallPriority, type ShopifyPort } from "../../platform/index.server";
import type { PlatformBulkOperation } from "../../platform/port";

export type BulkPurpose = "reconcile" | "storefront";

export interface BulkReadOptions {
  shopId: string;
  shopDomain: string;
  purpose: BulkPurpose;
  /** The bulk query (a document of app/platform/graphql/, checked against the schema there). */
  query: string;
  priority: CallPriority;
  /**
   * Applies one batch of root objects (each with its nested rows) in the checkpoint's transaction;
   * `operationId` tells rows of this run from an earlier run's.
   */
  apply: (tx: Prisma.TransactionClient, roots: BulkRow[][], operationId: string) => Promise<void>;
  /** Root objects per transaction (default BULK_READ_BATCH, 500). */
  batchSize?: number;
  /** How often Shopify is asked about the operation when no webhook said it finished (default 2 s). */
  pollMs?: number;
}

export interface BulkReadReport {
  operationId: string;
  /** Root objects applied by this call (not counting those a stopped worker had committed). */
  applied: number;
  /** Root objects applied over the whole run, this call's included. */
  total: number;
  /** The line this call started applying from: 0 for a fresh run, the checkpoint for a resumed one. */
  resumedFromLine: number;
}

const RUNNING: PlatformBulkOperation["status"][] = ["CREATED", "RUNNING", "CANCELING"];
const sameQuery = (a: string, b: string) => a.replace(/\s+/g, " ").trim() === b.replace(/\s+/g, " ").trim();

/** The open run of the purpose, or a fresh one (the last one finished, or none yet). */
async function openRun(shopId: string, purpose: BulkPurpose) {
  const existing = await prisma.bulkRead.findUnique({ where: { shopId_purpose: { shopId, purpose } } });
  if (existing && !existing.finishedAt) {
    return prisma.bulkRead.update({ where: { shopId_purpose: { shopId, purpose } }, data: { resumes: { increment: 1 } } });
  }
  const fresh = {
    operationGid: null,
    status: null,
    url: null,
    objectCount: 0,
    linesApplied: 0,
    rootsApplied: 0,
    resumes: 0,
    startedAt: new Date(),
    finishedAt: null,
  };
  return prisma.bulkRead.upsert({ where: { shopId_purpose: { shopId, purpose } }, create: { shopId, purpose, ...fresh }, update: fresh });
}

/**
 * Starts the bulk query, or adopts the one already running for it: a worker that died between
 * Shopify's answer and recording the id left it running. Another purpose's bulk query holds the
 * shop's one slot: wait for it to end, then start.
 */
async function startOperation(port: ShopifyPort, query: string, pollMs: number): Promise<PlatformBulkOperation> {
  for (;;) {
    const current = await port.currentBulkOperation();
    if (current && RUNNING.includes(current.status) && sameQuery(current.query, query)) return current;
    if (!current || !RUNNING.includes(current.status)) {
      try {
        return await port.runBulkQuery(query);
      } catch (err) {
        if (!(isPlatformError(err) && err.code === "OPERATION_IN_PROGRESS")) throw err;
      }
    }
    await sleep(pollMs);
  }
}

/** Waits until the operation is finished: told by the bulk_operations/finish webhook (the row) or by asking Shopify. */
async function awaitOperation(
  port: ShopifyPort,
  shopId: string,
  purpose: BulkPurpose,
  id: string,
  pollMs: number,
): Promise<{ status: string; url: string | null }> {
  const where = { shopId_purpose: { shopId, purpose } };
  let asked = 0;
  for (;;) {
    const row = await prisma.bulkRead.findUniqueOrThrow({ where });
    // The webhook records only the status: the url is read from Shopify either way.
    if (row.status && !RUNNING.includes(row.status as PlatformBulkOperation["status"]) && row.url) return { status: row.status, url: row.url };
    const webhookSaysDone = row.status !== null && !RUNNING.includes(row.status as PlatformBulkOperation["status"]);
    if (webhookSaysDone || Date.now() - asked >= pollMs) {
      asked = Date.now();
      const op = await port.getBulkOperation(id);
      if (!op) throw new PlatformError("unavailable", `Bulk operation ${id} is not known to Shopify`);
      await prisma.bulkRead.update({ where, data: { status: op.status, url: op.url, objectCount: op.objectCount } });
      if (!RUNNING.includes(op.status)) return { status: op.status, url: op.url };
    }
    await sleep(Math.min(250, pollMs));
  }
}

export async function runBulkRead(opts: BulkReadOptions): Promise<BulkReadReport> {
  const { shopId, purpose, query } = opts;
  const pollMs = opts.pollMs ?? 2_000;
  const batchSize = opts.batchSize ?? env().BULK_READ_BATCH;
  const where = { shopId_purpose: { shopId, purpose } };
  const port = await platformFor(opts.shopDomain, opts.priority);

  let run = await openRun(shopId, purpose);
  if (!run.operationGid) {
    const op = await startOperation(port, query, pollMs);
    run = await prisma.bulkRead.update({ where, data: { operationGid: op.id, status: op.status } });
    log.info("bulk read started", { shop: opts.shopDomain, purpose, operation: op.id });
  } else {
    log.info("bulk read resumed", { shop: opts.shopDomain, purpose, operation: run.operationGid, fromLine: run.linesApplied });
  }
  const operationId = run.operationGid!;
  const finished = await awaitOperation(port, shopId, purpose, operationId, pollMs);
  if (finished.status !== "COMPLETED") {
    // A failed operation ends the run; the job's retry starts a new one.
    await prisma.bulkRead.update({ where, data: { finishedAt: new Date() } });
    throw new PlatformError("unavailable", `Bulk operation ${operationId} ended ${finished.status}`);
  }

  const from = run.linesApplied;
  let applied = 0;
  let total = run.rootsApplied;
  let checkpoint = from;
  let batch: BulkRow[][] = [];
  /** Commits the batch with the checkpoint `nextLine` (the first line not yet applied). */
  const commit = async (nextLine: number) => {
    if (!batch.length) return;
    const roots = batch;
    batch = [];
    await prisma.$transaction(
      async (tx) => {
        await opts.apply(tx, roots, operationId);
        // The checkpoint moves only if it is still where this worker read it: a second worker on
        // the same run would find it moved and fail its transaction rather than apply twice.
        const moved = await tx.bulkRead.updateMany({
          where: { shopId, purpose, operationGid: operationId, linesApplied: checkpoint, finishedAt: null },
          data: { linesApplied: nextLine, rootsApplied: { increment: roots.length } },
        });
        if (moved.count !== 1) throw new Error(`bulk read ${purpose} of ${opts.shopDomain}: the checkpoint moved under this worker`);
      },
      { timeout: 120_000, maxWait: 30_000 },
    );
    checkpoint = nextLine;
    applied += roots.length;
    total += roots.length;
  };
  async function applyFile(url: string) {
    let group: BulkRow[] | null = null;
    let lastLine = from - 1;
    // groupObjects: a root object's nested rows follow it, so a root row closes the previous group.
    for await (const { line, row } of bulkResultRows(url)) {
      lastLine = line;
      if (line < from) continue;
      if (row.__parentId === undefined) {
        if (group) {
          batch.push(group);
          if (batch.length >= batchSize) await commit(line);
        }
        group = [row];
      } else if (group) {
        group.push(row);
      }
    }
    if (group) batch.push(group);
    await commit(lastLine + 1);
  }
  if (finished.url) {
    try {
      await applyFile(finished.url);
    } catch (err) {
      // The file is gone (expired): this run cannot finish; the job's retry starts a new one.
      if (isPlatformError(err) && err.code === "EXPIRED") await prisma.bulkRead.update({ where, data: { finishedAt: new Date() } });
      throw err;
    }
  }
  await prisma.bulkRead.update({ where, data: { finishedAt: new Date() } });
  log.info("bulk read applied", { shop: opts.shopDomain, purpose, operation: operationId, applied, total, fromLine: from });
  return { operationId, applied, total, resumedFromLine: from };
}
