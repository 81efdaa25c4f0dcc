// A worker SIGKILLed in the middle of a bulk read (docs/decisions/097-bulk-reads.md): the steps the
// reconcile's and the storefront sync's crash tests share, up to the second worker that resumes.
import type { BulkRead } from "@prisma/client";
import { QUEUES } from "../../app/infra/queues.server";
import { exited, startWorker, type WorkerProcess } from "./processes";
import { eventuallyProgressing } from "./stack";

export interface MidBulkReadKill {
  /** The first checkpoint seen inside the `midway` window, before the kill. */
  midway: BulkRead;
  /** What the dead worker left: unfinished, at or past `midway`, short of `total`. */
  stopped: BulkRead;
  operation: string;
  /** A fresh `mirror` worker, started after the kill; the caller stops it. */
  second: WorkerProcess;
}

export async function killMidBulkRead(o: {
  workerEnv: Record<string, string>;
  start: () => Promise<unknown>;
  bulkRead: () => Promise<BulkRead | null>;
  progress: () => Promise<unknown>;
  midwayWindow: (row: BulkRead) => boolean;
  total: number;
}): Promise<MidBulkReadKill> {
  const first = startWorker(QUEUES.mirror, o.workerEnv);
  await first.ready;
  await o.start();
  const midway = await eventuallyProgressing(async () => {
    const row = await o.bulkRead();
    return row && o.midwayWindow(row) ? row : null;
  }, o.progress);
  const gone = exited(first);
  first.kill("SIGKILL");
  expect((await gone).signal).toBe("SIGKILL");

  const stopped = (await o.bulkRead())!;
  expect(stopped.finishedAt).toBeNull();
  expect(stopped.rootsApplied).toBeGreaterThanOrEqual(midway.rootsApplied);
  expect(stopped.rootsApplied).toBeLessThan(o.total);
  const operation = stopped.operationGid!;
  expect(operation).toMatch(/^gid:\/\/shopify\/BulkOperation\/\d+$/);
  return { midway, stopped, operation, second: startWorker(QUEUES.mirror, o.workerEnv) };
}
