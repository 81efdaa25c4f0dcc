// Redis may lose an import's BullMQ job; the import is not lost (docs/decisions/086-import-sweeper.md).
// The import's row in PostgreSQL is the truth: the "imports-requeue" sweeper hands every queued
// or running import whose job is gone back to the queue, and the run resumes from its items and
// ledger, so nothing is created twice (docs/decisions/085-migration-import.md).
import { UnrecoverableError } from "bullmq";
import { prisma } from "../../../app/db.server";
import { env } from "../../../app/env.server";
import { runImport } from "../../../app/domain/imports/run.server";
import { createImport, startImport } from "../../../app/domain/imports/start.server";
import { requeueLostImports } from "../../../app/domain/imports/sweep.server";
import { createWorker, QUEUES, queue, queueConnection } from "../../../app/infra/queues.server";
import { PROCESSORS } from "../../../workers/processors";
import { deleteRedisPrefix } from "../../support/redis-keys";
import { eventually, startStack, type Stack } from "../../support/stack";
import { exportMigration, importFinished, seedCatalogue, seedSubscribers } from "../../support/imports";

let stack: Stack;
beforeAll(async () => {
  // Every queue but imports is served in-process (the export that makes the file needs one);
  // imports have no worker until the test starts one.
  stack = await startStack({ workersExcept: [QUEUES.imports] });
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

/** A target shop and a migration file of `count` contracts from a source shop, ids mapped. */
async function importable(count: number) {
  const source = await stack.installShop();
  const sourceCat = await seedCatalogue(stack, source.domain, source.shopId);
  await seedSubscribers(stack, source.domain, sourceCat, count);
  const target = await stack.installShop();
  const targetCat = await seedCatalogue(stack, target.domain, target.shopId);
  let file = await exportMigration(stack, source.shopId);
  for (const [name, id] of sourceCat.ids) file = file.split(`"${id}"`).join(`"${targetCat.ids.get(name)}"`);
  return { target, file };
}

const simContracts = (stack: Stack, domain: string) =>
  stack.control.call<Array<{ id: string; customAttributes: { key: string; value: string }[] }>>("GET", `${stack.control.shop(domain)}/contracts`);

it("an import whose BullMQ job failed for good while its row says running is failed, and the shop may import again", async () => {
  const { target, file } = await importable(2);
  const { id } = await createImport(target.shopId, { fileName: "migration.csv", text: file });
  await startImport(target.shopId, id);
  const job = await queue(QUEUES.imports).getJob(id);
  // BullMQ gives up on the job (as when it stalled past its limit) without the run recording an end.
  const giveUp = createWorker(
    QUEUES.imports,
    { run: () => Promise.reject(new UnrecoverableError("job stalled more than allowable limit")) },
    { concurrency: 1 },
  );
  try {
    await eventually(async () => (await job!.isFailed()) || null, 60_000);
  } finally {
    await giveUp.close();
  }
  expect(await prisma.migrationImport.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "queued" });
  expect(await requeueLostImports(new Date(Date.now() + 120_000))).toEqual({ requeued: 0, failed: 1 });
  expect(await prisma.migrationImport.findUniqueOrThrow({ where: { id } })).toMatchObject({
    status: "failed",
    activeSlot: null,
    errorMessage: "job stalled more than allowable limit",
  });
  const again = await createImport(target.shopId, { fileName: "migration.csv", text: file });
  await expect(startImport(target.shopId, again.id)).resolves.toBeUndefined();
});

it("two runs of one import at once (a job handed on while its first run still works) create every contract once", async () => {
  // docs/decisions/094-import-run-lease.md: the second run waits on the import's lease and
  // finds the import finished; without the lease both would create the claimed-but-unsettled keys.
  const n = 12;
  const { target, file } = await importable(n);
  const { id } = await createImport(target.shopId, { fileName: "migration.csv", text: file });
  await startImport(target.shopId, id);
  for (let i = 0; i < n; i++) await stack.control.failNext(target.domain, { operation: "subscriptionContractAtomicCreate", delayMs: 100 });
  const outcomes = await Promise.all([runImport(id, { concurrency: 2 }), runImport(id, { concurrency: 2 })]);
  expect(outcomes.sort()).toEqual(["done", "skipped"]);
  const sim = await simContracts(stack, target.domain);
  expect(sim.length).toBe(n);
  expect(new Set(sim.map((c) => c.customAttributes.find((x) => x.key === "migration_import_key")?.value)).size).toBe(n);
  expect(await prisma.migrationImport.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "done", leaseToken: null, activeSlot: null });
}, 120_000);

