// The Import page's server side (app/routes/app.imports*.ts): the embedded admin's session names
// the shop; every read and write below is scoped to that shop's id (tenancy).
import { prisma } from "../db.server";
import { ApiError } from "../infra/errors";
import { importErrorFile, importProgress, latestImport } from "../domain/imports/progress.server";
import { createImport, startImport } from "../domain/imports/start.server";
import { MAX_IMPORT_BYTES, type ImportReport } from "../domain/imports/validate.server";

async function shopIdOf(shopDomain: string): Promise<string> {
  const shop = await prisma.shop.findUnique({ where: { domain: shopDomain }, select: { id: true } });
  if (!shop) throw new ApiError("not_found", "Unknown shop");
  return shop.id;
}

/** The report the page shows: every error, and the first 200 contracts (the totals count all). */
export type PageReport = Omit<ImportReport, "items"> & { items: ImportReport["items"]; more: number };

export async function importPageData(shopDomain: string, importId: string | null) {
  const shopId = await shopIdOf(shopDomain);
  return { progress: importId ? await importProgress(shopId, importId) : await latestImport(shopId), maxBytes: MAX_IMPORT_BYTES };
}

export async function uploadImport(shopDomain: string, file: File): Promise<{ id: string; report: PageReport }> {
  if (file.size > MAX_IMPORT_BYTES) throw new ApiError("invalid_request", `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB`);
  const { id, report } = await createImport(await shopIdOf(shopDomain), { fileName: file.name || "import.csv", text: await file.text() });
  return { id, report: { ...report, items: report.items.slice(0, 200), more: Math.max(0, report.items.length - 200), errors: report.errors.slice(0, 500) } };
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
