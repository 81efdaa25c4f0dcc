// Starting a migration import: the upload kept as an import in state `validated`, then queued
// (one queued-or-running import per shop, enforced by a unique slot) and handed to the `imports`
// queue (docs/decisions/085-migration-import.md).
import { prisma } from "../../db.server";
import { validate, report, shopPort, type ImportFile, type ImportReport } from "./validate.server";
import { ApiError } from "../../infra/errors";
import { QUEUES, enqueue } from "../../infra/queues.server";
import { type ImportRunPayload } from "../../infra/job-payloads";
import { parseMigrationFile, type ImportFormat } from "./file";
import { audited, diffFields, recordRefusal } from "../audit/audit.server";

/** Keeps the upload as an import (state `validated`) and answers its dry-run report. */
export async function createImport(shopId: string, file: ImportFile): Promise<{ id: string; report: ImportReport }> {
  const port = await shopPort(shopId);
  const v = await validate(shopId, port, file);
  const r = await report(shopId, port, v, { lookupCustomers: true });
  // The upload is a write: one audit row in its transaction (the file's rows are not copied into it).
  return audited({ shopId, action: "import.upload", target: { type: "import", id: "new" } }, async (tx) => {
    const row = await tx.migrationImport.create({
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
    return {
      result: { id: row.id, report: r },
      targetId: row.id,
      changes: diffFields(null, row, ["fileName", "format", "rowCount", "contractCount", "errorCount"]),
    };
  });
}

/** Queues a validated import. One queued-or-running import per shop (409 import_in_progress). */
export async function startImport(shopId: string, importId: string): Promise<void> {
  const what = { shopId, action: "import.start", target: { type: "import" as const, id: importId } };
  const check = async () => {
    const imp = await prisma.migrationImport.findFirst({ where: { id: importId, shopId } });
    if (!imp) throw new ApiError("not_found", "No such import");
    if (imp.status !== "validated") throw new ApiError("state_conflict", `The import is ${imp.status}; upload the file again to import it again`);
    if (imp.errorCount > 0 && imp.contractCount === 0) throw new ApiError("invalid_request", "The file has no importable contract");
    const header = parseMigrationFile(imp.content, imp.format as ImportFormat).problems.filter((p) => p.row === 0);
    if (header.length) throw new ApiError("invalid_request", `The file cannot be imported: ${header[0].message}`);
  };
  try {
    await audited(
      what,
      async (tx) => {
        const updated = await tx.migrationImport.updateMany({
          where: { id: importId, shopId, status: "validated" },
          data: { status: "queued", activeSlot: "active" },
        });
        if (updated.count === 0) throw new ApiError("state_conflict", "The import was started already");
        return { result: undefined, changes: diffFields({ status: "validated" }, { status: "queued" }, ["status"]) };
      },
      { check },
    );
  } catch (err) {
    if ((err as { code?: string }).code === "P2002")
      await recordRefusal(new ApiError("state_conflict", "Another import of this shop is queued or running; wait for it to finish"), what);
    throw err;
  }
  await enqueueImport(importId);
}

export async function enqueueImport(importId: string): Promise<void> {
  const payload: ImportRunPayload = { importId };
  // The job id is the import id: adding it again while it waits or runs is a no-op.
  await enqueue(QUEUES.imports, "run", payload, { jobId: importId, attempts: 10, backoff: { type: "exponential", delay: 2000 } });
}
