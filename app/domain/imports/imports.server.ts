// Migration import (docs/decisions/085-migration-import.md): a `migration` file (CSV or JSONL,
// the columns of app/domain/exports/migration-columns.ts) becomes service-owned contracts on the
// platform: contracts this app created are the only ones it sees.
//
//   dryRun        validates every row and reads the platform (variants, customers by e-mail);
//                 writes nothing anywhere. The page and the CLI show its report.
//   createImport  the same report, and the upload kept as an import in state `validated`.
//   startImport   queued (one queued-or-running import per shop, enforced by a unique slot) and
//                 handed to the `imports` queue.
//   runImport     the worker: contracts created with bounded concurrency; each key claimed in the
//                 shop's ledger before its platform call and settled after it, so the same file
//                 twice creates nothing twice and a crash resumes without duplicates.
// The mirror and the outbound events follow from the platform's subscription_contracts/create
// webhooks, as for any contract.
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { log } from "../../infra/log.server";
import { QUEUES, enqueue } from "../../infra/queues.server";
import { type ImportRunPayload } from "../../infra/job-payloads";
import { isPlatformError, platformFor, PlatformError, type ShopifyPort } from "../../platform/index.server";
import { encoder, snakeKey, type Column } from "../shared/format";
import { MIGRATION_COLUMNS } from "../exports/migration-columns";
import { detectFormat, ERROR_COLUMN_LABEL, parseMigrationFile, type FileProblem, type FileRow, type ImportFormat } from "./file";
import { columnForPlatformField, labelOf, planContracts, type PlannedContract, type RowError } from "./plan";
import { forEachLimit, limiter, sleep } from "../../infra/async";

/** The contract custom attribute that carries the import key on the platform. */
export const IMPORT_KEY_ATTRIBUTE = "migration_import_key";
/** Contract creations (and the calls around each) at once per import. */
export const DEFAULT_IMPORT_CONCURRENCY = 4;
/** Largest file accepted (a 10,000-row export is about 5 MB). */
export const MAX_IMPORT_BYTES = 32 * 1024 * 1024;

export type ImportAction = "create" | "skip" | "error";

export interface ReportItem {
  key: string;
  rows: number[];
  action: ImportAction;
  email: string;
  /** Whether the e-mail already belongs to a customer of the shop (null when not looked up). */
  customer: "existing" | "new" | null;
  status: string;
  lines: number;
  payment: "none" | "existing" | "remote";
}

export interface ImportReport {
  format: ImportFormat;
  rows: number;
  contracts: number;
  toCreate: number;
  toSkip: number;
  withErrors: number;
  newCustomers: number;
  existingCustomers: number;
  /** Every problem, with its row (1-based data row; 0 = the header) and column label. */
  errors: RowError[];
  items: ReportItem[];
}

export interface ImportFile {
  fileName: string;
  text: string;
}

// ---------------------------------------------------------------------------------------------
// Validation (dry run)

interface Validated {
  format: ImportFormat;
  rows: FileRow[];
  problems: FileProblem[];
  plans: PlannedContract[];
}

