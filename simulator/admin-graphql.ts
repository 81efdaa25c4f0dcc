// POST /shops/<shop>/admin/api/<version>/graphql.json — the Admin GraphQL API for the root
// fields the app uses. Each resolver reads `variables` and answers with Shopify's payload
// shape; refusals are `userErrors { field message code }` in the payload, HTTP 200, as on Shopify.
import type { SimCore } from "./core";
import { parseDocument } from "./graphql-document";
import { numericIdOf, type Failure, type ShopState, type UserError } from "./state";
import {
  commitDraft,
  openDraft,
  ownContract,
  sendPaymentMethodUpdateEmail,
  setMetafields,
  setNextBillingDate,
  setStatus,
  skipBillingCycle,
  updateDraftLine,
  type Outcome,
} from "./store";
import { gqlContract, gqlLine, gqlSellingPlanGroup, gqlShop, gqlVariant } from "./serialize";

export interface HttpAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Hold the answer this long (injected slowness). */
  delayMs?: number;
  /** A non-JSON answer (the admin frame page, the App Bridge stand-in), sent as is. */
  text?: string;
}

type Vars = Record<string, unknown>;
type Resolver = (core: SimCore, shop: ShopState, vars: Vars) => { data: unknown; userErrors: boolean };

const COST = { requestedQueryCost: 12, actualQueryCost: 12, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1988, restoreRate: 100 } };

/** Mutation payload: the named objects on success, nulls + userErrors on refusal. */
function payload<T>(outcome: Outcome<T>, onOk: (v: T) => Record<string, unknown>, nullKeys: string[]) {
  if (outcome.ok) return { ...onOk(outcome.value), userErrors: [] };
  return { ...Object.fromEntries(nullKeys.map((k) => [k, null])), userErrors: outcome.userErrors };
}

function mutation<T>(
  run: (core: SimCore, shop: ShopState, vars: Vars) => Outcome<T>,
  onOk: (v: T, shop: ShopState) => Record<string, unknown>,
  nullKeys: string[],
): Resolver {
  return (core, shop, vars) => {
    const outcome = run(core, shop, vars);
    if (outcome.ok) core.commit(shop, outcome.events);
    return { data: payload(outcome, (v) => onOk(v, shop), nullKeys), userErrors: !outcome.ok };
  };
}

const statusMutation = (target: "PAUSED" | "ACTIVE" | "CANCELLED") =>
  mutation(
    (core, shop, v) => setStatus(shop, v.subscriptionContractId, target, core.now()),
    (c, shop) => ({ contract: gqlContract(shop, c) }),
    ["contract"],
  );

const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === "object" ? (v as Record<string, unknown>) : {});

