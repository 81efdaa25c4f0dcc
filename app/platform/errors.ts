// Every failure of a platform call becomes one PlatformError. The mapping from Shopify's
// `userErrors` is mechanical so no caller has to guess: an error that names an input `field`
// is the caller's bad input (invalid_request); one without a field is about the state of the
// thing on Shopify's side (state_conflict), e.g. cancelling an already cancelled contract.
import type { ErrorCode } from "../infra/errors";

export type PlatformErrorKind = "invalid_request" | "state_conflict" | "unavailable" | "shop_unavailable";

export interface ShopifyUserError {
  field?: string[] | null;
  message: string;
  code?: string | null;
}

export class PlatformError extends Error {
  readonly kind: PlatformErrorKind;
  readonly field?: string[];
  readonly code?: string;

  constructor(kind: PlatformErrorKind, message: string, opts: { field?: string[]; code?: string; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "PlatformError";
    this.kind = kind;
    if (opts.field) this.field = opts.field;
    if (opts.code) this.code = opts.code;
  }
}

export function isPlatformError(err: unknown): err is PlatformError {
  return err instanceof PlatformError;
}

/** The first userError as a PlatformError (Shopify lists the most relevant one first). */
export function fromUserErrors(errors: readonly ShopifyUserError[]): PlatformError {
  const first = errors[0] ?? { message: "Shopify refused the request" };
  const field = first.field && first.field.length > 0 ? [...first.field] : undefined;
  const message = errors.map((e) => e.message).join("; ") || first.message;
  return new PlatformError(field ? "invalid_request" : "state_conflict", message, {
    field,
    code: first.code ?? undefined,
  });
}

/** Throws when a mutation payload carries userErrors; the one place that rule lives. */
export function assertNoUserErrors(errors: readonly ShopifyUserError[] | null | undefined): void {
  if (errors && errors.length > 0) throw fromUserErrors(errors);
}

const API_CODES: Record<PlatformErrorKind, ErrorCode> = {
  invalid_request: "invalid_request",
  state_conflict: "state_conflict",
  shop_unavailable: "shop_unavailable",
  // Shopify being down is our failure from the API user's point of view.
  unavailable: "internal_error",
};

/** The code of app/infra/errors.ts a route should answer with for this platform failure. */
export function toApiErrorCode(err: PlatformError): ErrorCode {
  return API_CODES[err.kind];
}
