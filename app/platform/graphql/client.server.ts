// The one place that speaks HTTP to Shopify's Admin GraphQL API. It uses the global fetch, so
// when app/platform/routing.server.ts is installed the very same request lands on the simulator.
import { SHOPIFY_API_VERSION } from "../api-version";
import { PlatformError } from "../errors";
import { sleep } from "../../infra/async";

export interface GraphqlError {
  message: string;
  extensions?: { code?: string; [k: string]: unknown };
}

interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

interface GraphqlResponse<T> {
  data?: T | null;
  errors?: GraphqlError[];
  extensions?: { cost?: { requestedQueryCost?: number; throttleStatus?: ThrottleStatus } };
}

export interface ClientOptions {
  /** Attempts in all when Shopify answers THROTTLED (and for queries, 5xx / network). */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

const DEFAULTS: Required<ClientOptions> = { maxAttempts: 5, baseDelayMs: 200, maxDelayMs: 5_000 };

// No call waits on Shopify longer than this: a write's idempotency lease (docs/decisions/035)
// must outlast every call a write makes, so none may hang without bound.
const REQUEST_TIMEOUT_MS = 30_000;

const isMutation = (operation: string) => /^\s*(#[^\n]*\n\s*)*mutation\b/.test(operation);

/** How long to wait before retrying a throttled request: what the bucket needs, else back-off. */
export function throttleDelay(attempt: number, body: GraphqlResponse<unknown>, opts: Required<ClientOptions>): number {
  const backoff = opts.baseDelayMs * 2 ** attempt;
  const cost = body.extensions?.cost;
  const status = cost?.throttleStatus;
  if (status && status.restoreRate > 0) {
    const needed = Math.max(0, (cost?.requestedQueryCost ?? 0) - status.currentlyAvailable);
    return Math.min(opts.maxDelayMs, Math.max(Math.ceil((needed / status.restoreRate) * 1000), opts.baseDelayMs));
  }
  return Math.min(opts.maxDelayMs, backoff);
}

/**
 * POSTs one operation and returns its `data`. Throws PlatformError:
 * 401/403 → shop_unavailable (token revoked, app uninstalled); other non-2xx, network failures
 * and GraphQL top-level errors → unavailable. Mutations are never retried after a 5xx or a
 * network error, since they may have been applied; THROTTLED is safe to retry because Shopify
 * refused it before running anything.
 */
export async function adminGraphql<T>(
  shop: string,
  accessToken: string,
  operation: string,
  variables: Record<string, unknown> = {},
  options: ClientOptions = {},
): Promise<T> {
  const opts = { ...DEFAULTS, ...options };
  const url = `https://${shop}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`;
  const retryTransport = !isMutation(operation);

  for (let attempt = 0; ; attempt++) {
    const last = attempt + 1 >= opts.maxAttempts;
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-Shopify-Access-Token": accessToken },
        body: JSON.stringify({ query: operation, variables }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (cause) {
      if (retryTransport && !last) {
        await sleep(Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** attempt));
        continue;
      }
      throw new PlatformError("unavailable", `Shopify could not be reached (${shop})`, { cause });
    }

    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      throw new PlatformError("shop_unavailable", `Shopify refused the access token for ${shop} (HTTP ${response.status})`);
    }
    if (response.status >= 500 && retryTransport && !last) {
      await response.body?.cancel();
      await sleep(Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** attempt));
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new PlatformError("unavailable", `Shopify answered HTTP ${response.status} for ${shop}`, { code: `HTTP_${response.status}` });
    }

    let body: GraphqlResponse<T>;
    try {
      body = (await response.json()) as GraphqlResponse<T>;
    } catch (cause) {
      throw new PlatformError("unavailable", "Shopify answered with a body that is not JSON", { cause });
    }

    const errors = body.errors ?? [];
    if (errors.some((e) => e.extensions?.code === "THROTTLED")) {
      if (last) throw new PlatformError("unavailable", `Shopify kept throttling after ${opts.maxAttempts} attempts`, { code: "THROTTLED" });
      await sleep(throttleDelay(attempt, body, opts));
      continue;
    }
    if (errors.length > 0) {
      const code = errors[0]?.extensions?.code;
      throw new PlatformError("unavailable", `Shopify GraphQL error: ${errors.map((e) => e.message).join("; ")}`, {
        code: typeof code === "string" ? code : undefined,
      });
    }
    if (body.data == null) throw new PlatformError("unavailable", "Shopify answered without data");
    return body.data;
  }
}
