// The one place that speaks HTTP to Shopify's Admin GraphQL API. It uses the global fetch, so
// when app/platform/routing.server.ts is installed the very same request lands on the simulator.
import { SHOPIFY_API_VERSION } from "../api-version";
import { PlatformError } from "../errors";
import { sleep } from "../../infra/async";
import { shopBudget, type CallPriority, type ShopBudget } from "../budget.server";

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
  extensions?: { cost?: { requestedQueryCost?: number; actualQueryCost?: number | null; throttleStatus?: ThrottleStatus } };
}

export interface ClientOptions {
  /** Attempts in all when Shopify answers THROTTLED (and for queries, 5xx / network). */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Whose turn it is at the shop's shared budget (docs/decisions/096-shop-budget.md). */
  priority?: CallPriority;
  /** The shop's budget; null calls Shopify unbudgeted (a tool that owns the bucket alone). */
  budget?: ShopBudget | null;
}

type Settings = Required<Omit<ClientOptions, "budget">> & { budget: ShopBudget | null };
const DEFAULTS = { maxAttempts: 5, baseDelayMs: 200, maxDelayMs: 5_000, priority: "interactive" as CallPriority };

/**
 * What a document is expected to cost before it is sent: what Shopify last asked for it in
 * this process (its requestedQueryCost), else a guess (a mutation 10, a query 50) that the first
 * answer corrects. Charging the budget the requested cost is what Shopify does (docs/decisions/096).
 */
const expectedCost = new Map<string, number>();
const EXPECTED_MAX = 500;
function costOf(operation: string, variables: Record<string, unknown>): { key: string; cost: number } {
  const size = variables.first ?? variables.last;
  const key = typeof size === "number" ? `${size}\u0000${operation}` : operation;
  return { key, cost: expectedCost.get(key) ?? (isMutation(operation) ? 10 : 50) };
}
function learnCost(key: string, requested: number | undefined): void {
  if (typeof requested !== "number") return;
  if (!expectedCost.has(key) && expectedCost.size >= EXPECTED_MAX) expectedCost.delete(expectedCost.keys().next().value!);
  expectedCost.set(key, requested);
}

// No call waits on Shopify longer than this: a write's idempotency lease (docs/decisions/035)
// must outlast every call a write makes, so none may hang without bound.
const REQUEST_TIMEOUT_MS = 30_000;

const isMutation = (operation: string) => /^\s*(#[^\n]*\n\s*)*mutation\b/.test(operation);

/** How long to wait before retrying a throttled request: what the bucket needs, else back-off. */
export function throttleDelay(attempt: number, body: GraphqlResponse<unknown>, opts: Pick<Settings, "baseDelayMs" | "maxDelayMs">): number {
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
  const opts: Settings = { ...DEFAULTS, ...options, budget: options.budget === undefined ? shopBudget() : options.budget };
  const url = `https://${shop}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`;
  const retryTransport = !isMutation(operation);

  for (let attempt = 0; ; attempt++) {
    const last = attempt + 1 >= opts.maxAttempts;
    // Wait for the shop's budget first: the points are taken here, before Shopify takes them.
    const { key: costKey, cost } = costOf(operation, variables);
    const ticket = await opts.budget?.acquire(shop, cost, opts.priority);
    let settled = false;
    const settle = (body?: GraphqlResponse<unknown>) => {
      if (settled) return;
      settled = true;
      const answered = body?.extensions?.cost;
      learnCost(costKey, answered?.requestedQueryCost);
      return opts.budget?.settle(shop, cost, answered?.actualQueryCost ?? null, answered?.throttleStatus, ticket);
    };
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-Shopify-Access-Token": accessToken },
        body: JSON.stringify({ query: operation, variables }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (cause) {
      await settle();
      if (retryTransport && !last) {
        await sleep(Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** attempt));
        continue;
      }
      throw new PlatformError("unavailable", `Shopify could not be reached (${shop})`, { cause });
    }

    if (!response.ok) await settle();
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
      await settle();
      throw new PlatformError("unavailable", "Shopify answered with a body that is not JSON", { cause });
    }
    await settle(body);

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
