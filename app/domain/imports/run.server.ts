// The migration import (docs/decisions/085-migration-import.md), one module per step: a `migration`
// file (CSV or JSONL, the columns of app/domain/exports/migration-columns.ts) becomes service-owned
// contracts on the platform: contracts this app created are the only ones it sees.
//
//   validate.server  dryRun: every row validated and the platform read (variants, customers by
//                    e-mail); nothing written anywhere. The page and the CLI show its report.
//   start.server     createImport: the same report, and the upload kept as an import in state
//                    `validated`; startImport: queued (one queued-or-running import per shop,
//                    enforced by a unique slot) and handed to the `imports` queue.
//   run.server       runImport (this file), the worker: contracts created with bounded concurrency.
//   ledger.server    each key claimed in the shop's ledger before its platform call and settled
//                    after it, so the same file twice creates nothing twice and a crash resumes
//                    without duplicates.
//   progress.server  the progress the page polls, and the file of failed rows.
// The mirror and the outbound events follow from the platform's subscription_contracts/create
// webhooks, as for any contract.
import { prisma } from "../../db.server";
import { validate, DEFAULT_IMPORT_CONCURRENCY } from "./validate.server";
import { ImportLease } from "./lease.server";
import { claimBatch, settleBatch, IMPORT_BATCH, BATCHES_IN_FLIGHT, type ItemOutcome, type Settled } from "./ledger.server";
import { log } from "../../infra/log.server";
import { isPlatformError, platformFor, PlatformError, type ShopifyPort } from "../../platform/index.server";
import { columnForPlatformField, type PlannedContract } from "./plan";
import { forEachLimit, limiter, sleep } from "../../infra/async";

/** The contract custom attribute that carries the import key on the platform. */
export const IMPORT_KEY_ATTRIBUTE = "migration_import_key";

export interface RunOptions {
  concurrency?: number;
  /** The job's last attempt: a failure that would be retried fails the import instead. */
  finalAttempt?: boolean;
}

/** Shared back-off of one run: a THROTTLED answer pauses every worker of the pool together. */
class Throttle {
  private until = 0;
  private strikes = 0;
  async wait() {
    const ms = this.until - Date.now();
    if (ms > 0) await sleep(ms);
  }
  hit() {
    this.strikes = Math.min(this.strikes + 1, 6);
    this.until = Math.max(this.until, Date.now() + 250 * 2 ** this.strikes);
  }
  ok() {
    this.strikes = Math.max(0, this.strikes - 1);
  }
}

const isThrottled = (err: unknown) => isPlatformError(err) && err.code === "THROTTLED";
/** A refusal of one contract (its row is fixable); anything else stops the run. */
const isRefusal = (err: unknown): err is PlatformError => isPlatformError(err) && (err.kind === "invalid_request" || err.kind === "state_conflict");
const failedWith = (err: PlatformError): ItemOutcome => ({ status: "failed", column: columnForPlatformField(err.field), message: err.message });

/**
 * Runs (or resumes) an import to its end. Safe to run again at any point: items already settled
 * are not touched, and a key claimed but not settled is checked on the platform before creating.
 * Returns the import's final status.
 *
 * Throughput (docs/decisions/087-import-throughput.md): contracts go in batches of IMPORT_BATCH;
 * a batch claims its keys in one statement, finds its customers in one lookup request, creates
 * the missing ones in one customerSet request, creates its contracts (one
 * subscriptionContractAtomicCreate each, at most `concurrency` at once across the run) and
 * records its outcomes in one transaction. A new customer's row costs about one platform round
 * trip and a twelfth of a database round trip beyond the contract itself.
 */
export async function runImport(importId: string, opts: RunOptions = {}): Promise<"done" | "failed" | "skipped"> {
  const lease = await ImportLease.acquire(importId);
  if (!lease) return "skipped";
  try {
    return await runHolding(lease, opts);
  } catch (err) {
    await lease.release();
    throw err;
  }
}