export const RESOLVERS: Record<string, Resolver> = {
  shop: (_core, shop) => ({ data: gqlShop(shop), userErrors: false }),

  subscriptionContract: (_core, shop, v) => {
    const c = ownContract(shop, v.id);
    return { data: c ? gqlContract(shop, c) : null, userErrors: false };
  },

  subscriptionContracts: (_core, shop, v) => {
    const first = Math.min(Math.max(Number(v.first ?? 50), 1), 250);
    const after = typeof v.after === "string" && v.after ? Number(Buffer.from(v.after, "base64url").toString()) : 0;
    const own = Object.values(shop.contracts)
      .filter((c) => c.app === "self" && numericIdOf(c.id) > after)
      .sort((a, b) => numericIdOf(a.id) - numericIdOf(b.id));
    const page = own.slice(0, first);
    const cursor = (id: string) => Buffer.from(String(numericIdOf(id))).toString("base64url");
    const nodes = page.map((c) => gqlContract(shop, c));
    return {
      data: {
        nodes,
        edges: nodes.map((node) => ({ node, cursor: cursor(node.id) })),
        pageInfo: { hasNextPage: own.length > first, endCursor: page.length ? cursor(page[page.length - 1].id) : null },
      },
      userErrors: false,
    };
  },

  sellingPlanGroup: (_core, shop, v) => {
    const g = typeof v.id === "string" ? shop.sellingPlanGroups[v.id] : undefined;
    if (!g) return { data: null, userErrors: false };
    // The one field with an argument the app reads; arguments come from variables only.
    const variant = typeof v.productVariantId === "string" ? v.productVariantId : null;
    return { data: { ...gqlSellingPlanGroup(g), appliesToProductVariant: variant ? g.variantIds.includes(variant) : null }, userErrors: false };
  },

  productVariant: (_core, shop, v) => {
    const variant = typeof v.id === "string" ? shop.variants[v.id] : undefined;
    return { data: variant ? gqlVariant(shop, variant) : null, userErrors: false };
  },

  nodes: (_core, shop, v) => {
    const ids = Array.isArray(v.ids) ? v.ids : [];
    return {
      data: ids.map((id) => {
        const variant = typeof id === "string" ? shop.variants[id] : undefined;
        if (variant) return gqlVariant(shop, variant);
        const c = ownContract(shop, id);
        return c ? { __typename: "SubscriptionContract", ...gqlContract(shop, c) } : null;
      }),
      userErrors: false,
    };
  },

  subscriptionContractPause: statusMutation("PAUSED"),
  subscriptionContractActivate: statusMutation("ACTIVE"),
  subscriptionContractCancel: statusMutation("CANCELLED"),

  subscriptionContractSetNextBillingDate: mutation(
    (core, shop, v) => setNextBillingDate(shop, v.contractId, v.date, core.now()),
    (c, shop) => ({ contract: gqlContract(shop, c) }),
    ["contract"],
  ),

  subscriptionBillingCycleSkip: mutation(
    (core, shop, v) => {
      const sel = asRecord(v.billingCycleSelector);
      return skipBillingCycle(shop, sel.contractId, asRecord(sel.selector), core.now());
    },
    (cycle) => ({ billingCycle: cycle }),
    ["billingCycle"],
  ),

  subscriptionContractUpdate: mutation(
    (core, shop, v) => openDraft(core.state, shop, v.contractId, core.now()),
    (d) => ({ draft: { id: d.id } }),
    ["draft"],
  ),

  subscriptionDraftLineUpdate: mutation(
    (_core, shop, v) => updateDraftLine(shop, v.draftId, v.lineId, asRecord(v.input)),
    ({ draft, line }, shop) => ({
      draft: { id: draft.id },
      lineUpdated: gqlLine(line, shop.contracts[draft.contractId]?.currencyCode ?? shop.currencyCode),
    }),
    ["draft", "lineUpdated"],
  ),

  subscriptionDraftCommit: mutation(
    (core, shop, v) => commitDraft(shop, v.draftId, core.now()),
    (c, shop) => ({ contract: gqlContract(shop, c) }),
    ["contract"],
  ),

  customerPaymentMethodSendUpdateEmail: mutation(
    (core, shop, v) => sendPaymentMethodUpdateEmail(core.state, shop, v.customerPaymentMethodId, core.now()),
    (customer) => ({ customer: { id: customer.id } }),
    ["customer"],
  ),

  metafieldsSet: mutation(
    (core, shop, v) => setMetafields(core.state, shop, v.metafields, core.now()),
    (metafields) => ({ metafields }),
    ["metafields"],
  ),
};

export const SUPPORTED_OPERATIONS = Object.keys(RESOLVERS);

/** Takes (and consumes) the next injected failure for `operation`, if any. */
export function takeFailure(shop: ShopState, operation: string): Failure | undefined {
  const i = shop.failures.findIndex((f) => f.operation === operation);
  if (i < 0) return undefined;
  const failure = shop.failures[i];
  if ("throttled" in failure && failure.throttled > 1) {
    shop.failures[i] = { ...failure, throttled: failure.throttled - 1 };
    return failure;
  }
  shop.failures.splice(i, 1);
  return failure;
}

