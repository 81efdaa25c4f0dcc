// The reconcile of a large shop goes through one bulk operation, and a worker killed mid-way is
// resumed (docs/decisions/097-bulk-reads.md): a worker process applying the bulk result is
// SIGKILLed between two checkpoints; a new worker picks the job up, waits on the same operation
// (no second one is started), applies the rest from the checkpoint, and every contract is applied
// exactly once (the run's applied count equals the shop's contracts, not more).
// Size: 3,000 contracts keep the test within a couple of minutes on the shared 2-core machine;
// the same path with 100,000 contracts is measured by `npm run bench:reconcile`.
import { prisma } from "../../../app/db.server";
import { enqueue, queue, QUEUES } from "../../../app/infra/queues.server";
import { exited } from "../../support/processes";
import { killMidBulkRead } from "../../support/bulk-read-crash";
import { eventuallyProgressing, startStack, type Stack } from "../../support/stack";

let stack: Stack;
beforeAll(async () => {
  // Every queue but the mirror runs in-process; the mirror's worker is a real process.
  stack = await startStack({ workersExcept: [QUEUES.mirror] });
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

const N = 3_000;
// A job lock a loaded machine can renew: a lapsed one would hand the running job to a second run
// (which the checkpoint refuses, see below), where this test is about a dead worker.
const WORKER = { BULK_READ_BATCH: "100", WORKER_LOCK_MS: "5000" };
const LINES_EACH = 2;

describe("bulk reconcile worker crash", () => {
  it("SIGKILL mid-apply: a new worker resumes the same bulk operation from its checkpoint and applies nothing twice", async () => {
    const shop = await stack.installShop();
    const product = await stack.control.call<{ variants: { id: string }[] }>("POST", `${stack.control.shop(shop.domain)}/products`, {
      title: "Tea",
      variants: [{ price: "12.50" }],
    });
    const line = { variantId: product.variants[0].id, quantity: 1, price: "12.50" };
    await stack.control.call("POST", `${stack.control.shop(shop.domain)}/contracts/bulk`, { count: N, template: { lines: [line, { ...line, quantity: 3 }] } });
    // The shop's first reconcile pages until it knows the shop is large (250 contracts), then
    // reads the rest in bulk; a Plus bucket keeps that prelude short on a loaded machine.
    await stack.control.rateLimit(shop.domain, { plan: "plus" });
    const bulkRead = () => prisma.bulkRead.findUnique({ where: { shopId_purpose: { shopId: shop.shopId, purpose: "reconcile" } } });
    const progress = async () => {
      const row = await bulkRead();
      return [row?.status, row?.linesApplied, await prisma.contract.count({ where: { shopId: shop.shopId } })];
    };

    // Small batches (100 contracts a transaction) so the kill lands between two checkpoints.
    const jobId = `reconcile-${shop.domain}-crash`;
    const { midway, operation, second } = await killMidBulkRead({
      workerEnv: WORKER,
      start: () => enqueue(QUEUES.mirror, "reconcile-shop", { domain: shop.domain }, { jobId }),
      bulkRead: () => bulkRead(),
      progress,
      midwayWindow: (row) => row.rootsApplied >= 300 && row.rootsApplied <= N - 1_000,
      total: N,
    });
    try {
      await second.ready;
      const done = await eventuallyProgressing(async () => {
        const row = await bulkRead();
        return row?.finishedAt ? row : null;
      }, progress);
      // One bulk operation for the whole run, resumed from the checkpoint the dead worker left (at
      // least once: a job whose lock lapsed on a loaded machine is run again and resumes too).
      expect(done.operationGid).toBe(operation);
      expect(done.resumes).toBeGreaterThanOrEqual(1);
      expect((await stack.control.bulkOperations(shop.domain)).started).toBe(1);
      // The job the new worker finished started from a checkpoint, not from the file's first line.
      const job = await eventuallyProgressing(async () => {
        const j = await queue(QUEUES.mirror).getJob(jobId);
        return j && (await j.isCompleted()) ? j : null;
      }, progress);
      expect(job.returnvalue).toMatchObject({ via: "bulk", contracts: N, operationId: operation });
      expect(job.returnvalue.resumedFromLine).toBeGreaterThanOrEqual(midway.linesApplied);
      // Exactly once: the checkpoints' count of applied contracts is the shop's, and the mirror holds each once with its lines.
      expect(done.rootsApplied).toBe(N);
      expect(done.status).toBe("COMPLETED");
      expect(await prisma.contract.count({ where: { shopId: shop.shopId } })).toBe(N);
      expect(await prisma.contractLine.count({ where: { contract: { shopId: shop.shopId } } })).toBe(N * LINES_EACH);
      const sample = await prisma.contract.findFirstOrThrow({ where: { shopId: shop.shopId }, include: { lines: { orderBy: { position: "asc" } } } });
      expect(sample.chargeAmountCents).toBe(1250 + 3 * 1250);
      expect(sample.lines.map((l) => l.quantity)).toEqual([1, 3]);
      expect(sample.announcedStatus).toBe("ACTIVE");
    } finally {
      const ended = exited(second);
      second.kill("SIGTERM");
      await ended;
    }
  }, 900_000);
});
