// One run at a time per import (docs/decisions/094-import-run-lease.md). BullMQ's job lock is not
// enough: a worker whose event loop stalls past the lock has its job handed to another run (or to
// itself again) while the first still creates contracts, and two runs over one ledger can both
// find a key claimed-but-unsettled and create its contract twice. The lease lives on the import's
// row, timed by the database's clock: a run takes it only when it is free or lapsed, renews it
// while it works, stops creating as soon as a renewal finds it taken, and only the holder records
// the import's end. A run that finds the lease held waits for it instead of failing its job.
import { randomUUID } from "node:crypto";
import { prisma } from "../../db.server";
import { env } from "../../env.server";
import { sleep } from "../../infra/async";
import { log } from "../../infra/log.server";

export class ImportLease {
  /** Set when a renewal found the lease taken by another run: create nothing more. */
  lost = false;
  private readonly timer: NodeJS.Timeout;

  private constructor(
    readonly importId: string,
    readonly token: string,
    leaseMs: number,
  ) {
    this.timer = setInterval(() => void this.renew(leaseMs), Math.max(200, Math.floor(leaseMs / 3)));
    this.timer.unref();
  }

  /**
   * Takes the import's lease, waiting while another live run holds it. Null when the import
   * ended meanwhile (the other run finished it) or is not runnable.
   */
  static async acquire(importId: string, leaseMs = env().IMPORT_LEASE_MS): Promise<ImportLease | null> {
    const token = randomUUID();
    for (;;) {
      const taken = await prisma.$executeRaw`
        UPDATE migration_imports SET lease_token = ${token}, lease_until = now() + ${leaseMs} * interval '1 millisecond'
        WHERE id = ${importId} AND status IN ('queued', 'running') AND (lease_until IS NULL OR lease_until < now())`;
      if (taken === 1) return new ImportLease(importId, token, leaseMs);
      const row = await prisma.migrationImport.findUnique({ where: { id: importId }, select: { status: true } });
      if (!row || (row.status !== "queued" && row.status !== "running")) return null;
      await sleep(Math.max(100, Math.floor(leaseMs / 5)));
    }
  }

  private async renew(leaseMs: number): Promise<void> {
    if (this.lost) return;
    try {
      const renewed = await prisma.$executeRaw`
        UPDATE migration_imports SET lease_until = now() + ${leaseMs} * interval '1 millisecond'
        WHERE id = ${this.importId} AND lease_token = ${this.token}`;
      if (renewed === 0) {
        this.lost = true;
        log.warn("import lease lost to another run", { import_id: this.importId });
      }
    } catch (err) {
      // A failed renewal is retried at the next tick; the lease lapses only if they all fail.
      log.warn("import lease renewal failed", { import_id: this.importId, err: err as Error });
    }
  }

  /** Ends the import (only while this run holds the lease); false when it was lost. */
  async finish(status: "done" | "failed", message: string | null): Promise<boolean> {
    clearInterval(this.timer);
    const { count } = await prisma.migrationImport.updateMany({
      where: { id: this.importId, leaseToken: this.token },
      data: { status, activeSlot: null, finishedAt: new Date(), errorMessage: message?.slice(0, 1000) ?? null, leaseToken: null, leaseUntil: null },
    });
    return count === 1;
  }

  /** Lets the lease go without ending the import (the job will be retried). */
  async release(): Promise<void> {
    clearInterval(this.timer);
    await prisma.migrationImport.updateMany({ where: { id: this.importId, leaseToken: this.token }, data: { leaseToken: null, leaseUntil: null } });
  }
}
