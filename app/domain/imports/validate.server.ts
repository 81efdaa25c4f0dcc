// The dry run of a migration import (docs/decisions/085-migration-import.md): every row validated
// and the platform read (variants, customers by e-mail); nothing written anywhere. The page and
// the CLI show its report; the start and the run validate the same way.
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { platformFor, type ShopifyPort } from "../../platform/index.server";
import { detectFormat, parseMigrationFile, type FileProblem, type FileRow, type ImportFormat } from "./file";
import { labelOf, planContracts, type PlannedContract, type RowError } from "./plan";
import { forEachLimit } from "../../infra/async";

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

export interface Validated {
  format: ImportFormat;
  rows: FileRow[];
  problems: FileProblem[];
  plans: PlannedContract[];
}

/** Parses and plans the file, then checks against the shop: variants exist, plans are the app's. */
export async function validate(shopId: string, port: ShopifyPort, file: ImportFile): Promise<Validated> {
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

export async function report(shopId: string, port: ShopifyPort, v: Validated, opts: { lookupCustomers: boolean }): Promise<ImportReport> {
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

export async function shopPort(shopId: string): Promise<ShopifyPort> {
  const shop = await prisma.shop.findUniqueOrThrow({ where: { id: shopId }, select: { domain: true } });
  return platformFor(shop.domain, "importer");
}

/** The dry run: what the import would do, every error with its row and column. Writes nothing. */
export async function dryRun(shopId: string, file: ImportFile, opts: { lookupCustomers?: boolean } = {}): Promise<ImportReport> {
  const port = await shopPort(shopId);
  return report(shopId, port, await validate(shopId, port, file), { lookupCustomers: opts.lookupCustomers ?? true });
}
