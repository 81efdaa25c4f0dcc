// A worker process SIGKILLed in the middle of a migration import (docs/decisions/085): another
// worker resumes the import's job, and every contract exists exactly once on the platform. The
// crash is caught where it matters: a contract the platform created whose ledger claim the dead
// worker never settled. The resumed run settles that claim by reading the customer's contracts
// for the import key (the crash-recovery lookup), not by creating the contract again.
import { prisma } from "../../../app/db.server";
import { importProgress } from "../../../app/domain/imports/progress.server";
import { IMPORT_KEY_ATTRIBUTE } from "../../../app/domain/imports/run.server";
import { createImport, startImport } from "../../../app/domain/imports/start.server";
import { QUEUES } from "../../../app/infra/queues.server";
import { exited, startWorker } from "../../support/processes";
import { eventuallyProgressing, startStack, type Stack } from "../../support/stack";
import { exportMigration, seedCatalogue, seedSubscribers } from "../../support/imports";

let stack: Stack;
beforeAll(async () => {
  // Workers for every queue but imports run in-process; the import worker is a real process.
  stack = await startStack({ workersExcept: [QUEUES.imports] });
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

type SimContract = { id: string; customerId: string; customAttributes: { key: string; value: string }[] };
const keyOf = (c: SimContract) => c.customAttributes.find((a) => a.key === IMPORT_KEY_ATTRIBUTE)?.value;

describe("import worker crash", () => {
  it("SIGKILL mid-import: another worker resumes it, settles the unrecorded contract by reading the platform, and creates none twice", async () => {
    const N = 40;
    const source = await stack.installShop();
    const sourceCat = await seedCatalogue(stack, source.domain, source.shopId);
    await seedSubscribers(stack, source.domain, sourceCat, N);
    const target = await stack.installShop();
    const targetCat = await seedCatalogue(stack, target.domain, target.shopId);
    let file = await exportMigration(stack, source.shopId);
    for (const [name, id] of sourceCat.ids) file = file.split(`"${id}"`).join(`"${targetCat.ids.get(name)}"`);
    const contractsOnPlatform = () => stack.control.call<SimContract[]>("GET", `${stack.control.shop(target.domain)}/contracts`);

    // A slow platform (each contract creation answers after 150 ms), and the eighth creation's
    // answer held for 30 s: the contract exists on the platform, the worker has not heard so, and
    // its ledger claim is unsettled when the worker dies. Failures are taken in order.
    for (let i = 0; i < N; i++) {
      await stack.control.failNext(target.domain, { operation: "subscriptionContractAtomicCreate", delayMs: i === 7 ? 30_000 : 150 });
    }
    const first = startWorker(QUEUES.imports);
    await first.ready;
    const { id } = await createImport(target.shopId, { fileName: "migration.csv", text: file });
    await startImport(target.shopId, id);
    // Anything that moves counts as progress: the import's status and settled items, the ledger's
    // claims, the contracts on the platform. The waits below fail only when all stand still.
    const progress = async () => [
      (await importProgress(target.shopId, id))?.status,
      (await importProgress(target.shopId, id))?.done,
      await prisma.importedContract.count({ where: { shopId: target.shopId } }),
      (await contractsOnPlatform()).length,
    ];

    // Kill it once the platform holds a contract the ledger only has claimed.
    const unsettled = async () => {
      const claimed = new Set((await prisma.importedContract.findMany({ where: { shopId: target.shopId, state: "claimed" } })).map((l) => l.importKey));
      const found = (await contractsOnPlatform()).filter((c) => claimed.has(keyOf(c) ?? ""));
      return found.length ? found : null;
    };
    await eventuallyProgressing(unsettled, progress);
    const gone = exited(first);
    first.kill("SIGKILL");
    expect((await gone).signal).toBe("SIGKILL");

    const orphans = (await unsettled()) ?? [];
    expect(orphans.length).toBeGreaterThan(0);
    expect(await prisma.migrationImportItem.count({ where: { importId: id, status: "created" } })).toBeLessThan(N);
    expect((await prisma.migrationImport.findUniqueOrThrow({ where: { id } })).status).toBe("running");
    const lookupsBefore = (await stack.control.operations(target.domain, { operation: "customer" })).length;

    const second = startWorker(QUEUES.imports);
    try {
      await second.ready;
      const done = await eventuallyProgressing(async () => {
        const row = await prisma.migrationImport.findUniqueOrThrow({ where: { id } });
        return row.status === "done" || row.status === "failed" ? row : null;
      }, progress);
      expect(done.status).toBe("done");
      const counts = await prisma.migrationImportItem.groupBy({ by: ["status"], where: { importId: id }, _count: { _all: true } });
      expect(counts).toEqual([{ status: "created", _count: { _all: N } }]);

      // Every contract once on the platform, each import key once.
      const sim = await contractsOnPlatform();
      expect(sim.length).toBe(N);
      expect(new Set(sim.map(keyOf)).size).toBe(N);
      const ledger = await prisma.importedContract.findMany({ where: { shopId: target.shopId } });
      expect(ledger.length).toBe(N);
      expect(ledger.every((l) => l.state === "created")).toBe(true);
      expect(new Set(ledger.map((l) => l.contractGid))).toEqual(new Set(sim.map((c) => c.id)));

      // The orphans were settled with the contracts the dead worker had created, found by the
      // resumed run reading their customers' contracts (query `customer`), not created again.
      const byKey = new Map(ledger.map((l) => [l.importKey, l.contractGid]));
      for (const o of orphans) expect(byKey.get(keyOf(o)!)).toBe(o.id);
      const lookups = (await stack.control.operations(target.domain, { operation: "customer" })).slice(lookupsBefore);
      const looked = new Set(lookups.map((op) => op.variables.id));
      for (const o of orphans) expect(looked.has(o.customerId)).toBe(true);
      expect(lookupsBefore).toBe(0);
    } finally {
      const stopped = exited(second);
      second.kill("SIGTERM");
      await stopped;
    }
    // Generous: two cold worker starts and 40 slowed contracts on a loaded machine. The waits
    // above fail on a stall, not on a clock.
  }, 900_000);
});
