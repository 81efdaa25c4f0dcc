// The Import page's server side (app/routes/app.imports*.ts): the embedded admin's session names
// the shop; every read and write below is scoped to that shop's id (tenancy).
import { prisma } from "../db.server";
import { ApiError } from "../infra/errors";
import { importErrorFile, importProgress, latestImport } from "../domain/imports/progress.server";
import { createImport, startImport } from "../domain/imports/start.server";
import { MAX_IMPORT_BYTES, type ImportReport } from "../domain/imports/validate.server";
import { applyMapping, csvHeader, detectPreset, presetMapping, PRESETS, type ColumnMapping, type PresetId } from "../domain/imports/presets";
import { REQUIRED_FIELDS } from "../domain/imports/file";
import { detectFormat } from "../domain/imports/file";
import { MIGRATION_COLUMNS, MIGRATION_HEADER, type MigrationField } from "../domain/exports/migration-columns";

async function shopIdOf(shopDomain: string): Promise<string> {
  const shop = await prisma.shop.findUnique({ where: { domain: shopDomain }, select: { id: true } });
  if (!shop) throw new ApiError("not_found", "Unknown shop");
  return shop.id;
}

/** The report the page shows: every error, and the first 200 contracts (the totals count all). */
export type PageReport = Omit<ImportReport, "items"> & { items: ImportReport["items"]; more: number };

export async function importPageData(shopDomain: string, importId: string | null) {
  const shopId = await shopIdOf(shopDomain);
  const progress = importId ? await importProgress(shopId, importId) : await latestImport(shopId);
  return {
    progress: progress && {
      ...progress,
      error: progress.error && withoutGids(progress.error),
      failures: progress.failures.map((f) => ({ ...f, message: withoutGids(f.message) })),
    },
    maxBytes: MAX_IMPORT_BYTES,
  };
}

/** The mapping step's facts about an uploaded CSV: its columns, the preset that fits, that preset's mapping. */
export interface Inspection {
  /** Empty for JSONL, which needs no mapping (this app's own format only). */
  header: string[];
  preset: PresetId;
  /** Every preset's mapping of these headers, so the page can switch presets without asking again. */
  mappings: Record<PresetId, ColumnMapping>;
}

export async function inspectImport(file: File): Promise<Inspection> {
  if (file.size > MAX_IMPORT_BYTES) throw new ApiError("invalid_request", `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB`);
  const text = await file.text();
  const mappings = {} as Record<PresetId, ColumnMapping>;
  if (detectFormat(file.name, text) === "jsonl") return { header: [], preset: "native", mappings };
  const header = csvHeader(text).filter(Boolean);
  for (const p of PRESETS) mappings[p.id] = presetMapping(p.id, header);
  return { header, preset: detectPreset(header), mappings };
}

/** What the mapping step offers: the presets, and the fields in the file's order with the required ones marked. */
export const MAPPING_CHOICES = {
  presets: PRESETS.map((p) => ({ id: p.id, name: p.name })),
  fields: MIGRATION_COLUMNS.map((c) => ({ field: c.field, label: c.label, required: REQUIRED_FIELDS.includes(c.field) })),
};

/** Shopify ids said as a merchant says them: "variant 1234", never a gid. */
export function withoutGids(text: string): string {
  const NAMES: Record<string, string> = {
    ProductVariant: "variant",
    Product: "product",
    SellingPlan: "selling plan",
    SellingPlanGroup: "plan group",
    CustomerPaymentMethod: "payment method",
    Customer: "customer",
    SubscriptionContract: "subscription",
  };
  return text
    .replace(/gid:\/\/shopify\/(\w+)\/…/g, (_, t: string) => `a Shopify ${NAMES[t] ?? "record"} id (a number)`)
    .replace(/gid:\/\/shopify\/(\w+)\/([\w-]+)/g, (_, t: string, id: string) => `${NAMES[t] ?? "record"} ${id}`);
}

const pageReport = (report: ImportReport): PageReport => ({
  ...report,
  items: report.items.slice(0, 200),
  more: Math.max(0, report.items.length - 200),
  errors: report.errors.slice(0, 500).map((e) => ({ ...e, message: withoutGids(e.message) })),
});

export async function uploadImport(
  shopDomain: string,
  file: File,
  mapped?: { mapping: ColumnMapping; currency?: string },
): Promise<{ id: string; report: PageReport }> {
  if (file.size > MAX_IMPORT_BYTES) throw new ApiError("invalid_request", `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB`);
  let text = await file.text();
  const fileName = file.name || "import.csv";
  // Another app's layout is rewritten as this app's migration CSV before anything is checked or kept.
  if (mapped && detectFormat(fileName, text) === "csv") {
    // This app's own layout goes through the same rewrite: numeric Shopify ids and plain words are accepted there too.
    text = applyMapping(text, mapped.mapping, { currency: mapped.currency }).text;
  }
  const { id, report } = await createImport(await shopIdOf(shopDomain), { fileName, text });
  return { id, report: pageReport(report) };
}

/** The mapping a form sent (JSON of field → source column), keeping only known fields and the file's own columns. */
export function mappingFrom(json: string, header: string[]): ColumnMapping {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new ApiError("invalid_request", "The column mapping could not be read; choose the columns again.");
  }
  const known = new Set<string>(MIGRATION_COLUMNS.map((c) => c.field));
  const mapping: ColumnMapping = {};
  if (raw && typeof raw === "object") {
    for (const [k, v] of Object.entries(raw)) if (known.has(k) && typeof v === "string" && header.includes(v)) mapping[k as MigrationField] = v;
  }
  return mapping;
}

/** The template: this app's migration columns and one example subscription of two lines. */
export function templateCsv(): string {
  const example: Partial<Record<MigrationField, string>> = {
    status: "ACTIVE",
    email: "ada@example.com",
    firstName: "Ada",
    lastName: "Lovelace",
    shipAddress1: "12 Harbour Street",
    shipCity: "Portland",
    shipProvinceCode: "OR",
    shipZip: "97201",
    shipCountryCode: "US",
    currency: "USD",
    nextBillingAt: "2027-01-15T00:00:00.000Z",
    billingInterval: "MONTH",
    billingIntervalCount: "1",
    quantity: "1",
    importKey: "old-app-1001",
  };
  const row = (variant: string, price: string, position: string) =>
    MIGRATION_COLUMNS.map((c) => ({ ...example, variantId: variant, linePrice: price, linePosition: position })[c.field] ?? "").join(",");
  return `${MIGRATION_HEADER.join(",")}\n${row("1001", "18.00", "1")}\n${row("1002", "9.50", "2")}\n`;
}

export async function runUploadedImport(shopDomain: string, importId: string): Promise<void> {
  await startImport(await shopIdOf(shopDomain), importId);
}

export async function errorFileResponse(shopDomain: string, importId: string): Promise<Response> {
  const file = await importErrorFile(await shopIdOf(shopDomain), importId);
  if (!file) return new Response("Not found", { status: 404 });
  return new Response(file.body, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.fileName.replace(/[^\w.-]/g, "_")}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