async function runHolding(lease: ImportLease, opts: RunOptions): Promise<"done" | "failed" | "skipped"> {
  const importId = lease.importId;
  const imp = await prisma.migrationImport.findUniqueOrThrow({ where: { id: importId }, include: { shop: { select: { domain: true } } } });
  await prisma.migrationImport.update({ where: { id: importId }, data: { status: "running", startedAt: imp.startedAt ?? new Date() } });

  let port: ShopifyPort;
  try {
    port = await platformFor(imp.shop.domain, "importer");
  } catch (err) {
    return finish(lease, "failed", isPlatformError(err) ? err.message : "The shop is not available");
  }
  const v = await validate(imp.shopId, port, { fileName: imp.fileName, text: imp.content });
  const todo = await pendingPlans(importId, v.plans);
  const batches = Array.from({ length: Math.ceil(todo.length / IMPORT_BATCH) }, (_, i) => todo.slice(i * IMPORT_BATCH, (i + 1) * IMPORT_BATCH));
  const run = new ImportRun(imp.shopId, lease, port, opts.concurrency ?? DEFAULT_IMPORT_CONCURRENCY);
  await forEachLimit(batches, BATCHES_IN_FLIGHT, (batch) => run.runBatch(batch));

  if (lease.lost) return "skipped"; // another run holds the import now and will end it
  const fatal = run.fatal;
  if (fatal) {
    const shopGone = fatal instanceof PlatformError && fatal.kind === "shop_unavailable";
    log.warn("import interrupted", { import_id: importId, final: opts.finalAttempt, err: fatal instanceof Error ? fatal : new Error(String(fatal)) });
    if (shopGone || opts.finalAttempt) return finish(lease, "failed", fatal instanceof Error ? fatal.message : String(fatal));
    throw fatal;
  }
  return finish(lease, "done", null);
}

/** Writes the import's items once (a rerun finds them) and answers the plans still pending. */
async function pendingPlans(importId: string, plans: PlannedContract[]): Promise<PlannedContract[]> {
  await prisma.migrationImportItem.createMany({
    data: plans.map((p) => ({
      importId,
      importKey: p.key,
      rows: p.rows,
      status: p.errors.length ? "failed" : "pending",
      errorColumn: p.errors[0]?.column ?? null,
      errorMessage: p.errors.length
        ? p.errors
            .map((e) => `row ${e.row}${e.column ? `, ${e.column}` : ""}: ${e.message}`)
            .join("; ")
            .slice(0, 1000)
        : null,
    })),
    skipDuplicates: true,
  });
  const pending = await prisma.migrationImportItem.findMany({ where: { importId, status: "pending" }, select: { importKey: true } });
  const keys = new Set(pending.map((i) => i.importKey));
  return plans.filter((p) => keys.has(p.key));
}

/** What the batches of one run share: the port, the back-off, the call limit and the first fatal error. */
class ImportRun {
  private readonly throttle = new Throttle();
  /** At most `concurrency` platform calls at once, shared by every batch in flight. */
  private readonly limit: ReturnType<typeof limiter>;
  fatal: unknown = null;

  private readonly importId: string;

  constructor(
    private readonly shopId: string,
    private readonly lease: ImportLease,
    private readonly port: ShopifyPort,
    concurrency: number,
  ) {
    this.importId = lease.importId;
    this.limit = limiter(concurrency);
  }