/** Parses and plans the file, then checks against the shop: variants exist, plans are the app's. */
async function validate(shopId: string, port: ShopifyPort, file: ImportFile): Promise<Validated> {
  if (Buffer.byteLength(file.text) > MAX_IMPORT_BYTES) {
    throw new ApiError("invalid_request", `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB: import it in parts`);
  }
  const format = detectFormat(file.fileName, file.text);
  const parsed = parseMigrationFile(file.text, format);
  const plans = parsed.problems.some((p) => p.row === 0) ? [] : planContracts(parsed.rows);
  // Row-level syntax problems belong to the contract holding the row.
  for (const p of parsed.problems.filter((p) => p.row > 0)) plans.find((c) => c.rows.includes(p.row))?.errors.push(p);

  const isVariant = (v: string | undefined): v is string => !!v && /^gid:\/\/shopify\/ProductVariant\/\d+$/.test(v);
  const variantIds = [...new Set(parsed.rows.map((r) => r.cells.variantId).filter(isVariant))];
  const known = new Set((await port.getVariants(variantIds)).map((v) => v.id));
  const planIds = [...new Set(plans.flatMap((p) => p.contract.lines.flatMap((l) => (l.sellingPlanId ? [l.sellingPlanId] : []))))];
  const ownPlans = new Set(
    (await prisma.sellingPlan.findMany({ where: { sellingPlanGid: { in: planIds }, group: { shopId } }, select: { sellingPlanGid: true } })).map(
      (p) => p.sellingPlanGid,
    ),
  );
  const byNumber = new Map(parsed.rows.map((r) => [r.row, r]));
  for (const plan of plans) {
    for (const row of plan.rows.flatMap((n) => byNumber.get(n) ?? [])) {
      const v = row.cells.variantId;
      if (isVariant(v) && !known.has(v)) {
        plan.errors.push({ row: row.row, column: "Variant ID", message: `${v} is not a product variant of this shop` });
      }
      const sp = row.cells.sellingPlanId;
      if (sp && !ownPlans.has(sp))
        plan.errors.push({ row: row.row, column: "Selling plan ID", message: `${sp} is not one of this app's selling plans in this shop` });
    }
  }

  // An existing payment method must be one of the shop's, not revoked, and the row's customer's:
  // Shopify refuses the contract otherwise (docs/decisions/088-import-existing-payment-methods.md),
  // and the dry run says so before anything is created.
  const methodIds = [...new Set(plans.flatMap((p) => (p.payment.kind === "existing" ? [p.payment.id] : [])))];
  const owners = new Map<string, Awaited<ReturnType<ShopifyPort["getPaymentMethodOwner"]>>>();
  await forEachLimit(methodIds, DEFAULT_IMPORT_CONCURRENCY, async (id) => void owners.set(id, await port.getPaymentMethodOwner(id)));
  for (const plan of plans) {
    if (plan.payment.kind !== "existing") continue;
    const id = plan.payment.id;
    const owner = owners.get(id);
    const problem = !owner
      ? `${id} is not a payment method of this shop`
      : owner.revoked
        ? `${id} was revoked: give the previous processor's reference instead, or no payment method for manual billing`
        : owner.email?.toLowerCase() !== plan.email.toLowerCase()
          ? `${id} belongs to another customer of this shop, not ${plan.email}`
          : null;
    if (problem) plan.errors.push({ row: plan.rows[0], column: labelOf("paymentMethodId"), message: problem });
  }
  return { format, rows: parsed.rows, problems: parsed.problems, plans };
}

async function alreadyImported(shopId: string, keys: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < keys.length; i += 5000) {
    const rows = await prisma.importedContract.findMany({
      where: { shopId, state: "created", importKey: { in: keys.slice(i, i + 5000) } },
      select: { importKey: true },
    });
    for (const r of rows) found.add(r.importKey);
  }
  return found;
}

async function report(shopId: string, port: ShopifyPort, v: Validated, opts: { lookupCustomers: boolean }): Promise<ImportReport> {
  const imported = await alreadyImported(
    shopId,
    v.plans.map((p) => p.key),
  );
  const customerOf = new Map<string, "existing" | "new">();
  if (opts.lookupCustomers) {
    const emails = [...new Set(v.plans.filter((p) => !p.errors.length && !imported.has(p.key)).map((p) => p.email.toLowerCase()))];
    const found = emails.length ? await port.findCustomersByEmail(emails) : new Map<string, string>();
    for (const email of emails) customerOf.set(email, found.has(email) ? "existing" : "new");
  }
  const items: ReportItem[] = v.plans.map((p) => ({
    key: p.key,
    rows: p.rows,
    action: p.errors.length ? "error" : imported.has(p.key) ? "skip" : "create",
    email: p.email,
    customer: customerOf.get(p.email.toLowerCase()) ?? null,
    status: p.contract.status,
    lines: p.contract.lines.length,
    payment: p.payment.kind,
  }));
  const creating = items.filter((i) => i.action === "create");
  const emailsOf = (kind: "existing" | "new") => new Set(creating.filter((i) => i.customer === kind).map((i) => i.email.toLowerCase())).size;
  return {
    format: v.format,
    rows: v.rows.length,
    contracts: v.plans.length,
    toCreate: creating.length,
    toSkip: items.filter((i) => i.action === "skip").length,
    withErrors: items.filter((i) => i.action === "error").length,
    newCustomers: emailsOf("new"),
    existingCustomers: emailsOf("existing"),
    errors: [...v.problems.filter((p) => p.row === 0), ...v.plans.flatMap((p) => p.errors)].sort((a, b) => a.row - b.row),
    items,
  };
}

