// The whole-shop reconcile (the nightly drift repair, the CLI): rebuilds the shop's mirror from
// every contract the platform returns (docs/decisions/097-bulk-reads.md). A small shop is paged
// (6 contracts a page keeps each request under Shopify's single-query maximum); a large one is read
// through one bulk operation, which costs the shop's bucket 10 points whatever its size, and whose
// result is applied in batches with a checkpoint, so a worker stopped mid-way is resumed.
// Contracts the platform no longer returns are left alone (their last reported state stays
// visible). Announces nothing: a reconcile repairs state, it is not a lifecycle change.
import type { ContractStatus, Prisma } from "@prisma/client";
import { prisma } from "../../db.server";
import { platformFor } from "../../platform/index.server";
import type { PlatformContract } from "../../platform/port";
import { CONTRACTS_BULK_QUERY, contractFromBulkRows } from "../../platform/graphql/contracts-bulk";
import { runBulkRead } from "../shared/bulk-read.server";
import { contractFields, contractLines, refreshCard, upsertContract } from "./mirror.server";

type Tx = Prisma.TransactionClient;

/**
 * A shop is large from this many contracts (docs/decisions/097-bulk-reads.md): paging them would
 * take about 42 requests of up to 962 points each, more than a standard shop's whole bucket,
 * where one bulk operation costs 10 points.
 */
export const LARGE_SHOP_CONTRACTS = 250;

export interface ReconcileReport {
  contracts: number;
  via: "pages" | "bulk";
  /** The bulk operation read (via "bulk"). */
  operationId?: string;
  /** Via "bulk": the JSONL line this call resumed from (0 for a fresh run). */
  resumedFromLine?: number;
}

export interface ReconcileOptions {
  pageSize?: number;
  /** Force one way (tests, the CLI); by default the shop's size decides. */
  via?: "pages" | "bulk";
  /** Bulk: root objects per transaction, and how often Shopify is asked about the operation. */
  batchSize?: number;
  pollMs?: number;
}

export async function reconcileShop(shopDomain: string, opts: ReconcileOptions = {}): Promise<ReconcileReport> {
  const shop = await prisma.shop.findUniqueOrThrow({ where: { domain: shopDomain }, select: { id: true } });
  // An open bulk run (a worker stopped mid-way) is resumed whatever the size says now.
  const open = await prisma.bulkRead.findUnique({ where: { shopId_purpose: { shopId: shop.id, purpose: "reconcile" } }, select: { finishedAt: true } });
  const mirrored = await prisma.contract.count({ where: { shopId: shop.id } });
  const large = (open !== null && !open.finishedAt) || mirrored >= LARGE_SHOP_CONTRACTS;
  if ((opts.via ?? (large ? "bulk" : "pages")) === "bulk") return reconcileByBulk(shopDomain, shop.id, opts);
  const paged = await reconcileByPages(shopDomain, shop.id, opts.pageSize ?? 100, opts.via === "pages" ? Infinity : LARGE_SHOP_CONTRACTS);
  // The mirror did not know the shop was large (its first reconcile): the rest comes in bulk.
  if (paged === "large") return reconcileByBulk(shopDomain, shop.id, opts);
  return { contracts: paged, via: "pages" };
}

async function reconcileByBulk(shopDomain: string, shopId: string, opts: ReconcileOptions): Promise<ReconcileReport> {
  const report = await runBulkRead({
    shopId,
    shopDomain,
    purpose: "reconcile",
    query: CONTRACTS_BULK_QUERY,
    priority: "reconcile",
    batchSize: opts.batchSize,
    pollMs: opts.pollMs,
    apply: (tx, roots) => applyContracts(tx, shopId, roots.map(contractFromBulkRows)),
  });
  return { contracts: report.total, via: "bulk", operationId: report.operationId, resumedFromLine: report.resumedFromLine };
}