  /** One platform call, waiting out THROTTLED answers with the run's shared back-off. */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      await this.throttle.wait();
      try {
        const result = await fn();
        this.throttle.ok();
        return result;
      } catch (err) {
        if (isThrottled(err) && attempt < 8) {
          this.throttle.hit();
          continue;
        }
        throw err;
      }
    }
  }

  async runBatch(batch: PlannedContract[]): Promise<void> {
    if (this.fatal || this.lease.lost) return;
    const held = await claimBatch(
      this.shopId,
      this.importId,
      batch.map((p) => p.key),
    );
    const done: Settled[] = [];
    try {
      const live: PlannedContract[] = [];
      for (const plan of batch) {
        const entry = held.get(plan.key);
        if (entry?.state === "created") done.push({ plan, outcome: { status: "skipped", contractGid: entry.contractGid } });
        else live.push(plan);
      }
      if (!live.length) return;
      const { customers, refused, isNew } = await this.customersOf(live);
      await Promise.all(
        live.map((plan) =>
          this.limit(async () => {
            if (this.fatal || this.lease.lost) return;
            const email = plan.email.toLowerCase();
            const refusal = refused.get(email);
            if (refusal) return void done.push({ plan, outcome: failedWith(refusal) });
            try {
              // A customer created just now has no contracts to look through.
              const outcome = await this.createOne(plan, customers.get(email)!, held.has(plan.key) && !isNew.has(email));
              done.push({ plan, outcome });
            } catch (err) {
              if (isRefusal(err)) done.push({ plan, outcome: failedWith(err) });
              // Shopify down, a network failure, the shop gone: stop here. The key stays
              // claimed, and the job's retry checks the platform before creating it again.
              else this.fatal ??= err;
            }
          }),
        ),
      );
    } catch (err) {
      this.fatal ??= err;
    } finally {
      await settleBatch(this.shopId, this.importId, done);
    }
  }

  /**
   * The batch's customers: one lookup, then one request creating those nobody has yet (the first
   * row of an e-mail gives its name, phone and address). Another batch may create an e-mail
   * meanwhile: its TAKEN refusal sends that e-mail to a second lookup.
   */
  private async customersOf(live: PlannedContract[]) {
    const customers = await this.call(() => this.port.findCustomersByEmail(live.map((p) => p.email)));
    const refused = new Map<string, PlatformError>();
    const isNew = new Set<string>();
    const missing = [...new Map(live.filter((p) => !customers.has(p.email.toLowerCase())).map((p) => [p.email.toLowerCase(), p])).values()];
    if (missing.length) {
      const created = await this.call(() =>
        this.port.createCustomers(missing.map((p) => ({ email: p.email, firstName: p.firstName, lastName: p.lastName, phone: p.phone, address: p.address }))),
      );
      const taken: string[] = [];
      created.forEach((c, i) => {
        const email = missing[i].email.toLowerCase();
        if ("id" in c) {
          customers.set(email, c.id);
          isNew.add(email);
        } else if (c.error.code === "TAKEN" && c.error.field?.at(-1) === "email") taken.push(email);
        else refused.set(email, c.error);
      });
      if (taken.length) {
        const again = await this.call(() => this.port.findCustomersByEmail(taken));
        for (const email of taken) {
          const id = again.get(email);
          if (id) customers.set(email, id);
          else refused.set(email, new PlatformError("invalid_request", "Email has already been taken", { field: ["email"] }));
        }
      }
    }
    return { customers, refused, isNew };
  }

  private async createOne(plan: PlannedContract, customerGid: string, checkPlatform: boolean): Promise<ItemOutcome> {
    if (checkPlatform) {
      // A claim without a contract id: an earlier attempt stopped between its platform call and
      // its record. The key rides on the contract, so the platform says whether it was created.
      const existing = (await this.call(() => this.port.customerContracts(customerGid))).find((c) => c.attributes[IMPORT_KEY_ATTRIBUTE] === plan.key);
      if (existing) return { status: "created", contractGid: existing.id, customerGid };
    }
    const payment = plan.payment;
    const paymentMethodId =
      payment.kind === "existing"
        ? payment.id
        : payment.kind === "remote"
          ? await this.call(() => this.port.createRemotePaymentMethod(customerGid, payment.reference))
          : null;
    const created = await this.call(() =>
      this.port.createContract({ ...plan.contract, customerId: customerGid, paymentMethodId, attributes: { [IMPORT_KEY_ATTRIBUTE]: plan.key } }),
    );
    return { status: "created", contractGid: created.id, customerGid };
  }
}

async function finish(lease: ImportLease, status: "done" | "failed", message: string | null): Promise<"done" | "failed" | "skipped"> {
  if (!(await lease.finish(status, message))) return "skipped";
  log.info("import finished", { import_id: lease.importId, status });
  return status;
}
