// The one error envelope of every surface (/docs/api/errors) and the JSON response writer.
import { env } from "../env.server";
import { ERROR_CODES, type ErrorCode } from "../errors";

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

export function jsonResponse(status: number, body: unknown, headers: Headers): Response {
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(status === 204 ? null : JSON.stringify(body), { status, headers });
}

export function errorResponse(code: ErrorCode, message: string, requestId: string, headers: Headers): Response {
  return jsonResponse(ERROR_CODES[code], errorEnvelope(code, message, requestId), headers);
}
