// The one error envelope of every surface (/docs/api/errors) and the JSON response writer.
import { env } from "../env.server";
import { ERROR_CODES, type ErrorCode } from "../infra/errors";

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; doc_url: string; request_id: string };
}

export function docsBaseUrl(): string {
  return `${env().SHOPIFY_APP_URL.replace(/\/+$/, "")}/docs`;
}

export function docUrl(code: ErrorCode): string {
  return `${docsBaseUrl()}/api/errors#${code}`;
}

export function errorEnvelope(code: ErrorCode, message: string, requestId: string): ErrorEnvelope {
  return { error: { code, message, doc_url: docUrl(code), request_id: requestId } };
}

/** A body of shape T already encoded as JSON (a list page written from binary rows): sent as it is. */
export class EncodedJson<T = unknown> {
  declare readonly shape?: T;
  constructor(readonly bytes: Buffer<ArrayBuffer>) {}

  /** JSON.stringify elsewhere (the idempotency layer's stored outcome) gives the same JSON back. */
  toJSON(): T {
    return JSON.parse(this.bytes.toString("utf8")) as T;
  }
}

export function jsonResponse(status: number, body: unknown, headers: Headers): Response {
  headers.set("Content-Type", "application/json; charset=utf-8");
  const payload = status === 204 ? null : body instanceof EncodedJson ? body.bytes : JSON.stringify(body);
  return new Response(payload, { status, headers });
}

export function errorResponse(code: ErrorCode, message: string, requestId: string, headers: Headers): Response {
  return jsonResponse(ERROR_CODES[code], errorEnvelope(code, message, requestId), headers);
}
