// The five export datasets (docs/decisions/056-export-datasets.md): each is a column list and a stream of rows
// over a keyset cursor, (created_at desc, id desc) like every list. The export jobs and the
// Export Center read the same streams, so a job's file and a download from the page are the
// same bytes. Column sets are decided here and published in the API reference (/docs,
// "Export datasets"); docs/decisions/056-export-datasets.md.
import { Prisma } from "@prisma/client";
import { prisma } from "../../db.server";
import { env } from "../../env.server";
import { hotQuery } from "../../infra/pg.server";
import { copyBinary } from "../../infra/pg-copy.server";
import { formatMinor } from "../shared/money.server";
import { KEYSET_ORDER, afterWhere, type Keyset } from "../shared/paging.server";
import { SUBSCRIPTION_COLUMNS, type ContractRow } from "../subscriptions/reads.server";
import { subscriptionFilterSql, subscriptionPageQuery, type SubscriptionFilterOptions } from "../subscriptions/filters.server";
import type { Column, ExportFormat } from "../shared/format";
import { binaryRenderer, binarySelectList, type BinaryColumn, type RenderedPage } from "../shared/format-binary";
import { DATASET_NAMES, encodedChunk, type Dataset, type DatasetName, type EncodedChunk, type StreamOptions } from "./stream-types";
import { MIGRATION_COLUMNS, type MigrationRow } from "./migration-columns";
import { migrationRows } from "./migration.server";

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const money = (cents: number | null, currency: string) => (cents === null ? null : formatMinor(cents, currency));

// ---- subscriptions -----------------------------------------------------------------------------

// Each column twice: `value` for the JavaScript encoder (the reference) and `source`, the table
// column the worker writes the same bytes from (app/domain/shared/format-binary.ts; docs/decisions/090-export-lines-from-binary-copy.md).
export const SUBSCRIPTION_EXPORT_COLUMNS: Array<Column<ContractRow> & BinaryColumn> = [
  { label: "Contract ID", kind: "id", value: (r) => r.contract_gid, source: "contract_gid" },
  { label: "Status", kind: "enum", value: (r) => r.status, source: "status" },
  { label: "Next billing at", kind: "date", value: (r) => r.next_billing_at, source: "next_billing_at" },
  { label: "Plan group ID", kind: "id", value: (r) => r.selling_plan_group_gid, source: "selling_plan_group_gid" },
  { label: "Selling plan ID", kind: "id", value: (r) => r.selling_plan_gid, source: "selling_plan_gid" },
  { label: "Customer ID", kind: "id", value: (r) => r.customer_gid, source: "customer_gid" },
  { label: "Product", kind: "text", value: (r) => r.product_title, source: "product_title" },
  { label: "Frequency", kind: "text", value: (r) => r.frequency_label, source: "frequency_label" },
  { label: "Billing interval", kind: "enum", value: (r) => r.billing_interval, source: "billing_interval" },
  { label: "Billing interval count", kind: "number", value: (r) => r.billing_interval_count, source: "billing_interval_count" },
  { label: "Currency", kind: "enum", value: (r) => r.currency_code, source: "currency_code" },
  {
    label: "Charge amount",
    kind: "money",
    value: (r) => money(r.charge_amount_cents, r.currency_code),
    source: "charge_amount_cents",
    currency: "currency_code",
  },
  {
    label: "Monthly amount",
    kind: "money",
    value: (r) => money(r.monthly_amount_cents, r.currency_code),
    source: "monthly_amount_cents",
    currency: "currency_code",
  },
  { label: "Order", kind: "text", value: (r) => r.order_name, source: "order_name" },
  { label: "Created at", kind: "date", value: (r) => r.created_at, source: "created_at" },
  { label: "Updated at", kind: "date", value: (r) => r.updated_at, source: "updated_at" },
];

/** The keyset query of the subscriptions dataset (bench/export.ts runs COPY over the same text). */
export function subscriptionExportSql(shopId: string, filters: SubscriptionFilterOptions, now: Date, after: Keyset | null, limit: number | null): Prisma.Sql {
  return subscriptionPageQuery(SUBSCRIPTION_COLUMNS, shopId, filters, { after, now }, limit);
}

