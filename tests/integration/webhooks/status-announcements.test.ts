// Every status change of a contract is announced exactly once, in the order of Shopify's
// revisions, however many mirror jobs run at once and in whatever order its webhooks were queued
// (docs/decisions/093-ordered-status-announcements.md). Before, a pause and a resume of one
// contract processed at once both read ACTIVE: `subscription.paused` went out and
// `subscription.reactivated` never did.
import fc from "fast-check";
import { prisma } from "../../../app/db.server";
import { env } from "../../../app/env.server";
import { reconcileShop } from "../../../app/domain/subscriptions/reconcile.server";
import { createWorker, QUEUES, queue } from "../../../app/infra/queues.server";
import { PROCESSORS } from "../../../workers/processors";
import { postShopifyWebhook } from "../../support/shopify-webhooks";
import { eventually, startStack, type Stack } from "../../support/stack";

let stack: Stack;
beforeAll(async () => {
  // Every queue but the mirror runs; each test starts the mirror's worker once its webhooks wait.
  stack = await startStack({ workersExcept: [QUEUES.mirror] });
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

type Status = "ACTIVE" | "PAUSED" | "CANCELLED";
type SimContract = { id: string; customerId: string; status: string; revisionId: number };

/** The events a run of statuses must announce: one per change, named as the event catalogue names them. */
function expectedEvents(start: Status, statuses: readonly Status[]) {
  const out: Array<{ type: string; previous_status: Status; new_status: Status }> = [];
  let previous = start;
  for (const next of statuses) {
    if (next === previous) continue;
    const type = next === "PAUSED" ? "subscription.paused" : next === "CANCELLED" ? "subscription.cancelled" : "subscription.reactivated";
    out.push({ type, previous_status: previous, new_status: next });
    previous = next;
  }
  return out;
}

async function announced(shopId: string, contractId: string) {
  const events = await prisma.event.findMany({
    where: { shopId, data: { path: ["contract_id"], equals: contractId } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { type: true, data: true },
  });
  return events.map((e) => {
    const d = e.data as { previous_status: Status; new_status: Status };
    return { type: e.type, previous_status: d.previous_status, new_status: d.new_status };
  });
}

/** Runs the mirror queue's backlog with `concurrency` jobs at once, and stops once it is empty. */
async function drainMirror(domain: string, concurrency: number): Promise<void> {
  const worker = createWorker(QUEUES.mirror, PROCESSORS.mirror, { concurrency, stalledInterval: 1000 });
  try {
    // The queue is this Vitest worker's, shared with earlier test files: only this shop's jobs count.
    await eventually(async () => {
      const jobs = await queue(QUEUES.mirror).getJobs(["waiting", "active", "delayed", "prioritized"]);
      const mine = jobs.filter((j) => (j?.data as { shopDomain?: string } | undefined)?.shopDomain === domain);
      const unprocessed = await prisma.inboundWebhook.count({ where: { shopDomain: domain, processedAt: null } });
      return mine.length === 0 && unprocessed === 0;
    }, 60_000);
    const failed = (await queue(QUEUES.mirror).getFailed()).filter((j) => (j.data as { shopDomain?: string }).shopDomain === domain);
    expect(failed.map((j) => j.failedReason)).toEqual([]);
  } finally {
    await worker.close();
  }
}

/** A shop with `count` contracts in the mirror, announced as ACTIVE (as a reconcile leaves them). */
async function shopWithContracts(count: number) {
  const shop = await stack.installShop();
  const { ids } = await stack.control.call<{ ids: string[] }>("POST", `${stack.control.shop(shop.domain)}/contracts/bulk`, { count, webhooks: false });
  await reconcileShop(shop.domain);
  return { ...shop, ids };
}

const patchContract = (domain: string, id: string, body: object) =>
  stack.control.call<SimContract>("PATCH", `${stack.control.shop(domain)}/contracts/${encodeURIComponent(id)}`, body);

/** The update webhook of one revision, signed as Shopify signs it. */
function postUpdate(domain: string, c: SimContract, status: Status, revision: number) {
  return postShopifyWebhook(stack.appUrl, "subscription_contracts/update", domain, {
    admin_graphql_api_id: c.id,
    id: Number(c.id.split("/").pop()),
    admin_graphql_api_customer_id: c.customerId,
    status: status.toLowerCase(),
    revision_id: String(revision),
  });
}

// The default concurrency of a worker process (WORKER_CONCURRENCY), and a much wider one.
describe.each([env().WORKER_CONCURRENCY, 16])("the mirror queue running %i jobs at once", (concurrency) => {
  it("pause then resume of many contracts, the webhooks queued in Shopify's order: paused, then reactivated, for every contract", async () => {
    const { domain, shopId, ids } = await shopWithContracts(12);
    // Made "in Shopify admin": the simulator sends each change's update webhook, in order; no
    // mirror worker runs yet, so each contract's two jobs wait side by side in the queue.
    for (const id of ids) {
      await patchContract(domain, id, { status: "PAUSED" });
      await patchContract(domain, id, { status: "ACTIVE" });
    }
    await stack.sim.idle();
    expect(await prisma.inboundWebhook.count({ where: { shopDomain: domain, processedAt: null } })).toBe(24);

    await drainMirror(domain, concurrency);
    for (const id of ids) expect(await announced(shopId, id), id).toEqual(expectedEvents("ACTIVE", ["PAUSED", "ACTIVE"]));
  }, 120_000);

  it("the resume's webhook queued before the pause's: still paused, then reactivated, once each", async () => {
    const { domain, shopId, ids } = await shopWithContracts(12);
    for (const id of ids) {
      await patchContract(domain, id, { status: "PAUSED", webhooks: false });
      const c = await patchContract(domain, id, { status: "ACTIVE", webhooks: false });
      expect((await postUpdate(domain, c, "ACTIVE", c.revisionId)).status).toBe(200);
      expect((await postUpdate(domain, c, "PAUSED", c.revisionId - 1)).status).toBe(200);
    }
    await drainMirror(domain, concurrency);
    for (const id of ids) expect(await announced(shopId, id), id).toEqual(expectedEvents("ACTIVE", ["PAUSED", "ACTIVE"]));
    const rows = await prisma.contract.findMany({ where: { shopId }, select: { status: true, announcedStatus: true } });
    expect(rows.every((r) => r.status === "ACTIVE" && r.announcedStatus === "ACTIVE")).toBe(true);
  }, 120_000);

  it("any run of status changes, its webhooks queued in any order: each change announced once, in revision order", async () => {
    const status = fc.constantFrom<Status>("ACTIVE", "PAUSED", "CANCELLED");
    const contractRuns = fc.array(fc.array(status, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(contractRuns, fc.infiniteStream(fc.nat()), async (runs, shuffle) => {
        const { domain, shopId, ids } = await shopWithContracts(runs.length);
        // Each contract's run of statuses, one revision each; the webhooks of all contracts are
        // then posted in an order drawn by fast-check.
        const hooks: Array<() => Promise<Response>> = [];
        for (const [i, run] of runs.entries()) {
          for (const s of run) {
            const c = await patchContract(domain, ids[i], { status: s, webhooks: false });
            hooks.push(() => postUpdate(domain, c, s, c.revisionId));
          }
        }
        const order = hooks.map((post, i) => ({ post, key: shuffle.next().value * hooks.length + i })).sort((a, b) => a.key - b.key);
        for (const { post } of order) expect((await post()).status).toBe(200);

        await drainMirror(domain, concurrency);
        for (const [i, run] of runs.entries()) expect(await announced(shopId, ids[i])).toEqual(expectedEvents("ACTIVE", run));
      }),
      // PROPERTY_RUNS=100 for the acceptance run of the issue (decision 093 records it).
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 8) },
    );
  }, 600_000);
});
