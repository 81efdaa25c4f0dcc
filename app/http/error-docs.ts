// What each error code means to a caller; rendered at {docs_url}/api/errors#<code>.
// Keyed by ErrorCode, so adding a code to app/infra/errors.ts without documenting it fails typecheck.
import type { ErrorCode } from "../infra/errors";

export const ERROR_DOCS: Record<ErrorCode, { cause: string; retry: string }> = {
  missing_credential: {
    cause: "No Authorization: Bearer header (Customer API: also no X-Service-Session where a session is required).",
    retry: "Fix the request.",
  },
  invalid_credential: {
    cause:
      "The token resolves to nothing: not a key, truncated, the wrong kind for this API (a publishable key on the Admin API, a secret key on the Storefront or Customer API), or a session that does not verify. The message never says which. Storefront and Customer API: also a valid publishable key sent from an Origin not on the shop's allowlist (the message names the origin; the answer carries no Access-Control-Allow-Origin).",
    retry: "Not retryable.",
  },
  credential_revoked: {
    cause: "The key was revoked, or the app was uninstalled from the shop (which revokes every key; reinstalling does not resurrect them).",
    retry: "Not retryable: mint a new key.",
  },
  credential_expired: {
    cause: "The key is past its expiresAt (expiry cannot be extended), or the customer session is older than 30 minutes.",
    retry: "Not retryable: mint a new key / call POST /session again.",
  },
  shop_unavailable: {
    cause:
      "The shop row says installed but the service no longer holds the shop's access (for example the uninstall notice has not arrived yet). Fails closed.",
    retry: "Retry later; reinstall the app.",
  },
  insufficient_scope: {
    cause: "The key lacks a scope the endpoint requires; the message names it. Scopes match exactly: write never implies read.",
    retry: "Not retryable: mint a key with the scope.",
  },
  forbidden: {
    cause: "Customer API only: the session is valid but the resource belongs to another customer.",
    retry: "Not retryable.",
  },
  plan_upgrade_required: {
    cause: "The shop's plan lacks the Developer API (Pro; development stores also need a paid platform plan). Checked before scopes.",
    retry: "Not retryable until the plan changes.",
  },
  not_found: {
    cause: "No such resource, a resource another app owns, or an unrouted path (including bare /v1). Checked after authentication.",
    retry: "Not retryable.",
  },
  method_not_allowed: {
    cause: "The path exists but does not take this method; the Allow header lists the ones it takes. Checked after authentication.",
    retry: "Not retryable.",
  },
  invalid_request: {
    cause:
      "A malformed parameter or body: the message names the field. Also: body not JSON, Content-Type not application/json, body over 1 MiB, a non-integer or non-positive limit, missing or malformed Idempotency-Key on a write.",
    retry: "Fix the request.",
  },
  export_in_progress: { cause: "The shop already has a queued or running export; the message names the job.", retry: "Retry after that job finishes." },
  state_conflict: {
    cause:
      "The platform refused a write because of the contract's state (already cancelled, nothing to skip, ...). Customer API: an edit of a cancelled or expired contract.",
    retry: "Not retryable as is.",
  },
  idempotency_conflict: {
    cause: "The Idempotency-Key was reused for a different request, or the first request is still in flight.",
    retry: "Never retry blindly.",
  },
  selection_closed: { cause: "Customer API: box pick after the cutoff, or the period's menu is not published yet.", retry: "Retry when editing opens." },
  invalid_cursor: {
    cause: "The cursor does not decode: malformed, altered, or from another list or filter set. Paging never silently restarts.",
    retry: "Restart from the first page.",
  },
  unsupported_api_version: { cause: "Reserved for a future /v2; nothing emits it today.", retry: "Not retryable." },
  rate_limited: {
    cause:
      "The shop's bucket is empty (Admin 60/min burst 120, shared by every key and export jobs; Customer 120/min burst 180; Storefront 300/min burst 600). Retry-After says when a token is back.",
    retry: "Retry after Retry-After seconds.",
  },
  platform_unavailable: {
    cause:
      "Storefront API: the platform did not answer while a selling plan was being resolved live. No stored id is served in its place (a stale id would make the cart line fail at checkout). Carries Retry-After.",
    retry: "Retry after Retry-After seconds.",
  },
  internal_error: {
    cause:
      "An unrecognised server failure, or (Customer API) the platform refused to send the payment-method update e-mail. Only the envelope and request id are returned; quote the request id to support.",
    retry: "Retry with backoff.",
  },
};
