// GET {base_url}/api/exports/{id}/download?expires=&signature= (docs/decisions/058-export-downloads.md): no
// bearer key; the signed URL is the authorization. Streams the file from storage. Reached from
// the API front door (./dispatch.server.ts) like every /api/ path (docs/decisions/037).
import { Readable } from "node:stream";
import { openDownload } from "../domain/exports/download.server";
import { errorEnvelope } from "../http/envelope.server";
import { newRequestId } from "../http/request-id.server";

export const EXPORT_DOWNLOAD_BASE = "/api/exports";
const DOWNLOAD_PATH = /^\/api\/exports\/([^/]+)\/download$/;

/** The identical answer for every refusal (only the request id differs); the reason is only logged. */
function refused(): Response {
  const requestId = newRequestId();
  return new Response(JSON.stringify(errorEnvelope("not_found", "No such export download.", requestId)), {
    status: 404,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "private, no-store", "X-Service-Request-Id": requestId },
  });
}

export async function handleExportDownload(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const match = DOWNLOAD_PATH.exec(url.pathname);
  if (!match || (request.method !== "GET" && request.method !== "HEAD")) return refused();
  let id: string;
  try {
    id = decodeURIComponent(match[1]);
  } catch {
    return refused();
  }
  const download = await openDownload(id, url.searchParams.get("expires"), url.searchParams.get("signature"));
  if (!download) return refused();
  if (request.method === "HEAD") {
    download.body.destroy();
    return new Response(null, { status: 200, headers: download.headers });
  }
  return new Response(Readable.toWeb(download.body) as ReadableStream, { status: 200, headers: download.headers });
}