async function* subscriptionRows(o: StreamOptions): AsyncGenerator<ContractRow[]> {
  const size = o.pageSize ?? env().EXPORT_PAGE_ROWS;
  let after: Keyset | null = null;
  for (;;) {
    const rows: ContractRow[] = await hotQuery<ContractRow>(subscriptionExportSql(o.shopId, o.filters, o.now, after, size), { isoTimestamps: true });
    if (rows.length) yield rows;
    if (rows.length < size) return;
    const last: ContractRow = rows[rows.length - 1];
    after = { createdAt: new Date(last.created_at), id: last.id };
  }
}

/** What a page's query selects, and the renderer of each format: built once per process. */
const SUBSCRIPTION_SELECT = binarySelectList(SUBSCRIPTION_EXPORT_COLUMNS);
const SUBSCRIPTION_RENDERERS: Record<ExportFormat, (copy: Buffer) => RenderedPage> = {
  csv: binaryRenderer("csv", SUBSCRIPTION_EXPORT_COLUMNS),
  jsonl: binaryRenderer("jsonl", SUBSCRIPTION_EXPORT_COLUMNS),
};

/**
 * The keys that cut the subscriptions dataset into pages of `size` rows: the key of every
 * size-th row in the dataset's order (one pass over the index; nothing rendered).
 */
export function subscriptionPageBoundariesSql(shopId: string, filters: SubscriptionFilterOptions, now: Date, size: number): Prisma.Sql {
  return Prisma.sql`SELECT created_at, id FROM (
      SELECT created_at, id, row_number() OVER (ORDER BY created_at DESC, id DESC) AS n FROM contracts
      WHERE ${subscriptionFilterSql(shopId, filters, { now })}) k
    WHERE n % ${size} = 0 ORDER BY n`;
}

/**
 * One page of the subscriptions dataset as the renderer reads it: at most `limit` rows after
 * `after` (exclusive) and down to `upto` (inclusive, when given), in the dataset's order, each
 * row's cells and its key (`binarySelectList`, app/domain/shared/format-binary.ts). The last row's key is where a
 * capped range continues.
 */
export function subscriptionPageSql(
  shopId: string,
  filters: SubscriptionFilterOptions,
  now: Date,
  range: { after: Keyset | null; upto: Keyset | null },
  limit: number,
): Prisma.Sql {
  return subscriptionPageQuery(SUBSCRIPTION_SELECT, shopId, filters, { ...range, now }, limit);
}

/**
 * Rows per page of the encoded path (at most EXPORT_PAGE_ROWS): about 0.6 MB of COPY and 0.6 to
 * 1.1 MB of lines, so a few pages in memory stay small whatever the row count
 * (docs/decisions/090-export-lines-from-binary-copy.md).
 */
const ENCODED_PAGE_ROWS = 2000;
/** Pages read at once, on separate pool connections: PostgreSQL reads the next ranges while the worker renders. */
const PAGES_IN_FLIGHT = 3;

/**
 * The subscriptions dataset encoded, page by page and in order. The page boundaries are read
 * first, so pages are independent keyset ranges: PAGES_IN_FLIGHT of them are read at once while
 * the consumer writes the one before. Each range is read with a binary COPY (app/infra/pg-copy.server.ts)
 * and its lines written from those bytes (app/domain/shared/format-binary.ts), with no JavaScript string or
 * object per row. A range holds `size` rows when the boundaries were read; rows
 * created since then can make it longer, so a query capped at twice that which comes back full
 * continues from its last row. Memory holds a few pages whatever the row count.
 */
