// Request bodies: counted while streaming (Content-Length is only a hint), capped at 1 MiB
// (/docs#section/Conventions), JSON only. Every failure is 400 invalid_request.
import { ApiError } from "../infra/errors";

export const MAX_BODY_BYTES = 1024 * 1024;

export interface ParsedBody {
  /** Exact bytes as text; the idempotency hash is computed over the parsed value, not this. */
  raw: string;
  /** undefined when the request carried no body. */
  json: unknown;
}

const TOO_LARGE = () => new ApiError("invalid_request", `request body exceeds ${MAX_BODY_BYTES} bytes`);

export async function readBody(request: Request): Promise<ParsedBody> {
  const declared = request.headers.get("content-length");
  if (declared && Number(declared) > MAX_BODY_BYTES) {
    await request.body?.cancel().catch(() => undefined);
    throw TOO_LARGE();
  }
  if (!request.body) return { raw: "", json: undefined };
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw TOO_LARGE();
    }
    chunks.push(value);
  }
  if (size === 0) return { raw: "", json: undefined };
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json" && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw new ApiError("invalid_request", "request body must be JSON (Content-Type: application/json)");
  }
  let raw: string;
  try {
    raw = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ApiError("invalid_request", "request body is not valid UTF-8");
  }
  try {
    return { raw, json: JSON.parse(raw) };
  } catch {
    throw new ApiError("invalid_request", "request body is not valid JSON");
  }
}