async function shopPort(shopId: string): Promise<ShopifyPort> {
  const shop = await prisma.shop.findUniqueOrThrow({ where: { id: shopId }, select: { domain: true } });
  return platformFor(shop.domain);
}

/** The dry run: what the import would do, every error with its row and column. Writes nothing. */
export async function dryRun(shopId: string, file: ImportFile, opts: { lookupCustomers?: boolean } = {}): Promise<ImportReport> {
  const port = await shopPort(shopId);
  return report(shopId, port, await validate(shopId, port, file), { lookupCustomers: opts.lookupCustomers ?? true });
}

/** Keeps the upload as an import (state `validated`) and answers its dry-run report. */
export async function createImport(shopId: string, file: ImportFile): Promise<{ id: string; report: ImportReport }> {
  const port = await shopPort(shopId);
  const v = await validate(shopId, port, file);
  const r = await report(shopId, port, v, { lookupCustomers: true });
  const row = await prisma.migrationImport.create({
    data: {
      shopId,
      fileName: file.fileName.slice(0, 255) || `import.${v.format}`,
      format: v.format,
      content: file.text,
      rowCount: r.rows,
      contractCount: r.contracts,
      errorCount: r.errors.length,
    },
  });
  return { id: row.id, report: r };
}

/** Queues a validated import. One queued-or-running import per shop (409 import_in_progress). */
export async function startImport(shopId: string, importId: string): Promise<void> {
  const imp = await prisma.migrationImport.findFirst({ where: { id: importId, shopId } });
  if (!imp) throw new ApiError("not_found", "No such import");
  if (imp.status !== "validated") throw new ApiError("state_conflict", `The import is ${imp.status}; upload the file again to import it again`);
  if (imp.errorCount > 0 && imp.contractCount === 0) throw new ApiError("invalid_request", "The file has no importable contract");
  const header = parseMigrationFile(imp.content, imp.format as ImportFormat).problems.filter((p) => p.row === 0);
  if (header.length) throw new ApiError("invalid_request", `The file cannot be imported: ${header[0].message}`);
  try {
    const updated = await prisma.migrationImport.updateMany({
      where: { id: importId, shopId, status: "validated" },
      data: { status: "queued", activeSlot: "active" },
    });
    if (updated.count === 0) throw new ApiError("state_conflict", "The import was started already");
  } catch (err) {
    if ((err as { code?: string }).code === "P2002")
      throw new ApiError("state_conflict", "Another import of this shop is queued or running; wait for it to finish");
    throw err;
  }
  await enqueueImport(importId);
}

export async function enqueueImport(importId: string): Promise<void> {
  const payload: ImportRunPayload = { importId };
  // The job id is the import id: adding it again while it waits or runs is a no-op.
  await enqueue(QUEUES.imports, "run", payload, { jobId: importId, attempts: 10, backoff: { type: "exponential", delay: 2000 } });
}

// ---------------------------------------------------------------------------------------------
// The run (worker)

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

type ItemOutcome =
  | { status: "created"; contractGid: string; customerGid: string }
  | { status: "skipped"; contractGid: string | null }
  | { status: "failed"; column: string | null; message: string };

interface Settled {
  plan: PlannedContract;
  outcome: ItemOutcome;
}

/** Contracts handled together: one ledger claim, one customer lookup, one customer creation request and one settle each. */
export const IMPORT_BATCH = 25;
/** Batches in flight at once: the next batch's claim and customers overlap the current one's contracts. */
const BATCHES_IN_FLIGHT = 2;

/**
 * Claims the batch's keys in the shop's ledger in one statement, before any platform call. The
 * answer is every key some earlier claim already held (settled or not), with its entry.
 */
async function claimBatch(shopId: string, importId: string, keys: string[]) {
  const inserted = await prisma.$queryRaw<{ import_key: string }[]>`
    INSERT INTO imported_contracts (shop_id, import_key, import_id, state, claimed_at)
    SELECT ${shopId}, k, ${importId}, 'claimed', now() FROM unnest(${keys}::text[]) AS k
    ON CONFLICT (shop_id, import_key) DO NOTHING
    RETURNING import_key`;
  const mine = new Set(inserted.map((r) => r.import_key));
  const held = keys.filter((k) => !mine.has(k));
  const rows = held.length ? await prisma.importedContract.findMany({ where: { shopId, importKey: { in: held } } }) : [];
  return new Map(rows.map((r) => [r.importKey, r]));
}