async function* subscriptionEncodedPages(format: ExportFormat, o: StreamOptions): AsyncGenerator<EncodedChunk> {
  const size = o.pageSize ?? Math.min(ENCODED_PAGE_ROWS, env().EXPORT_PAGE_ROWS);
  const cap = size * 2;
  const bounds = await hotQuery<{ created_at: Date; id: string }>(subscriptionPageBoundariesSql(o.shopId, o.filters, o.now, size));
  const keys: Keyset[] = bounds.map((b) => ({ createdAt: b.created_at, id: b.id }));
  const ranges = [...keys, null].map((upto, i) => ({ after: i ? keys[i - 1] : null, upto }));

  const render = SUBSCRIPTION_RENDERERS[format];
  const renderRange = async (range: { after: Keyset | null; upto: Keyset | null }): Promise<EncodedChunk[]> => {
    const pages: EncodedChunk[] = [];
    let after = range.after;
    for (;;) {
      const { bytes, rows, last } = render(await copyBinary(subscriptionPageSql(o.shopId, o.filters, o.now, { after, upto: range.upto }, cap)));
      if (rows) pages.push(encodedChunk(bytes, rows));
      if (rows < cap || !last) return pages;
      after = { createdAt: last.at, id: last.id };
    }
  };

  const pending: Array<Promise<EncodedChunk[]>> = [];
  let next = 0;
  const refill = () => {
    while (pending.length < PAGES_IN_FLIGHT && next < ranges.length) {
      const p = renderRange(ranges[next++]);
      // An early return (the consumer stopped) must not leave a rejection unheard.
      p.catch(() => undefined);
      pending.push(p);
    }
  };
  refill();
  while (pending.length) {
    const pages = await pending.shift()!;
    refill();
    yield* pages;
  }
}

// ---- Prisma-paged datasets (plans, bundles, mix_match) --------------------------------------

async function* keysetPages<T extends { createdAt: Date; id: string }>(
  size: number,
  fetch: (after: Keyset | null, take: number) => Promise<T[]>,
): AsyncGenerator<T[]> {
  let after: Keyset | null = null;
  for (;;) {
    const rows: T[] = await fetch(after, size);
    if (rows.length) yield rows;
    if (rows.length < size) return;
    const last: T = rows[rows.length - 1];
    after = { createdAt: last.createdAt, id: last.id };
  }
}

type PlanRow = Prisma.SellingPlanGroupGetPayload<{ include: { sellingPlans: true } }>;

const PLAN_COLUMNS: Column<PlanRow>[] = [
  { label: "Plan group ID", kind: "id", value: (g) => g.groupGid },
  { label: "Name", kind: "text", value: (g) => g.name },
  { label: "Status", kind: "enum", value: (g) => (g.status === "ACTIVE" ? "active" : "archived") },
  { label: "Cadence", kind: "text", value: (g) => g.cadenceLabel },
  { label: "Interval", kind: "enum", value: (g) => (g.scheduleMode === "ANCHORED" ? "MONTH" : g.interval) },
  { label: "Interval count", kind: "number", value: (g) => g.intervalCount },
  { label: "Billing", kind: "text", value: (g) => g.billingLabel },
  { label: "Discount", kind: "text", value: (g) => g.discountLabel },
  { label: "Giftable", kind: "boolean", value: (g) => g.giftable },
  { label: "Schedule mode", kind: "enum", value: (g) => (g.scheduleMode === "ANCHORED" ? "anchored" : "rolling") },
  { label: "Anchor day", kind: "number", value: (g) => (g.scheduleMode === "ANCHORED" ? (g.anchorDay ?? 1) : null) },
  {
    label: "Anchor months",
    kind: "id",
    value: (g) => (g.scheduleMode === "ANCHORED" ? [...g.anchorMonths].sort((a, b) => a - b).join(";") : null),
  },
  { label: "Cutoff days", kind: "number", value: (g) => (g.scheduleMode === "ANCHORED" ? (g.cutoffDays ?? 0) : null) },
  { label: "Pre-anchor behavior", kind: "enum", value: (g) => (g.scheduleMode === "ANCHORED" ? (g.preAnchorBehavior ?? "NEXT") : null) },
  { label: "Ship day", kind: "number", value: (g) => (g.scheduleMode === "ANCHORED" ? g.shipDay : null) },
  { label: "Schedule label", kind: "text", value: (g) => (g.scheduleMode === "ANCHORED" ? (g.scheduleLabel ?? "") : null) },
  {
    label: "Selling plan IDs",
    kind: "id",
    value: (g) =>
      [...g.sellingPlans]
        .sort((a, b) => a.position - b.position || a.id.localeCompare(b.id))
        .map((p) => p.sellingPlanGid)
        .join(";"),
  },
  { label: "Created at", kind: "date", value: (g) => iso(g.createdAt) },
  { label: "Updated at", kind: "date", value: (g) => iso(g.updatedAt) },
];

