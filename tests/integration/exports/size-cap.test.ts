// The 128 MB cap (docs/decisions/057-export-jobs.md), lowered for this file: EXPORT_MAX_BYTES is read when the
// environment is first parsed, so it is set before any module is imported.
vi.hoisted(() => {
  process.env.EXPORT_MAX_BYTES = "3000";
});
import { prisma } from "../../../app/db.server";
import { env } from "../../../app/env.server";
import { useStack } from "../../support/stack";
import { exportsClient, finished } from "../../support/exports";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { createContracts } from "../../support/fixtures";

// Worker round trips on a loaded machine: generous per-test time (no wall-clock assertions).
vi.setConfig({ testTimeout: 120_000 });

const stack = useStack();

describe("export size cap", () => {
  it("a file past the cap fails with export_too_large and leaves no file; one within it is ready", async () => {
    expect(env().EXPORT_MAX_BYTES).toBe(3000);
    const { shopId } = await stack.installShop();
    const call = await exportsClient(stack, shopId);
    await createContracts(shopId, 40, (i) => ({ status: i < 5 ? "PAUSED" : "ACTIVE" }));

    const big = await finished(call, (await call("POST", "/exports", { dataset: "subscriptions" })).json.id);
    expect(big.status).toBe("failed");
    expect(big.error!.code).toBe("export_too_large");
    expect(big.error!.message).toMatch(/3000 bytes/);
    expect(big.download_url).toBeNull();
    expect(big.byte_size).toBeNull();
    const row = await prisma.exportJob.findUniqueOrThrow({ where: { id: big.id } });
    expect(row.storageKey).toBeNull();
    // Neither a published file nor a leftover partial one.
    const dir = path.resolve(env().EXPORTS_DIR);
    const shopFiles = await readdir(path.join(dir, shopId)).catch(() => []);
    expect(shopFiles).toEqual([]);
    expect((await readdir(path.join(dir, ".partial")).catch(() => [])).filter((f) => f.startsWith(big.id))).toEqual([]);

    // Narrowed with a filter, it fits (and the slot was freed by the failure).
    const small = await finished(call, (await call("POST", "/exports", { dataset: "subscriptions", filters: { status: "PAUSED" } })).json.id);
    expect(small.status).toBe("ready");
    expect(small.row_count).toBe(5);
    expect(small.byte_size).toBeLessThanOrEqual(3000);
  });
});
