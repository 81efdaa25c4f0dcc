// Admin API export jobs (/docs#tag/Admin-API:-Exports; docs/decisions/057): POST /exports, GET /exports, GET /exports/datasets,
// GET /exports/{id}. Scopes depend on the dataset, so these routes list none and the handlers
// demand every scope of the dataset (exactly what paging the same rows needs). The
// Idempotency-Key header is ignored here (docs/decisions/057-export-jobs.md). The unauthenticated signed download
// is answered by the API front door (app/surfaces/exports-download.server.ts).
import { z } from "zod";
import { ApiError } from "../../infra/errors";
import { fixedListPage, fixedListQuery } from "../fixed-lists";
import { defineRoute } from "../../http/route";
import { decodeCursor, toEnvelope } from "../../http/cursor.server";
import { clampLimit } from "../../domain/shared/paging.server";
import { DATASETS, datasetsFor } from "../../domain/exports/datasets.server";
import { DATASET_NAMES, type DatasetName } from "../../domain/exports/stream-types";
import { EXPORT_FORMATS, snakeKey, type ExportFormat } from "../../domain/shared/format";
import { createExport, getExport, listExports, type ExportJobView } from "../../domain/exports/jobs.server";
import { iso } from "../../domain/shared/money.server";
import type { SubscriptionFilterOptions } from "../../domain/subscriptions/filters.server";
import { SUBSCRIPTION_FILTER_NAMES, filtersToQuery, issueMessage, subscriptionFiltersSchema } from "../subscription-filters";

const ExportJobSchema = z.object({
  id: z.string(),
  dataset: z.string().describe(DATASET_NAMES.join(", ")),
  format: z.string().describe("csv or jsonl"),
  filters: z.record(z.string(), z.string()),
  status: z.string().describe("queued, running, ready, failed or expired"),
  row_count: z.number().int().nullable(),
  byte_size: z.number().int().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  ready_at: z.string().nullable(),
  expires_at: z.string().nullable().describe("24 hours after ready_at"),
  download_url: z
    .string()
    .nullable()
    .describe("{base_url}/api/exports/<id>/download?expires=<unix seconds>&signature=<hex>; set once ready, signed for one hour"),
  download_url_expires_at: z.string().nullable().describe("when download_url stops working (one hour after this response); null until ready"),
  error: z.object({ code: z.string().describe("export_too_large, shop_unavailable, enqueue_failed or render_failed"), message: z.string() }).nullable(),
  progress: z.number().int().describe("additive: rows rendered so far"),
  sha256: z.string().nullable().describe("additive: hex SHA-256 of the file once ready (also the download's Content-Digest)"),
});

/** The job's wire shape (the Export Center shows the same). */
export const exportJobJson = (j: ExportJobView): z.input<typeof ExportJobSchema> => ({
  id: j.id,
  dataset: j.dataset,
  format: j.format,
  filters: j.filters,
  status: j.status,
  row_count: j.rowCount,
  byte_size: j.byteSize,
  created_at: j.createdAt.toISOString(),
  started_at: iso(j.startedAt),
  ready_at: iso(j.readyAt),
  expires_at: iso(j.expiresAt),
  download_url: j.download?.url ?? null,
  download_url_expires_at: j.download ? j.download.expiresAt.toISOString() : null,
  error: j.error,
  progress: j.progress,
  sha256: j.sha256,
});

const DatasetSchema = z.object({
  name: z.enum(DATASET_NAMES),
  description: z.string(),
  scopes: z.array(z.string()).describe("every one is required"),
  customer_data: z.boolean(),
  filters: z.array(z.string()).describe("filter names it takes (subscriptions only)"),
  formats: z.array(z.enum(EXPORT_FORMATS)),
  columns: z.array(z.object({ label: z.string(), key: z.string().describe("the JSONL key") })),
});

const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), next_cursor: z.string().nullable() });