it("Redis loses the jobs of a queued and a running import: after the sweeper runs, both complete and no contract exists twice", async () => {
  const queued = await importable(4);
  const running = await importable(8);
  const a = await createImport(queued.target.shopId, { fileName: "migration.csv", text: queued.file });
  const b = await createImport(running.target.shopId, { fileName: "migration.csv", text: running.file });
  await startImport(queued.target.shopId, a.id);
  await startImport(running.target.shopId, b.id);
  expect(await queue(QUEUES.imports).getJob(a.id)).toBeDefined();

  // The second import runs until the platform goes down after five contracts (a run stopped by
  // a 503 stays running: its job would retry it). Failures are taken in order, so the sixth
  // contract creation is the one answered 503.
  for (let i = 0; i < 5; i++) await stack.control.failNext(running.target.domain, { operation: "subscriptionContractAtomicCreate", delayMs: 1 });
  await stack.control.failNext(running.target.domain, { operation: "subscriptionContractAtomicCreate", status: 503 });
  await expect(runImport(b.id, { concurrency: 1 })).rejects.toThrow();
  expect(await prisma.migrationImport.findUniqueOrThrow({ where: { id: b.id } })).toMatchObject({ status: "running" });
  expect(await prisma.migrationImportItem.count({ where: { importId: b.id, status: "created" } })).toBe(5);
  expect((await simContracts(stack, running.target.domain)).length).toBe(5);

  // Redis loses everything under this run's prefix (never FLUSHDB: tests/support/redis-keys.ts),
  // with no worker holding a job of it (the in-process ones are done with the exports).
  await Promise.all(stack.workers.map((w) => w.close()));
  expect(await deleteRedisPrefix(queueConnection(), env().REDIS_PREFIX)).toBeGreaterThan(0);
  expect(await queue(QUEUES.imports).getJob(a.id)).toBeUndefined();
  expect(await queue(QUEUES.imports).getJob(b.id)).toBeUndefined();

  // Within the grace period nothing is touched; past it both are queued again, once.
  expect(await requeueLostImports(new Date(Date.now() - 120_000))).toEqual({ requeued: 0, failed: 0 });
  // (Every queued or running import of this database lost its job: these two and any an earlier test left queued.)
  const active = await prisma.migrationImport.count({ where: { status: { in: ["queued", "running"] } } });
  expect(active).toBeGreaterThanOrEqual(2);
  expect(await requeueLostImports(new Date(Date.now() + 120_000))).toEqual({ requeued: active, failed: 0 });
  expect(await queue(QUEUES.imports).getJob(a.id)).toBeDefined();
  expect(await queue(QUEUES.imports).getJob(b.id)).toBeDefined();
  expect(await requeueLostImports(new Date(Date.now() + 120_000))).toEqual({ requeued: 0, failed: 0 });

  const worker = createWorker(QUEUES.imports, PROCESSORS.imports, { concurrency: 2 });
  try {
    const [pa, pb] = await Promise.all([importFinished(queued.target.shopId, a.id), importFinished(running.target.shopId, b.id)]);
    expect(pa).toMatchObject({ status: "done", created: 4, failed: 0 });
    expect(pb).toMatchObject({ status: "done", created: 8, failed: 0 });
  } finally {
    await worker.close();
  }
  for (const { target, n } of [
    { target: queued.target, n: 4 },
    { target: running.target, n: 8 },
  ]) {
    const sim = await simContracts(stack, target.domain);
    expect(sim.length).toBe(n);
    const keys = sim.map((c) => c.customAttributes.find((x) => x.key === "migration_import_key")?.value);
    expect(new Set(keys).size).toBe(n);
    const ledger = await prisma.importedContract.findMany({ where: { shopId: target.shopId } });
    expect(ledger.map((l) => l.state)).toEqual(Array(n).fill("created"));
    expect(new Set(ledger.map((l) => l.contractGid))).toEqual(new Set(sim.map((c) => c.id)));
  }
}, 300_000);
