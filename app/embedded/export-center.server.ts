// The Export Center's server side (app/routes/app.exports*.ts): what the page shows, and the
// streamed download. The download parses its query with the very schema POST /exports uses
// (app/surfaces/admin/exports.ts), and streams the same generator the jobs render with, so a
// file from the page and a job's file of the same rows are the same bytes.
import { FRAME_PARAMS } from "./frame-params";
import { prisma } from "../db.server";
import { errorEnvelope } from "../http/envelope.server";
import { newRequestId } from "../http/request-id.server";
import { hotQuery } from "../infra/pg.server";
import { Prisma } from "@prisma/client";
import { DATASETS } from "../domain/exports/datasets.server";
import { DATASET_NAMES } from "../domain/exports/stream-types";
import { CONTENT_TYPE, encoder, exportFilename } from "../domain/shared/format";
import { recentExports } from "../domain/exports/jobs.server";
import { streamDataset } from "../domain/exports/stream.server";
import { subscriptionFilterSql } from "../domain/subscriptions/filters.server";
import { createExportBody, exportJobJson } from "../surfaces/admin/exports";
import { issueMessage } from "../surfaces/subscription-filters";

const LABELS: Record<string, string> = {
  subscriptions: "Subscriptions",
  plans: "Plans",
  bundles: "Bundles",
  mix_match: "Mix & Match",
  migration: "Migration (with customer details)",
};

/** Where a shop below Pro goes to upgrade (the plan page of the embedded admin). */
export const UPGRADE_URL = "/app/plan";

export async function exportCenterData(shopDomain: string) {
  const shop = await prisma.shop.findUnique({ where: { domain: shopDomain }, select: { id: true, appPlan: true } });
  return {
    pro: shop?.appPlan === "PRO",
    upgradeUrl: UPGRADE_URL,
    datasets: DATASET_NAMES.map((n) => ({ name: n, label: LABELS[n], description: DATASETS[n].description, takesFilters: DATASETS[n].takesFilters })),
    jobs: shop ? (await recentExports(shop.id)).map(exportJobJson) : [],
  };
}

function errorJson(status: number, code: "invalid_request" | "plan_upgrade_required", message: string): Response {
  return new Response(JSON.stringify(errorEnvelope(code, message, newRequestId())), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "private, no-store" },
  });
}

/** GET /app/exports/download?dataset=&format=&<filters>: the file, streamed as it renders. */
export async function exportCenterDownload(shopDomain: string, params: URLSearchParams, now = new Date()): Promise<Response> {
  const shop = await prisma.shop.findUnique({ where: { domain: shopDomain }, select: { id: true, appPlan: true } });
  if (!shop || shop.appPlan !== "PRO") return errorJson(403, "plan_upgrade_required", "Exports are part of the Pro plan.");
  const own = [...params].filter(([k]) => !(FRAME_PARAMS as readonly string[]).includes(k));
  const { dataset, format, ...filters } = Object.fromEntries(own);
  const parsed = createExportBody.safeParse({ dataset, format, ...(Object.keys(filters).length ? { filters } : {}) });
  if (!parsed.success) return errorJson(400, "invalid_request", issueMessage(parsed.error));
  const { dataset: name, format: fmt, filters: options } = parsed.data;
  const ds = DATASETS[name];
  const headers: Record<string, string> = {
    "Content-Type": CONTENT_TYPE[fmt],
    "Content-Disposition": `attachment; filename="${exportFilename(name, fmt, now)}"`,
    "Cache-Control": "private, no-store",
  };
  if (name === "subscriptions") {
    // The total for the progress bar: the same conditions as the rows that follow.
    const [row] = await hotQuery<{ n: string }>(
      Prisma.sql`SELECT count(*)::text AS n FROM contracts WHERE ${subscriptionFilterSql(shop.id, options, { now })}`,
    );
    headers["X-Export-Row-Count"] = row.n;
  }
  const chunks = streamDataset(ds, encoder(fmt, ds.columns), { shopId: shop.id, filters: options, now });
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value.bytes);
      } catch (err) {
        controller.error(err);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(body, { status: 200, headers });
}
