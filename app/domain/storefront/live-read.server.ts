// What the storefront sync reads of the platform (docs/decisions/164-storefront-bulk-read.md): each
// of the app's selling plan groups with its plans and the variants it is sold on, and each of those
// variants' products. A shop with few groups is read by pages (one sellingPlanGroup read each, then
// the variants by ids); a large one through one bulk operation, the reconcile's resumable runner
// (docs/decisions/097-bulk-reads.md), whose checkpointed batches land in storefront_group_reads so a
// worker stopped mid-way is resumed from its checkpoint.
import type { Prisma } from "@prisma/client";
import { prisma } from "../../db.server";
import { SELLING_PLAN_GROUPS_BULK_QUERY, sellingPlanGroupFromBulkRows, type BulkSellingPlanGroup } from "../../platform/graphql/selling-plan-groups-bulk";
import { livePlatform, resolveGroupsLive, type LiveGroup } from "../catalog/selling-plans-live.server";
import { runBulkRead } from "../shared/bulk-read.server";

/**
 * A shop is large for the storefront sync from this many selling plan groups: the paged read asks
 * 305 points a group (SELLING_PLAN_GROUP_GET: 50 plans and 250 variants, tests/unit/platform/query-cost.test.ts),
 * so 7 groups ask more than a standard shop's whole 2,000-point bucket, the reconcile's rule
 * (docs/decisions/097-bulk-reads.md). One bulk operation costs 10 points whatever the catalogue.
 */
export const LARGE_STOREFRONT_GROUPS = 7;

export interface StorefrontLiveRead {
  /** Every asked group; one the platform no longer has carries `sellingPlans: null`. */
  live: Map<string, LiveGroup>;
  /** Variant gid -> product gid, for every variant of the asked groups. */
  productOf: Map<string, string>;
  via: "pages" | "bulk";
}

export interface LiveReadOptions {
  /** Force one way (tests); by default the count of groups decides. */
  via?: "pages" | "bulk";
  /** Bulk: groups per transaction, and how often Shopify is asked about the operation. */
  batchSize?: number;
  pollMs?: number;
}

export async function readGroupsLive(
  shopId: string,
  shopDomain: string,
  groupGids: readonly string[],
  opts: LiveReadOptions = {},
): Promise<StorefrontLiveRead> {
  const unique = [...new Set(groupGids)];
  // An open bulk run (a worker stopped mid-way) is resumed whatever the count says now.
  const open = await prisma.bulkRead.findUnique({ where: { shopId_purpose: { shopId, purpose: "storefront" } }, select: { finishedAt: true } });
  const large = (open !== null && !open.finishedAt) || unique.length >= LARGE_STOREFRONT_GROUPS;
  return (opts.via ?? (large ? "bulk" : "pages")) === "bulk" ? readByBulk(shopId, shopDomain, unique, opts) : readByPages(shopDomain, unique);
}

async function readByPages(shopDomain: string, groupGids: string[]): Promise<StorefrontLiveRead> {
  const live = await resolveGroupsLive(shopDomain, groupGids, "storefront_sync");
  const allVariants = [...new Set([...live.values()].flatMap((g) => g.variantIds))];
  const variants = allVariants.length ? await livePlatform(shopDomain, (port) => port.getVariants(allVariants), "storefront_sync") : [];
  return { live, productOf: new Map(variants.map((v) => [v.id, v.productId])), via: "pages" };
}

async function readByBulk(shopId: string, shopDomain: string, groupGids: string[], opts: LiveReadOptions): Promise<StorefrontLiveRead> {
  const report = await runBulkRead({
    shopId,
    shopDomain,
    purpose: "storefront",
    query: SELLING_PLAN_GROUPS_BULK_QUERY,
    priority: "storefront_sync",
    batchSize: opts.batchSize,
    pollMs: opts.pollMs,
    apply: (tx, roots, operationId) => saveGroups(tx, shopId, operationId, roots.map(sellingPlanGroupFromBulkRows)),
  });
  // This run's rows are the platform's groups now; an earlier run's that this one did not rewrite are gone there.
  await prisma.storefrontGroupRead.deleteMany({ where: { shopId, operationGid: { not: report.operationId } } });
  const rows = await prisma.storefrontGroupRead.findMany({ where: { shopId, groupGid: { in: groupGids } } });
  const read = new Map(rows.map((r) => [r.groupGid, r]));
  const live = new Map<string, LiveGroup>();
  const productOf = new Map<string, string>();
  for (const gid of groupGids) {
    const row = read.get(gid);
    const variants = (row?.variants ?? []) as BulkSellingPlanGroup["variants"];
    for (const v of variants) productOf.set(v.id, v.productId);
    live.set(gid, {
      groupGid: gid,
      sellingPlans: row ? (row.sellingPlans as BulkSellingPlanGroup["sellingPlans"]) : null,
      variantIds: variants.map((v) => v.id),
    });
  }
  return { live, productOf, via: "bulk" };
}

/** One batch of groups, written with the bulk read's checkpoint (a group read again replaces its row). */
async function saveGroups(tx: Prisma.TransactionClient, shopId: string, operationGid: string, groups: BulkSellingPlanGroup[]): Promise<void> {
  if (!groups.length) return;
  await tx.storefrontGroupRead.deleteMany({ where: { shopId, groupGid: { in: groups.map((g) => g.groupId) } } });
  await tx.storefrontGroupRead.createMany({
    data: groups.map((g) => ({ shopId, groupGid: g.groupId, operationGid, sellingPlans: g.sellingPlans, variants: g.variants })),
  });
}
