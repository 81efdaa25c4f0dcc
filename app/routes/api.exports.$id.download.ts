// GET {base_url}/api/exports/{id}/download?expires=&signature= (spec 2, Download route): no
// bearer key; the signed URL is the authorization. Streams the file from storage.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Readable } from "node:stream";
import { openDownload } from "../domain/exports/download.server";
import { errorEnvelope } from "../http/envelope.server";
import { newRequestId } from "../http/request-id.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const download = await openDownload(params.id ?? "", url.searchParams.get("expires"), url.searchParams.get("signature"));
  if (!download) {
    // The identical answer for every refusal (only the request id differs).
    const requestId = newRequestId();
    return new Response(JSON.stringify(errorEnvelope("not_found", "No such export download.", requestId)), {
      status: 404,
      headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "private, no-store", "X-Service-Request-Id": requestId },
    });
  }
  if (request.method === "HEAD") {
    download.body.destroy();
    return new Response(null, { status: 200, headers: download.headers });
  }
  return new Response(Readable.toWeb(download.body) as ReadableStream, { status: 200, headers: download.headers });
}
