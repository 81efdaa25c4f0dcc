// The storefront sync of a large shop reads its selling plan groups through one bulk operation
// (docs/decisions/164-storefront-bulk-read.md), the reconcile's resumable runner: not a single
// sellingPlanGroup or nodes page is asked, what it reads is what the paged read gives, and a
// worker SIGKILLed mid-apply is resumed from its checkpoint on the same operation, each group
// applied once (as tests/integration/platform/bulk-reconcile-crash.test.ts shows for contracts).
import { prisma } from "../../../app/db.server";
import { LARGE_STOREFRONT_GROUPS, readGroupsLive } from "../../../app/domain/storefront/live-read.server";
import { syncStorefrontMetafields } from "../../../app/domain/storefront/sync.server";
import { enqueue, queue, QUEUES } from "../../../app/infra/queues.server";
import { exited } from "../../support/processes";
import { killMidBulkRead } from "../../support/bulk-read-crash";
import { eventuallyProgressing, startStack, type Stack } from "../../support/stack";
import { createBundle, createPlanGroup } from "../../support/fixtures";
import { seedStorefrontShop } from "../../support/storefront-factories";

let stack: Stack;
beforeAll(async () => {
  // Every queue but the mirror runs in-process; the mirror's worker is a real process (the crash).
  stack = await startStack({ workersExcept: [QUEUES.mirror] });
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

type SimGroup = { id: string; sellingPlans: { id: string; name: string }[] };

/** `count` more of the app's groups on the simulator, each sold on its own product's two variants; `withBundle` of them mirrored with a bundle. */
async function addGroups(domain: string, shopId: string, count: number, withBundle: number): Promise<string[]> {
  const shop = stack.control.shop(domain);
  const gids: string[] = [];
  for (let i = 0; i < count; i++) {
    const product = await stack.control.call<{ id: string; variants: { id: string }[] }>("POST", `${shop}/products`, {
      title: `Blend ${i}`,
      variants: [
        { title: "Beans", price: "15.00" },
        { title: "Ground", price: "16.00" },
      ],
    });
    const group = await stack.control.call<SimGroup>("POST", `${shop}/selling-plan-groups`, {
      name: `Blend ${i} monthly`,
      plans: [{ name: `Blend ${i}, every month` }, { name: `Blend ${i}, every 2 months`, intervalCount: 2 }],
      variantIds: product.variants.map((v) => v.id),
    });
    gids.push(group.id);
    if (i < withBundle) {
      const local = await createPlanGroup(shopId, { groupGid: group.id, name: `Blend ${i} monthly`, sellingPlanGids: group.sellingPlans.map((p) => p.id) });
      await createBundle({ shopId, groupId: local.id, title: `Blend ${i} box` });
    }
  }
  return gids;
}

const operationsNamed = async (domain: string, names: string[]) =>
  (await stack.control.operations(domain)).filter((o) => names.includes(o.operation)).map((o) => o.operation);

describe("storefront sync of a large shop through a bulk operation", () => {
  it("reads the groups through one bulkOperationRunQuery, no pages, and reads what the paged read gives", async () => {
    const s = await seedStorefrontShop(stack);
    // The seeded shop's group plus enough mirrored ones to make the shop large.
    await addGroups(s.domain, s.shopId, LARGE_STOREFRONT_GROUPS, LARGE_STOREFRONT_GROUPS);
    const gids = (await prisma.sellingPlanGroup.findMany({ where: { shopId: s.shopId }, select: { groupGid: true } })).map((g) => g.groupGid);
    expect(gids.length).toBeGreaterThanOrEqual(LARGE_STOREFRONT_GROUPS);

    const pagesBefore = (await operationsNamed(s.domain, ["sellingPlanGroup", "nodes"])).length;
    const report = await syncStorefrontMetafields(s.domain, { read: { pollMs: 50 } });
    // One bulk operation, and not one paged read of a group or its variants.
    expect((await stack.control.bulkOperations(s.domain)).started).toBe(1);
    expect(await operationsNamed(s.domain, ["bulkOperationRunQuery"])).toEqual(["bulkOperationRunQuery"]);
    expect((await operationsNamed(s.domain, ["sellingPlanGroup", "nodes"])).length).toBe(pagesBefore);
    // The seeded bundle and Mix & Match on two products, and one bundle on each added group's product.
    expect(report).toEqual({ products: 2 + LARGE_STOREFRONT_GROUPS, written: 4 + LARGE_STOREFRONT_GROUPS, cleared: 0 });
    const written = await prisma.storefrontMetafield.findMany({ where: { shopId: s.shopId }, orderBy: [{ ownerGid: "asc" }, { key: "asc" }] });

    // The same reads by pages: the same groups, plans, variants and products.
    const paged = await readGroupsLive(s.shopId, s.domain, gids, { via: "pages" });
    const bulk = await readGroupsLive(s.shopId, s.domain, gids, { via: "bulk", pollMs: 50 });
    expect([paged.via, bulk.via]).toEqual(["pages", "bulk"]);
    const view = (r: typeof paged) =>
      [...r.live.values()].map((g) => ({ ...g, variantIds: [...g.variantIds].sort() })).sort((a, b) => a.groupGid.localeCompare(b.groupGid));
    expect(view(bulk)).toEqual(view(paged));
    expect(new Map([...bulk.productOf].sort())).toEqual(new Map([...paged.productOf].sort()));
    expect(bulk.live.get(s.group.gid)?.sellingPlans).toEqual([{ id: s.group.planGid, name: "Monthly, 10% off" }]);

    // And the sync by pages writes nothing new: the bulk sync had written exactly its values.
    expect(await syncStorefrontMetafields(s.domain, { read: { via: "pages" } })).toEqual({ ...report, written: 0 });
    expect(await prisma.storefrontMetafield.findMany({ where: { shopId: s.shopId }, orderBy: [{ ownerGid: "asc" }, { key: "asc" }] })).toEqual(written);
  }, 300_000);

  it("SIGKILL mid-apply: a new worker resumes the same bulk operation from its checkpoint and applies each group once", async () => {
    const s = await seedStorefrontShop(stack);
    // Many of the app's groups (most not sold through this app's bundles: read all the same), one per transaction.
    const N = 400;
    await addGroups(s.domain, s.shopId, N, LARGE_STOREFRONT_GROUPS);
    const total = N + 1;
    const bulkRead = () => prisma.bulkRead.findUnique({ where: { shopId_purpose: { shopId: s.shopId, purpose: "storefront" } } });
    const progress = async () => {
      const row = await bulkRead();
      return [row?.status, row?.linesApplied, await prisma.storefrontGroupRead.count({ where: { shopId: s.shopId } })];
    };
    const WORKER = { BULK_READ_BATCH: "1", WORKER_LOCK_MS: "5000" };

    const jobId = `storefront-${s.domain}-crash`;
    const { operation, second } = await killMidBulkRead({
      workerEnv: WORKER,
      start: () => enqueue(QUEUES.mirror, "sync-storefront", { domain: s.domain }, { jobId }),
      bulkRead: () => bulkRead(),
      progress,
      midwayWindow: (row) => row.rootsApplied >= 40 && row.rootsApplied <= N - 150,
      total,
    });
    try {
      await second.ready;
      const job = await eventuallyProgressing(async () => {
        const j = await queue(QUEUES.mirror).getJob(jobId);
        return j && (await j.isCompleted()) ? j : null;
      }, progress);
      const done = (await bulkRead())!;
      // One bulk operation for the whole run, resumed from the checkpoint the dead worker left.
      expect(done.operationGid).toBe(operation);
      expect(done.finishedAt).not.toBeNull();
      expect(done.resumes).toBeGreaterThanOrEqual(1);
      expect((await stack.control.bulkOperations(s.domain)).started).toBe(1);
      // Exactly once: the checkpoints' count is the shop's groups, each read once, all of this operation.
      expect(done.rootsApplied).toBe(total);
      expect(await prisma.storefrontGroupRead.count({ where: { shopId: s.shopId, operationGid: operation } })).toBe(total);
      // The sync the resumed read fed: the seeded products and the bundled groups' products, all written.
      expect(job.returnvalue).toEqual({ products: 2 + LARGE_STOREFRONT_GROUPS, written: 4 + LARGE_STOREFRONT_GROUPS, cleared: 0 });
    } finally {
      const ended = exited(second);
      second.kill("SIGTERM");
      await ended;
    }
  }, 900_000);
});