/** One row per box item; a bundle or box without items still gives one row (empty item cells). */
interface BundleRow {
  bundleId: string;
  title: string;
  kind: string;
  groupGid: string;
  cutoff: number;
  sizeMin: number | null;
  sizeMax: number | null;
  period: string | null;
  published: boolean | null;
  item: { position: number; variantGid: string; productTitle: string; variantTitle: string | null; quantity: number | null; priceCents: number } | null;
}

const BUNDLE_COLUMNS: Column<BundleRow>[] = [
  { label: "Bundle ID", kind: "id", value: (r) => r.bundleId },
  { label: "Title", kind: "text", value: (r) => r.title },
  { label: "Kind", kind: "enum", value: (r) => r.kind.toLowerCase() },
  { label: "Plan group ID", kind: "id", value: (r) => r.groupGid },
  { label: "Selection cutoff days", kind: "number", value: (r) => r.cutoff },
  { label: "Box size min", kind: "number", value: (r) => r.sizeMin },
  { label: "Box size max", kind: "number", value: (r) => r.sizeMax },
  { label: "Period", kind: "id", value: (r) => r.period },
  { label: "Published", kind: "boolean", value: (r) => r.published },
  { label: "Item position", kind: "number", value: (r) => r.item?.position ?? null },
  { label: "Variant ID", kind: "id", value: (r) => r.item?.variantGid ?? null },
  { label: "Product", kind: "text", value: (r) => r.item?.productTitle ?? null },
  { label: "Variant", kind: "text", value: (r) => r.item?.variantTitle ?? null },
  { label: "Quantity", kind: "number", value: (r) => r.item?.quantity ?? null },
  { label: "Price cents", kind: "number", value: (r) => r.item?.priceCents ?? null },
];

async function* bundleRows(o: StreamOptions): AsyncGenerator<BundleRow[]> {
  const pages = keysetPages(o.pageSize ?? 200, (after, take) =>
    prisma.bundle.findMany({
      where: { shopId: o.shopId, ...afterWhere(after) },
      orderBy: KEYSET_ORDER,
      take,
      include: {
        group: { select: { groupGid: true } },
        boxes: { orderBy: [{ period: "desc" }, { id: "asc" }], include: { items: { orderBy: [{ position: "asc" }, { id: "asc" }] } } },
      },
    }),
  );
  for await (const bundles of pages) {
    const out: BundleRow[] = [];
    for (const b of bundles) {
      const base = {
        bundleId: b.id,
        title: b.title,
        kind: b.kind,
        groupGid: b.group.groupGid,
        cutoff: b.selectionCutoffDays,
        sizeMin: b.boxSizeMin,
        sizeMax: b.boxSizeMax,
      };
      if (!b.boxes.length) out.push({ ...base, period: null, published: null, item: null });
      for (const box of b.boxes) {
        if (!box.items.length) out.push({ ...base, period: box.period, published: box.published, item: null });
        for (const it of box.items) out.push({ ...base, period: box.period, published: box.published, item: it });
      }
    }
    yield out;
  }
}

/** One row per catalogue entry; a plan or category without entries still gives one row. */
interface MixMatchRow {
  planId: string;
  title: string;
  groupGid: string;
  cartGroupId: string;
  priceCents: number;
  minItems: number;
  maxItems: number;
  category: { title: string; position: number } | null;
  entry: { position: number; variantGid: string; productTitle: string; variantTitle: string | null; priceCents: number } | null;
}

const MIX_MATCH_COLUMNS: Column<MixMatchRow>[] = [
  { label: "Mix & Match ID", kind: "id", value: (r) => r.planId },
  { label: "Title", kind: "text", value: (r) => r.title },
  { label: "Plan group ID", kind: "id", value: (r) => r.groupGid },
  { label: "Cart group ID", kind: "id", value: (r) => r.cartGroupId },
  { label: "Price cents", kind: "number", value: (r) => r.priceCents },
  { label: "Min items", kind: "number", value: (r) => r.minItems },
  { label: "Max items", kind: "number", value: (r) => r.maxItems },
  { label: "Category", kind: "text", value: (r) => r.category?.title ?? null },
  { label: "Category position", kind: "number", value: (r) => r.category?.position ?? null },
  { label: "Entry position", kind: "number", value: (r) => r.entry?.position ?? null },
  { label: "Variant ID", kind: "id", value: (r) => r.entry?.variantGid ?? null },
  { label: "Product", kind: "text", value: (r) => r.entry?.productTitle ?? null },
  { label: "Variant", kind: "text", value: (r) => r.entry?.variantTitle ?? null },
  { label: "Entry price cents", kind: "number", value: (r) => r.entry?.priceCents ?? null },
];

