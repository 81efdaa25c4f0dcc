// The one error vocabulary of every HTTP surface (/docs/api/errors, one section per code). Add-only.
export const ERROR_CODES = {
  missing_credential: 401,
  invalid_credential: 401,
  credential_revoked: 401,
  credential_expired: 401,
  shop_unavailable: 401,
  insufficient_scope: 403,
  forbidden: 403,
  plan_upgrade_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  invalid_request: 400,
  export_in_progress: 409,
  state_conflict: 409,
  idempotency_conflict: 409,
  selection_closed: 409,
  invalid_cursor: 400,
  unsupported_api_version: 404,
  rate_limited: 429,
  internal_error: 500,
  platform_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Thrown anywhere below a route; the kernel turns it into the error envelope. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERROR_CODES[code];
  }
}
