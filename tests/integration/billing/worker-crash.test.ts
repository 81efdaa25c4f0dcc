// A worker SIGKILLed in the middle of a billing run charges nobody twice (docs/decisions/080): the
// run's job lock lapses, another worker runs it again from the start, and every contract's attempt
// keeps its idempotency key (derived from contract, cycle and attempt number), so Shopify answers
// the attempts it already made instead of making new ones.
import { prisma } from "../../../app/db.server";
import { billingRunJobId, queueBillingRuns } from "../../../app/domain/renewals/jobs.server";
import { QUEUES, queue } from "../../../app/infra/queues.server";
import { exited, startWorker, type WorkerProcess } from "../../support/processes";
import { eventsOf, seedDueContract, simAttempts } from "../../support/billing-factories";
import { eventually, startStack, type Stack } from "../../support/stack";

let stack: Stack;
const children: WorkerProcess[] = [];
beforeAll(async () => {
  stack = await startStack({ workers: false });
}, 120_000);
afterAll(async () => {
  await Promise.all(children.map((c) => c.stop()));
  await stack?.close();
});

async function billingWorker(): Promise<WorkerProcess> {
  const child = startWorker("billing,mirror", {
    WORKER_SHUTDOWN_GRACE_MS: "2000",
    // No scheduler tick during the test: the run is queued by the test.
    BILLING_CRON: "0 0 1 1 *",
    // The worker's own account of a failed wait (tests log errors only).
    LOG_LEVEL: "info",
  });
  children.push(child);
  await child.ready;
  return child;
}

it("a worker SIGKILLed mid-run: after another worker runs the job again, each due contract was charged exactly once and renewed once", async () => {
  const { domain, shopId } = await stack.installShop();
  const due = new Date(Date.now() - 86_400_000).toISOString();
  const contracts = [];
  for (let i = 0; i < 12; i++) contracts.push(await seedDueContract(stack.control, domain, { nextBillingDate: due }));
  // Three charges answer slowly (made at once, answered after 5 s), so the run is mid-way when killed.
  for (let i = 0; i < 3; i++) await stack.control.failNext(domain, { operation: "subscriptionBillingAttemptCreate", delayMs: 5000 });

  const first = await billingWorker();
  // This shop's run only: the shops earlier test files left in this database (the demo shop's 640
  // contracts among them) would share the worker with it and make the wait a matter of load.
  await queueBillingRuns([domain]);
  await eventually(async () => (await prisma.billingAttempt.count({ where: { shopId } })) >= 3, 30_000);
  expect(await (await queue(QUEUES.billing).getJob(billingRunJobId(domain)))?.isActive()).toBe(true);
  const gone = exited(first);
  first.kill("SIGKILL");
  await gone;

  const second = await billingWorker();
  try {
    await stack.settled(domain, async () => (await prisma.billingCycle.count({ where: { shopId, status: "PAID" } })) === contracts.length, 60_000);
    await stack.settled(domain, async () => (await eventsOf(shopId, "subscription.renewed")).length === contracts.length, 30_000);
  } catch (err) {
    // Where the run stopped: the engine's rows and what the second worker said.
    const cycles = await prisma.billingCycle.findMany({ where: { shopId }, select: { status: true, attempts: true } });
    const attempts = await prisma.billingAttempt.findMany({ where: { shopId }, select: { status: true, attemptGid: true, number: true } });
    const events = await prisma.event.groupBy({ by: ["type"], where: { shopId }, _count: true });
    throw new Error(
      `${(err as Error).message}\ncycles: ${JSON.stringify(cycles)}\nattempts: ${JSON.stringify(attempts)}\nevents: ${JSON.stringify(events)}\nworker:\n${second.output().slice(-4000)}`,
      { cause: err },
    );
  }
  for (const c of contracts) expect(await simAttempts(stack.control, domain, c.gid)).toHaveLength(1);
  expect(await prisma.billingAttempt.count({ where: { shopId } })).toBe(contracts.length);
  expect(new Set((await eventsOf(shopId, "subscription.renewed")).map((e) => e.data.contract_id))).toEqual(new Set(contracts.map((c) => c.gid)));
}, 120_000);

it("every worker serving the billing queue asserts the billing-tick job scheduler (a BullMQ scheduler, not a timer)", async () => {
  await billingWorker();
  const schedulers = await queue(QUEUES.billing).getJobSchedulers();
  expect(schedulers.map((s) => ({ key: s.key, pattern: s.pattern }))).toEqual([{ key: "billing-tick", pattern: "0 0 1 1 *" }]);
}, 90_000);