async function* mixMatchRows(o: StreamOptions): AsyncGenerator<MixMatchRow[]> {
  const pages = keysetPages(o.pageSize ?? 200, (after, take) =>
    prisma.mixMatchPlan.findMany({
      where: { shopId: o.shopId, ...afterWhere(after) },
      orderBy: KEYSET_ORDER,
      take,
      include: {
        group: { select: { groupGid: true } },
        categories: { orderBy: [{ position: "asc" }, { id: "asc" }], include: { entries: { orderBy: [{ position: "asc" }, { id: "asc" }] } } },
      },
    }),
  );
  for await (const plans of pages) {
    const out: MixMatchRow[] = [];
    for (const p of plans) {
      const base = {
        planId: p.id,
        title: p.title,
        groupGid: p.group.groupGid,
        cartGroupId: p.cartGroupId,
        priceCents: p.priceCents,
        minItems: p.minItems,
        maxItems: p.maxItems,
      };
      if (!p.categories.length) out.push({ ...base, category: null, entry: null });
      for (const c of p.categories) {
        const category = { title: c.title, position: c.position };
        if (!c.entries.length) out.push({ ...base, category, entry: null });
        for (const e of c.entries) out.push({ ...base, category, entry: e });
      }
    }
    yield out;
  }
}

// ---- the catalogue ---------------------------------------------------------------------------

export const DATASETS: Record<DatasetName, Dataset> = {
  subscriptions: {
    name: "subscriptions",
    description: "One row per subscription contract of the mirror (display columns; no names or e-mail addresses). Takes the subscription filters.",
    scopes: ["read:subscriptions"],
    customerData: false,
    takesFilters: true,
    columns: SUBSCRIPTION_EXPORT_COLUMNS,
    rows: subscriptionRows,
    encodedPages: subscriptionEncodedPages,
  },
  plans: {
    name: "plans",
    description: "One row per plan (selling plan group) with its schedule.",
    scopes: ["read:plans"],
    customerData: false,
    takesFilters: false,
    columns: PLAN_COLUMNS,
    rows: (o) =>
      keysetPages<PlanRow>(o.pageSize ?? 500, (after, take) =>
        prisma.sellingPlanGroup.findMany({ where: { shopId: o.shopId, ...afterWhere(after) }, orderBy: KEYSET_ORDER, take, include: { sellingPlans: true } }),
      ),
  },
  bundles: {
    name: "bundles",
    description: "One row per box item of every period of every bundle (bundles and boxes without items give one row with empty item cells).",
    scopes: ["read:bundles"],
    customerData: false,
    takesFilters: false,
    columns: BUNDLE_COLUMNS,
    rows: bundleRows,
  },
  mix_match: {
    name: "mix_match",
    description: "One row per catalogue entry of every Mix & Match plan (plans and categories without entries give one row).",
    scopes: ["read:mixmatch"],
    customerData: false,
    takesFilters: false,
    columns: MIX_MATCH_COLUMNS,
    rows: mixMatchRows,
  },
  migration: {
    name: "migration",
    description:
      "The importer-shaped round-trip file: one row per contract line with the customer's e-mail, name, phone and shipping address, read from Shopify while rendering.",
    scopes: ["read:subscriptions", "read:customers"],
    customerData: true,
    takesFilters: false,
    columns: MIGRATION_COLUMNS as readonly Column<MigrationRow>[],
    rows: migrationRows,
  },
};

/** The datasets a key's scopes allow (every listed scope held). */
export function datasetsFor(scopes: readonly string[]): Dataset[] {
  return DATASET_NAMES.map((n) => DATASETS[n]).filter((d) => d.scopes.every((s) => scopes.includes(s)));
}