/** The create body: unknown dataset, format or filter, or filters on a dataset that takes none, are 400 naming the value. */
export const createExportBody = z
  .object({
    dataset: z.string().describe(DATASET_NAMES.join(", ")),
    format: z.string().optional().describe("csv (default) or jsonl"),
    filters: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(`subscriptions only: ${SUBSCRIPTION_FILTER_NAMES.join(", ")}`),
  })
  .strict()
  .meta({ example: { dataset: "subscriptions", format: "csv", filters: { status: "active" } } })
  .transform((b, ctx) => {
    const dataset = DATASET_NAMES.find((d) => d === b.dataset);
    if (!dataset) {
      ctx.addIssue({ code: "custom", path: ["dataset"], message: `Unknown dataset "${b.dataset}": expected one of ${DATASET_NAMES.join(", ")}` });
      return z.NEVER;
    }
    const format = EXPORT_FORMATS.find((f) => f === (b.format ?? "csv"));
    if (!format) {
      ctx.addIssue({ code: "custom", path: ["format"], message: `Unknown format "${b.format}": expected csv or jsonl` });
      return z.NEVER;
    }
    let filters: SubscriptionFilterOptions = {};
    const given = Object.keys(b.filters ?? {});
    if (DATASETS[dataset].takesFilters) {
      const r = subscriptionFiltersSchema.safeParse(b.filters ?? {});
      if (!r.success) {
        ctx.addIssue({ code: "custom", path: ["filters"], message: issueMessage(r.error) });
        return z.NEVER;
      }
      filters = r.data;
    } else if (given.length) {
      ctx.addIssue({
        code: "custom",
        path: ["filters"],
        message: `The ${dataset} dataset takes no filters (got ${given.map((k) => `"${k}"`).join(", ")}); only subscriptions does.`,
      });
      return z.NEVER;
    }
    return { dataset: dataset as DatasetName, format: format as ExportFormat, filters };
  });

/** The reference text of POST /exports: formats, formula safety and every dataset's columns. */
function exportReference(): string {
  const datasets = DATASET_NAMES.map((n) => {
    const d = DATASETS[n];
    const cols = d.columns.map((c) => `${c.label} (\`${snakeKey(c.label)}\`)`).join(", ");
    return `- **${n}** (scopes: ${d.scopes.join(" and ")}${d.takesFilters ? "; takes the filters" : "; no filters"}): ${d.description} Columns: ${cols}.`;
  });
  return [
    "Requires every scope of the dataset. One queued-or-running export per shop: a second create is 409 `export_in_progress` naming the job. The Idempotency-Key header is ignored. An unknown dataset, format or filter, or filters on a dataset that takes none, is 400 `invalid_request` naming the value.",
    "",
    '**Formats.** `csv`: UTF-8 with a BOM, a header row of the labels, CRLF after every row, every field quoted, inner quotes doubled, empty value `""`. `jsonl`: no BOM, one object per line, keys are the snake_case of the labels in column order, numbers and booleans stay JSON, money (exact decimal in the contract\'s currency) and dates (ISO 8601 UTC) are strings, empty is `null`. `row_count` excludes the header.',
    "",
    "**Spreadsheet safety.** In CSV only, a free-text cell (titles, names, addresses, order names) starting with `=`, `+`, `-`, `@`, TAB or CR is prefixed with an apostrophe `'` so spreadsheets do not evaluate it; ids, statuses, money, dates and numbers are never altered; JSONL carries every value exactly.",
    "",
    "**Filters** (subscriptions only, all optional, ANDed): `status` (ACTIVE, PAUSED, CANCELLED, EXPIRED), `plan` (a SellingPlan or SellingPlanGroup gid), `customer_id` (gid or number), `product` (substring of the title), `frequency` (exact label), `amount_min`/`amount_max` (inclusive decimal bounds in each contract's currency), `next_from`/`next_to` (inclusive YYYY-MM-DD, UTC), `q` (substring of product, order name or ids), `view=renewals` (ACTIVE, next charge today or later).",
    "",
    "**Lifecycle.** queued -> running (`started_at`, `progress` counts rows) -> ready (`row_count`, `byte_size`, `sha256`, `ready_at`, `expires_at` = ready_at + 24 h) or failed with `error.code` one of `export_too_large` (file over 128 MiB), `shop_unavailable`, `enqueue_failed`, `render_failed`. Ready files expire 24 h after ready_at (record kept, status expired); jobs stuck 24 h are released (failed); records are deleted 7 days after creation.",
    "",
    "**Datasets and columns.**",
    ...datasets,
  ].join("\n");
}