/**
 * Records a batch's outcomes in one transaction: created keys settled in the ledger with their
 * contract, refused ones' claims released (so the fixed row can be imported later), and every
 * item's status. A crash before this leaves claims unsettled, which the next run resolves by
 * reading the platform (runBatch), so recording a batch at once loses nothing.
 */
async function settleBatch(shopId: string, importId: string, done: Settled[]): Promise<void> {
  const created = done.flatMap((d) => (d.outcome.status === "created" ? [{ key: d.plan.key, ...d.outcome }] : []));
  const skipped = done.flatMap((d) => (d.outcome.status === "skipped" ? [{ key: d.plan.key, ...d.outcome }] : []));
  const failed = done.flatMap((d) => (d.outcome.status === "failed" ? [{ key: d.plan.key, ...d.outcome }] : []));
  const writes = [];
  if (created.length) {
    const keys = created.map((c) => c.key);
    const gids = created.map((c) => c.contractGid);
    const customers = created.map((c) => c.customerGid);
    writes.push(
      prisma.$executeRaw`
        UPDATE imported_contracts AS l SET state = 'created', contract_gid = v.gid, import_id = ${importId}
        FROM unnest(${keys}::text[], ${gids}::text[]) AS v(k, gid)
        WHERE l.shop_id = ${shopId} AND l.import_key = v.k`,
      prisma.$executeRaw`
        UPDATE migration_import_items AS i SET status = 'created', contract_gid = v.gid, customer_gid = v.cust, updated_at = now()
        FROM unnest(${keys}::text[], ${gids}::text[], ${customers}::text[]) AS v(k, gid, cust)
        WHERE i.import_id = ${importId} AND i.import_key = v.k`,
    );
  }
  if (skipped.length) {
    const keys = skipped.map((c) => c.key);
    const gids = skipped.map((c) => c.contractGid);
    writes.push(prisma.$executeRaw`
      UPDATE migration_import_items AS i SET status = 'skipped', contract_gid = v.gid, updated_at = now()
      FROM unnest(${keys}::text[], ${gids}::text[]) AS v(k, gid)
      WHERE i.import_id = ${importId} AND i.import_key = v.k`);
  }
  if (failed.length) {
    const keys = failed.map((c) => c.key);
    const columns = failed.map((c) => c.column);
    const messages = failed.map((c) => c.message.slice(0, 1000));
    writes.push(
      prisma.importedContract.deleteMany({ where: { shopId, importKey: { in: keys }, state: "claimed" } }),
      prisma.$executeRaw`
        UPDATE migration_import_items AS i SET status = 'failed', error_column = v.col, error_message = v.msg, updated_at = now()
        FROM unnest(${keys}::text[], ${columns}::text[], ${messages}::text[]) AS v(k, col, msg)
        WHERE i.import_id = ${importId} AND i.import_key = v.k`,
    );
  }
  if (writes.length) await prisma.$transaction(writes);
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
  const found = await prisma.migrationImport.findUnique({ where: { id: importId }, include: { shop: { select: { domain: true } } } });
  if (!found || found.status === "done" || found.status === "failed" || found.status === "validated") return "skipped";
  const imp = found;
  await prisma.migrationImport.update({ where: { id: importId }, data: { status: "running", startedAt: imp.startedAt ?? new Date() } });

  let port: ShopifyPort;
  try {
    port = await platformFor(imp.shop.domain);
  } catch (err) {
    return finish(importId, "failed", isPlatformError(err) ? err.message : "The shop is not available");
  }
  const v = await validate(imp.shopId, port, { fileName: imp.fileName, text: imp.content });
  // Items are written once; a rerun finds them and goes on with those still pending.
  await prisma.migrationImportItem.createMany({
    data: v.plans.map((p) => ({
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
  const pending = new Set(
    (await prisma.migrationImportItem.findMany({ where: { importId, status: "pending" }, select: { importKey: true } })).map((i) => i.importKey),
  );
  const todo = v.plans.filter((p) => pending.has(p.key));
  const batches = Array.from({ length: Math.ceil(todo.length / IMPORT_BATCH) }, (_, i) => todo.slice(i * IMPORT_BATCH, (i + 1) * IMPORT_BATCH));
  const throttle = new Throttle();
  // At most `concurrency` platform calls at once, shared by every batch in flight.
  const limit = limiter(opts.concurrency ?? DEFAULT_IMPORT_CONCURRENCY);
  let fatal: unknown = null;

  /** One platform call, waiting out THROTTLED answers with the run's shared back-off. */
  async function call<T>(fn: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      await throttle.wait();
      try {
        const result = await fn();
        throttle.ok();
        return result;
      } catch (err) {
        if (isThrottled(err) && attempt < 8) {
          throttle.hit();
          continue;
        }
        throw err;
      }
    }
  }

  async function createOne(plan: PlannedContract, customerGid: string, checkPlatform: boolean): Promise<ItemOutcome> {
    if (checkPlatform) {
      // A claim without a contract id: an earlier attempt stopped between its platform call and
      // its record. The key rides on the contract, so the platform says whether it was created.
      const existing = (await call(() => port.customerContracts(customerGid))).find((c) => c.attributes[IMPORT_KEY_ATTRIBUTE] === plan.key);
      if (existing) return { status: "created", contractGid: existing.id, customerGid };
    }
    const payment = plan.payment;
    const paymentMethodId =
      payment.kind === "existing"
        ? payment.id
        : payment.kind === "remote"
          ? await call(() => port.createRemotePaymentMethod(customerGid, payment.reference))
          : null;
    const created = await call(() =>
      port.createContract({ ...plan.contract, customerId: customerGid, paymentMethodId, attributes: { [IMPORT_KEY_ATTRIBUTE]: plan.key } }),
    );
    return { status: "created", contractGid: created.id, customerGid };
  }

  async function runBatch(batch: PlannedContract[]): Promise<void> {
    if (fatal) return;
    const held = await claimBatch(
      imp.shopId,
      importId,
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

      // The batch's customers: one lookup, then one request creating those nobody has yet (the
      // first row of an e-mail gives its name, phone and address). Another batch may create an
      // e-mail meanwhile: its TAKEN refusal sends that e-mail to a second lookup.
      const customers = await call(() => port.findCustomersByEmail(live.map((p) => p.email)));
      const refused = new Map<string, PlatformError>();
      const isNew = new Set<string>();
      const missing = [...new Map(live.filter((p) => !customers.has(p.email.toLowerCase())).map((p) => [p.email.toLowerCase(), p])).values()];
      if (missing.length) {
        const created = await call(() =>
          port.createCustomers(missing.map((p) => ({ email: p.email, firstName: p.firstName, lastName: p.lastName, phone: p.phone, address: p.address }))),
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
          const again = await call(() => port.findCustomersByEmail(taken));
          for (const email of taken) {
            const id = again.get(email);
            if (id) customers.set(email, id);
            else refused.set(email, new PlatformError("invalid_request", "Email has already been taken", { field: ["email"] }));
          }
        }
      }

      await Promise.all(
        live.map((plan) =>
          limit(async () => {
            if (fatal) return;
            const email = plan.email.toLowerCase();
            const refusal = refused.get(email);
            if (refusal) return void done.push({ plan, outcome: failedWith(refusal) });
            try {
              // A customer created just now has no contracts to look through.
              const outcome = await createOne(plan, customers.get(email)!, held.has(plan.key) && !isNew.has(email));
              done.push({ plan, outcome });
            } catch (err) {
              if (isRefusal(err)) done.push({ plan, outcome: failedWith(err) });
              // Shopify down, a network failure, the shop gone: stop here. The key stays
              // claimed, and the job's retry checks the platform before creating it again.
              else fatal ??= err;
            }
          }),
        ),
      );
    } catch (err) {
      fatal ??= err;
    } finally {
      await settleBatch(imp.shopId, importId, done);
    }
  }

  await forEachLimit(batches, BATCHES_IN_FLIGHT, runBatch);

  if (fatal) {
    const shopGone = fatal instanceof PlatformError && fatal.kind === "shop_unavailable";
    log.warn("import interrupted", { import_id: importId, final: opts.finalAttempt, err: fatal instanceof Error ? fatal : new Error(String(fatal)) });
    if (shopGone || opts.finalAttempt) return finish(importId, "failed", fatal instanceof Error ? fatal.message : String(fatal));
    throw fatal;
  }
  return finish(importId, "done", null);
}

async function finish(importId: string, status: "done" | "failed", message: string | null): Promise<"done" | "failed"> {
  await prisma.migrationImport.update({
    where: { id: importId },
    data: { status, activeSlot: null, finishedAt: new Date(), errorMessage: message?.slice(0, 1000) ?? null },
  });
  log.info("import finished", { import_id: importId, status });
  return status;
}

// ---------------------------------------------------------------------------------------------
// Progress and the error file

export interface ImportProgress {
  id: string;
  fileName: string;
  format: string;
  status: string;
  rows: number;
  contracts: number;
  done: number;
  created: number;
  skipped: number;
  failed: number;
  failures: { rows: number[]; column: string | null; message: string }[];
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export async function importProgress(shopId: string, importId: string): Promise<ImportProgress | null> {
  const imp = await prisma.migrationImport.findFirst({ where: { id: importId, shopId }, omit: { content: true } });
  if (!imp) return null;
  const counts = await prisma.migrationImportItem.groupBy({ by: ["status"], where: { importId }, _count: { _all: true } });
  const n = (s: string) => counts.find((c) => c.status === s)?._count._all ?? 0;
  const failures = await prisma.migrationImportItem.findMany({
    where: { importId, status: "failed" },
    orderBy: { rows: "asc" },
    take: 100,
    select: { rows: true, errorColumn: true, errorMessage: true },
  });
  return {
    id: imp.id,
    fileName: imp.fileName,
    format: imp.format,
    status: imp.status,
    rows: imp.rowCount,
    contracts: imp.contractCount,
    done: n("created") + n("skipped") + n("failed"),
    created: n("created"),
    skipped: n("skipped"),
    failed: n("failed"),
    failures: failures.map((f) => ({ rows: f.rows, column: f.errorColumn, message: f.errorMessage ?? "" })),
    error: imp.errorMessage,
    createdAt: imp.createdAt.toISOString(),
    finishedAt: imp.finishedAt?.toISOString() ?? null,
  };
}

export async function latestImport(shopId: string): Promise<ImportProgress | null> {
  const last = await prisma.migrationImport.findFirst({
    where: { shopId, status: { not: "validated" } },
    orderBy: { createdAt: "desc" },
    select: { id: true },
  });
  return last ? importProgress(shopId, last.id) : null;
}

type ErrorRow = FileRow & { error: string };

/**
 * The failed rows in the file's own format, with a trailing "Import error" column the importer
 * ignores: fix the cells, upload the file again (docs/decisions/085-migration-import.md).
 */
export async function importErrorFile(shopId: string, importId: string): Promise<{ fileName: string; contentType: string; body: string } | null> {
  const imp = await prisma.migrationImport.findFirst({ where: { id: importId, shopId } });
  if (!imp) return null;
  const failed = await prisma.migrationImportItem.findMany({ where: { importId, status: "failed" }, select: { rows: true, errorMessage: true } });
  const messageOf = new Map(failed.flatMap((f) => f.rows.map((r) => [r, f.errorMessage ?? ""] as const)));
  const format = imp.format as ImportFormat;
  const rows = parseMigrationFile(imp.content, format).rows.filter((r) => messageOf.has(r.row));
  const columns: Column<ErrorRow>[] = [
    ...MIGRATION_COLUMNS.map((c) => ({
      label: c.label,
      kind: c.kind,
      value: (r: ErrorRow) => {
        const v = r.cells[c.field];
        if (v === undefined) return null;
        return c.kind === "number" && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
      },
    })),
    { label: ERROR_COLUMN_LABEL, kind: "text", value: (r) => r.error },
  ];
  const enc = encoder(format, columns);
  let body = enc.start();
  for (const r of rows) body += enc.row({ ...r, error: messageOf.get(r.row) ?? "" });
  const base = imp.fileName.replace(/\.(csv|jsonl|ndjson)$/i, "");
  return {
    fileName: `${base}-errors.${format}`,
    contentType: format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
    body,
  };
}

/** snake_case key of the error column in JSONL (for tests and docs). */
export const ERROR_COLUMN_KEY = snakeKey(ERROR_COLUMN_LABEL);