const INVALID_TOKEN = { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" };

export function handleAdminGraphql(core: SimCore, shopDomain: string, accessToken: string | undefined, body: unknown): HttpAnswer {
  const shop = core.shop(shopDomain);
  if (!shop || !shop.installation || !accessToken || accessToken !== shop.installation.accessToken) {
    core.record(shop, { api: "admin", operation: "(auth)", variables: {}, outcome: "unauthorized" });
    return { status: 401, body: INVALID_TOKEN };
  }
  const { query, variables } = asRecord(body) as { query?: unknown; variables?: unknown };
  if (typeof query !== "string") return { status: 400, body: { errors: { query: "Required parameter missing or invalid" } } };
  let doc;
  try {
    doc = parseDocument(query);
  } catch (err) {
    return { status: 200, body: { errors: [{ message: (err as Error).message, extensions: { code: "PARSE_ERROR" } }] } };
  }
  const vars = asRecord(variables);

  // Injected failures apply to the whole request, as a real outage or throttle would.
  let delayMs = 0;
  for (const operation of doc.rootFields) {
    const failure = takeFailure(shop, operation);
    if (!failure) continue;
    core.changed();
    if ("delayMs" in failure) {
      delayMs = Math.max(delayMs, failure.delayMs);
      continue;
    }
    if ("status" in failure) {
      core.record(shop, { api: "admin", operation, variables: vars, outcome: "http_error" });
      return { status: failure.status, body: { errors: "Service Unavailable (simulated)" } };
    }
    if ("throttled" in failure) {
      core.record(shop, { api: "admin", operation, variables: vars, outcome: "throttled" });
      return {
        status: 200,
        body: {
          errors: [{ message: "Throttled", extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" } }],
          extensions: { cost: { requestedQueryCost: 12, actualQueryCost: null, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 2, restoreRate: 100 } } },
        },
      };
    }
    core.record(shop, { api: "admin", operation, variables: vars, outcome: "user_errors" });
    return { status: 200, body: { data: { [operation]: injectedUserErrors(operation, failure.userErrors) }, extensions: { cost: COST } } };
  }

  const data: Record<string, unknown> = {};
  for (const operation of doc.rootFields) {
    const resolver = RESOLVERS[operation];
    if (!resolver) {
      const kind = doc.type === "mutation" ? "Mutation" : "QueryRoot";
      return {
        status: 200,
        body: { errors: [{ message: `Field '${operation}' doesn't exist on type '${kind}' (not simulated)`, extensions: { code: "undefinedField" } }] },
      };
    }
    const result = resolver(core, shop, vars);
    data[operation] = result.data;
    core.record(shop, { api: "admin", operation, variables: vars, outcome: result.userErrors ? "user_errors" : "ok" });
  }
  return { status: 200, body: { data, extensions: { cost: COST } }, delayMs };
}

const PAYLOAD_KEYS: Record<string, string[]> = {
  subscriptionContractPause: ["contract"],
  subscriptionContractActivate: ["contract"],
  subscriptionContractCancel: ["contract"],
  subscriptionContractSetNextBillingDate: ["contract"],
  subscriptionBillingCycleSkip: ["billingCycle"],
  subscriptionContractUpdate: ["draft"],
  subscriptionDraftLineUpdate: ["draft", "lineUpdated"],
  subscriptionDraftCommit: ["contract"],
  customerPaymentMethodSendUpdateEmail: ["customer"],
  metafieldsSet: ["metafields"],
};

function injectedUserErrors(operation: string, userErrors: UserError[]) {
  const keys = PAYLOAD_KEYS[operation];
  // An injected "failure" of a query has no userErrors slot: it answers null, like not found.
  if (!keys) return null;
  return { ...Object.fromEntries(keys.map((k) => [k, null])), userErrors };
}
