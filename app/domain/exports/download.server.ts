// The signed download (docs/decisions/058-export-downloads.md). The signature is the authorization (no bearer
// key); tenancy comes from the stored job row. Every refusal (malformed or bad signature,
// expired URL, unknown id, a job that is not ready, bytes gone) is the same 404; the reason is
// only logged. docs/decisions/058-export-downloads.md.
import type { Readable } from "node:stream";
import { prisma } from "../../db.server";
import { log } from "../../infra/log.server";
import { CONTENT_TYPE, exportFilename, type ExportFormat } from "../shared/format";
import { checkDownloadSignature } from "./signing.server";
import { exportStorage } from "./storage.server";

export interface Download {
  body: Readable;
  headers: Record<string, string>;
}

/** The file and its exact headers, or null for every refusal. */
export async function openDownload(id: string, expires: string | null, signature: string | null, now = new Date()): Promise<Download | null> {
  const refuse = (reason: string) => {
    log.info("export download refused", { export_id: id.slice(0, 64), reason });
    return null;
  };
  const check = checkDownloadSignature(id, expires, signature, now);
  if (check !== "ok") return refuse(check);
  const job = await prisma.exportJob.findUnique({ where: { id } });
  if (!job) return refuse("unknown_id");
  if (job.status !== "ready" || !job.storageKey || !job.readyAt) return refuse(`status_${job.status}`);
  if (job.expiresAt && job.expiresAt.getTime() <= now.getTime()) return refuse("bytes_expired");
  const file = await exportStorage().open(job.storageKey);
  if (!file) return refuse("bytes_missing");
  if (job.byteSize !== null && BigInt(file.size) !== job.byteSize) {
    file.body.destroy();
    return refuse("size_mismatch");
  }
  const format = job.format as ExportFormat;
  const headers: Record<string, string> = {
    "Content-Type": CONTENT_TYPE[format],
    "Content-Disposition": `attachment; filename="${exportFilename(job.dataset, format, job.readyAt)}"`,
    "Content-Length": String(file.size),
    "Cache-Control": "private, no-store",
  };
  if (job.sha256) {
    const b64 = Buffer.from(job.sha256, "hex").toString("base64");
    // RFC 9530 Content-Digest, and the older RFC 3230 Digest for clients that only know that one.
    headers["Content-Digest"] = `sha-256=:${b64}:`;
    headers["Digest"] = `SHA-256=${b64}`;
  }
  return { body: file.body, headers };
}
