// Every request whose path starts with /api/ comes here from server.ts, whatever its method,
// path bytes or query (docs/decisions/037-api-front-door.md): the three surfaces by base path,
// and a JSON not_found envelope for anything else under /api/ (an unknown surface or version:
// /api/foo/v1, /api/admin/v2/...). Nothing under /api/ is a Remix route, so no request there can
// reach Remix's HTML pages or its `?_data=` handling. The one non-surface endpoint under
// /api/, the signed export download (/docs: Exports), is in ENDPOINTS too.
import { ApiError, type ErrorCode } from "../infra/errors";
import { errorResponse } from "../http/envelope.server";
import { newRequestId } from "../http/request-id.server";
import { log } from "../infra/log.server";
import { adminApi } from "./admin/index.server";
import { customerApi } from "./customer/index.server";
import { storefrontApi } from "./storefront/index.server";
import { ADMIN_SURFACE, CUSTOMER_SURFACE, STOREFRONT_SURFACE } from "./config";
import { EXPORT_DOWNLOAD_BASE, handleExportDownload } from "./exports-download.server";

const ENDPOINTS: ReadonlyArray<readonly [string, (request: Request) => Promise<Response>]> = [
  [ADMIN_SURFACE.basePath, adminApi.handle],
  [STOREFRONT_SURFACE.basePath, storefrontApi.handle],
  [CUSTOMER_SURFACE.basePath, customerApi.handle],
  [EXPORT_DOWNLOAD_BASE, handleExportDownload],
];

function envelope(code: ErrorCode, message: string, headers: Headers = new Headers()): Response {
  const requestId = newRequestId();
  headers.set("X-Service-Request-Id", requestId);
  return errorResponse(code, message, requestId, headers);
}

/**
 * The envelope for an /api/ request that never became a Request: Node's HTTP parser refused its
 * bytes (server.ts, clientError), so no surface can see it (docs/decisions/093).
 */
export function refuseUnparsedApiRequest(code: "invalid_request" | "method_not_allowed", message: string): Response {
  const headers = new Headers(code === "method_not_allowed" ? { Allow: "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS" } : {});
  return envelope(code, message, headers);
}

/** The kernel's answer to any /api/ request; never throws, never HTML. */
export async function handleApiRequest(request: Request): Promise<Response> {
  try {
    const { pathname } = new URL(request.url);
    for (const [base, handle] of ENDPOINTS) {
      if (pathname === base || pathname.startsWith(`${base}/`)) return await handle(request);
    }
    return envelope("not_found", `No API at ${pathname}: the surfaces are ${ENDPOINTS.map(([base]) => base).join(", ")} (see /docs).`);
  } catch (err) {
    // The kernel renders its own failures; this is the last guard (no detail to the client).
    if (err instanceof ApiError) return envelope(err.code as ErrorCode, err.message);
    log.error("unhandled error in API dispatch", { err: err instanceof Error ? err : new Error(String(err)) });
    return envelope("internal_error", "An internal error occurred.");
  }
}
