// What the mail endpoints outside the three APIs share (/email/dsn, /email/mailgun,
// /email/unsubscribe): the one error envelope with a request id, and a bounded raw body.
import type { ErrorCode } from "../infra/errors";
import { errorResponse } from "./envelope.server";
import { newRequestId } from "./request-id.server";

export function mailEndpointError(_request: Request, code: ErrorCode, message: string): Response {
  const id = newRequestId();
  const headers = new Headers({ "Cache-Control": "no-store", "X-Service-Request-Id": id });
  if (code === "method_not_allowed") headers.set("Allow", "POST");
  return errorResponse(code, message, id, headers);
}

/** The body as bytes, or null when empty or larger than `max`. */
export async function readRawBody(request: Request, max: number): Promise<Buffer | null> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > max) return null;
  const buf = Buffer.from(await request.arrayBuffer());
  return buf.length === 0 || buf.length > max ? null : buf;
}