const DOWNLOAD_REFERENCE = [
  "When ready, `download_url` is `{base_url}/api/exports/<id>/download?expires=<unix seconds>&signature=<hex>`, signed (HMAC over the id and the expiry) for one hour and minted again on every GET. The download needs no key.",
  'Success: `Content-Type: text/csv; charset=utf-8` or `application/x-ndjson; charset=utf-8`, `Content-Disposition: attachment; filename="<dataset>-<YYYY-MM-DD>.<csv|jsonl>"`, exact `Content-Length`, `Cache-Control: private, no-store`, and `Content-Digest: sha-256=:<base64>:` (also `Digest: SHA-256=<base64>`).',
  "Every refusal (bad or edited signature, expired URL, unknown id, failed or expired job) is the same 404 `not_found`.",
  "A job of a dataset the key may not read is 403 `insufficient_scope`.",
].join(" ");

function requireDatasetScopes(dataset: DatasetName, scopes: readonly string[]): void {
  const missing = DATASETS[dataset].scopes.filter((s) => !scopes.includes(s));
  if (missing.length) {
    throw new ApiError("insufficient_scope", `The ${dataset} dataset requires the scope ${missing.map((s) => `"${s}"`).join(" and ")}.`);
  }
}

export const adminExportRoutes = [
  defineRoute({
    method: "POST",
    path: "/exports",
    scopes: [],
    query: z.object({}).strict(),
    body: createExportBody,
    summary: "Create an export job (202, status queued)",
    description: exportReference(),
    tags: ["Exports"],
    successStatus: 202,
    response: ExportJobSchema,
    handler: async (ctx) => {
      requireDatasetScopes(ctx.body.dataset, ctx.key.scopes);
      const job = await createExport({
        shopId: ctx.shop.id,
        dataset: ctx.body.dataset,
        format: ctx.body.format,
        filters: filtersToQuery(ctx.body.filters),
        filterOptions: ctx.body.filters,
      });
      return { status: 202, body: exportJobJson(job) };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/exports",
    scopes: [],
    query: z
      .object({
        limit: z.string().optional().describe("Page size: default 50, maximum 250 (larger values are clamped)"),
        cursor: z.string().optional().describe("Opaque cursor from next_cursor"),
      })
      .strict(),
    summary: "Recent export jobs of the shop (those whose dataset the key may read), newest first",
    tags: ["Exports"],
    response: listOf(ExportJobSchema),
    handler: async (ctx) => {
      const datasets = datasetsFor(ctx.key.scopes).map((d) => d.name);
      const bind = "exports";
      const page = { limit: clampLimit(ctx.query.limit), after: ctx.query.cursor ? decodeCursor(ctx.query.cursor, bind) : null };
      const { data, next } = await listExports({ shopId: ctx.shop.id, datasets, page });
      return { body: toEnvelope({ data: data.map(exportJobJson), next }, bind) };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/exports/datasets",
    scopes: [],
    query: fixedListQuery(),
    summary: "The datasets this key may export, each with its required scopes and columns",
    tags: ["Exports"],
    response: listOf(DatasetSchema),
    handler: (ctx) => ({
      body: fixedListPage(
        ctx.query,
        datasetsFor(ctx.key.scopes).map((d) => ({
          name: d.name,
          description: d.description,
          scopes: [...d.scopes],
          customer_data: d.customerData,
          filters: d.takesFilters ? [...SUBSCRIPTION_FILTER_NAMES] : [],
          formats: [...EXPORT_FORMATS],
          columns: d.columns.map((c) => ({ label: c.label, key: snakeKey(c.label) })),
        })),
        // The cursor is bound to the key's scopes: they decide which datasets the list holds.
        `export-datasets|${[...ctx.key.scopes].sort().join(",")}`,
      ),
    }),
  }),
  defineRoute({
    method: "GET",
    path: "/exports/:id",
    scopes: [],
    params: z.object({ id: z.string().min(1).max(255) }),
    query: z.object({}).strict(),
    summary: "One export job; when ready, a freshly signed download_url valid for one hour",
    description: DOWNLOAD_REFERENCE,
    tags: ["Exports"],
    response: ExportJobSchema,
    handler: async (ctx) => ({ body: exportJobJson(await getExport({ shopId: ctx.shop.id, id: ctx.params.id, scopes: ctx.key.scopes })) }),
  }),
];
