// A worker process SIGKILLed in the middle of rendering an export (docs/decisions/057-export-jobs.md: a file
// exists completely or not at all): nothing is downloadable while it is dead, and another
// worker renders the job from the first row to a complete file.
import { prisma } from "../../../app/db.server";
import { createExport } from "../../../app/domain/exports/jobs.server";
import { exportStorage, storageKey } from "../../../app/domain/exports/storage.server";
import { exited, startWorker } from "../../support/processes";
import { eventually, useStack } from "../../support/stack";
import { createContracts } from "../../support/fixtures";

const stack = useStack({ workers: false });

// Small keyset pages and progress written for each, so the render is many steps long.
const startExportWorker = () => startWorker("exports", { EXPORT_PAGE_ROWS: "100" });

describe("export worker crash", () => {
  it("SIGKILL mid-render leaves nothing downloadable; the job is rendered again, whole", async () => {
    const { shopId } = await stack.installShop();
    await createContracts(shopId, 12_000, (i) => ({ createdAt: new Date(Date.UTC(2026, 0, 1) - i * 1000), productTitle: `Product ${i}` }));

    const first = startExportWorker();
    await first.ready;
    const job = await createExport({ shopId, dataset: "subscriptions", format: "csv", filters: {}, filterOptions: {} });
    // Mid-render: running, some rows rendered, not all.
    const midway = await eventually(async () => {
      const row = await prisma.exportJob.findUniqueOrThrow({ where: { id: job.id } });
      return row.status === "running" && row.progressRows > 0 ? row : null;
    }, 60_000);
    const gone = exited(first);
    first.kill("SIGKILL");
    expect((await gone).signal).toBe("SIGKILL");
    const dead = await prisma.exportJob.findUniqueOrThrow({ where: { id: job.id } });
    expect(dead.status).toBe("running");
    expect(dead.progressRows).toBeGreaterThanOrEqual(midway.progressRows);
    expect(dead.progressRows).toBeLessThan(12_000);
    expect(dead.storageKey).toBeNull();
    expect(await exportStorage().open(storageKey(shopId, job.id, "csv"))).toBeNull();

    const second = startExportWorker();
    await second.ready;
    try {
      const done = await eventually(async () => {
        const row = await prisma.exportJob.findUniqueOrThrow({ where: { id: job.id } });
        return row.status === "ready" || row.status === "failed" ? row : null;
      }, 120_000);
      expect(done.status).toBe("ready");
      expect(done.rowCount).toBe(12_000);
      const file = await exportStorage().open(done.storageKey!);
      expect(file).not.toBeNull();
      const bytes = await new Promise<Buffer>((resolve, reject) => {
        const parts: Buffer[] = [];
        file!.body
          .on("data", (c: Buffer) => parts.push(c))
          .on("end", () => resolve(Buffer.concat(parts)))
          .on("error", reject);
      });
      expect(bytes.length).toBe(Number(done.byteSize));
      const text = bytes.toString("utf8");
      // Header + 40,000 rows, each once, the last one complete.
      const lines = text.split("\r\n");
      expect(lines.length).toBe(12_002);
      expect(lines[12_001]).toBe("");
      expect(new Set(lines.slice(1, -1)).size).toBe(12_000);
      expect(lines[12_000]).toContain('"Product 11999"');
    } finally {
      const stopped = exited(second);
      second.kill("SIGTERM");
      await stopped;
    }
  }, 400_000);
});