/** Pages every contract; "large" once more than `largeAt` were read and more remain. */
async function reconcileByPages(shopDomain: string, shopId: string, pageSize: number, largeAt: number): Promise<number | "large"> {
  const platform = await platformFor(shopDomain, "reconcile");
  let after: string | null = null;
  let count = 0;
  for (;;) {
    const page = await platform.listContracts({ first: pageSize, after });
    // One short transaction per contract: a page-long one would hold the shop's cohort-summary
    // rows (decision 009) while webhooks for the same shop wait on them.
    for (const c of page.nodes) await prisma.$transaction((tx) => applyOne(tx, shopId, c));
    count += page.nodes.length;
    if (!page.hasNextPage || !page.endCursor) break;
    if (count >= largeAt) return "large";
    after = page.endCursor;
  }
  return count;
}

/** One contract; a new one starts announced at its current status, so the next webhook announces only a real change. */
async function applyOne(tx: Tx, shopId: string, c: PlatformContract): Promise<void> {
  const previous = await upsertContract(tx, shopId, c);
  if (previous === null) {
    await tx.contract.update({
      where: { shopId_contractGid: { shopId, contractGid: c.id } },
      data: { announcedStatus: c.status as ContractStatus, announcedRevision: BigInt(c.revisionId || "0") },
    });
  }
}

/**
 * A batch of contracts in a few statements: new ones inserted together with their lines, newer
 * snapshots of known ones written one by one (upsertContract's revision rule), unchanged ones
 * skipped but for a replaced card. What a racing webhook inserted first goes through upsertContract as well.
 */
export async function applyContracts(tx: Tx, shopId: string, contracts: PlatformContract[]): Promise<void> {
  if (!contracts.length) return;
  const existing = await tx.contract.findMany({
    where: { shopId, contractGid: { in: contracts.map((c) => c.id) } },
    select: { id: true, contractGid: true, revision: true, cardExpiryMonth: true, cardExpiryYear: true },
  });
  const known = new Map(existing.map((e) => [e.contractGid, e]));
  const fresh = contracts.filter((c) => !known.has(c.id));
  const newer = contracts.filter((c) => known.has(c.id) && known.get(c.id)!.revision < BigInt(c.revisionId || "0"));
  // Unchanged contracts may still carry a replaced card (docs/decisions/158-card-expiry-mirror.md).
  const newerIds = new Set(newer.map((c) => c.id));
  for (const c of contracts) if (known.has(c.id) && !newerIds.has(c.id)) await refreshCard(tx, known.get(c.id)!, c);

  const planGids = [...new Set(fresh.map((c) => c.lines[0]?.sellingPlanId).filter((p): p is string => !!p))];
  const plans = planGids.length
    ? await tx.sellingPlan.findMany({
        where: { sellingPlanGid: { in: planGids }, group: { shopId } },
        select: { sellingPlanGid: true, group: { select: { groupGid: true } } },
      })
    : [];
  const groupOf = new Map(plans.map((p) => [p.sellingPlanGid, p.group.groupGid]));
  const created = fresh.length
    ? await tx.contract.createManyAndReturn({
        data: fresh.map((c) => ({
          ...contractFields(c, null, groupOf.get(c.lines[0]?.sellingPlanId ?? "") ?? null),
          shopId,
          contractGid: c.id,
          createdAt: new Date(c.createdAt),
          announcedStatus: c.status as ContractStatus,
          announcedRevision: BigInt(c.revisionId || "0"),
        })),
        skipDuplicates: true,
        select: { id: true, contractGid: true },
      })
    : [];
  const idOf = new Map(created.map((r) => [r.contractGid, r.id]));
  const lines = fresh.flatMap((c) => (idOf.has(c.id) ? contractLines(c).map((l) => ({ ...l, contractId: idOf.get(c.id)! })) : []));
  if (lines.length) await tx.contractLine.createMany({ data: lines });
  for (const c of [...fresh.filter((f) => !idOf.has(f.id)), ...newer]) await applyOne(tx, shopId, c);
}
