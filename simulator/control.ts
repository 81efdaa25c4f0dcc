// The control API under /_sim/: how developers, tests and the seed script set up and inspect
// the simulated Shopify. Documented with examples in docs/simulator.md. JSON in, JSON out.
import { isEnumType } from "graphql";
import { z } from "zod";
import type { SimCore } from "./core";
import { SHOPIFY_API_VERSION } from "../app/platform/api-version";
import { SUPPORTED_OPERATIONS } from "./admin-resolvers";
import { userErrorCodes } from "./graphql-exec";
import { adminSchema } from "./schema";
import { mintSessionToken } from "./jwt";
import {
  contractPayload,
  customersDataRequestPayload,
  customersRedactPayload,
  paymentMethodPayload,
  sellingPlanGroupPayload,
  shopPayload,
  shopRedactPayload,
} from "./payloads";
import { numericIdOf, type Contract, type Failure, type ShopState, type SimEvent } from "./state";
import { createContract } from "./store/contracts";
import { createCustomer, findPaymentMethod, mintCustomerAccessToken } from "./store/customers";
import { createSellingPlanGroup, updateSellingPlanGroup } from "./store/selling-plans";
import { createProduct, installShop } from "./store/shops";
import { STOREFRONT_CONTROL_ROUTES } from "./control-storefront";
import { RATE_LIMIT_CONTROL_ROUTES } from "./control-rate-limit";
import { FLOW_CONTROL_ROUTES } from "./flow";
import type { HttpAnswer } from "./http-answer";

const Interval = z.enum(["DAY", "WEEK", "MONTH", "YEAR"]);
const Status = z.enum(["ACTIVE", "PAUSED", "CANCELLED", "EXPIRED", "FAILED", "STALE"]);
const App = z.enum(["self", "other"]);
const Anchor = z.object({ day: z.number().int(), month: z.number().int().nullable().default(null), type: z.enum(["WEEKDAY", "MONTHDAY", "YEARDAY"]) });
const ShopDomain = z.string().regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/, "must look like <name>.myshopify.com");

const ShopBody = z.object({
  shop: ShopDomain,
  name: z.string().optional(),
  email: z.string().optional(),
  currencyCode: z.string().length(3).optional(),
  ianaTimezone: z.string().min(1).optional(),
  plan: z.string().optional(),
  partnerDevelopment: z.boolean().optional(),
  shopifyPlus: z.boolean().optional(),
  accessToken: z.string().min(8).optional(),
  scope: z.string().optional(),
});

const ProductBody = z.object({
  title: z.string().min(1),
  imageUrl: z.string().nullable().optional(),
  variants: z
    .array(
      z.object({
        title: z.string().optional(),
        price: z.string().optional(),
        sku: z.string().nullable().optional(),
        available: z.boolean().optional(),
        imageUrl: z.string().nullable().optional(),
      }),
    )
    .optional(),
});

const SellingPlanGroupBody = z.object({
  name: z.string().min(1),
  merchantCode: z.string().optional(),
  app: App.optional(),
  plans: z.array(z.object({ name: z.string().min(1), interval: Interval.optional(), intervalCount: z.number().int().min(1).optional() })).min(1),
  variantIds: z.array(z.string()).optional(),
});

const SellingPlanGroupPatchBody = SellingPlanGroupBody.pick({ name: true, plans: true, variantIds: true })
  .partial()
  .extend({ webhooks: z.boolean().optional() });

// What a billing attempt on the method does: succeed, decline with one of Shopify's
// SubscriptionBillingAttemptErrorCode values, or ask for 3-D Secure ("authenticate").
const PaymentBehaviorBody = z
  .string()
  .refine(
    (v) => v === "succeed" || v === "authenticate" || billingErrorCodes().includes(v),
    "must be succeed, authenticate or a SubscriptionBillingAttemptErrorCode (CARD_DECLINED, INSUFFICIENT_FUNDS, EXPIRED_PAYMENT_METHOD, ...)",
  );
const billing = { billing: PaymentBehaviorBody.optional() };
const PaymentMethodBody = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("credit_card"),
    brand: z.string().default("visa"),
    last4: z.string().default("4242"),
    expiryMonth: z.number().int().default(12),
    expiryYear: z.number().int().default(2030),
    ...billing,
  }),
  z.object({
    kind: z.literal("shop_pay"),
    last4: z.string().default("4242"),
    expiryMonth: z.number().int().default(12),
    expiryYear: z.number().int().default(2030),
    ...billing,
  }),
  z.object({ kind: z.literal("paypal"), paypalEmail: z.string().default("buyer@example.com"), ...billing }),
]);

function billingErrorCodes(): string[] {
  const type = adminSchema().getType("SubscriptionBillingAttemptErrorCode");
  return isEnumType(type) ? type.getValues().map((v) => v.name) : [];
}

const CustomerBody = z.object({
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  email: z.string().nullable().optional(),
  phone: z.string().nullable().optional(),
  marketingState: z.enum(["INVALID", "NOT_SUBSCRIBED", "PENDING", "SUBSCRIBED", "UNSUBSCRIBED"]).optional(),
  address: z.object({ address1: z.string(), city: z.string(), province: z.string().nullable(), country: z.string(), zip: z.string() }).nullable().optional(),
  paymentMethod: PaymentMethodBody.nullable().optional(),
});

const ContractBody = z.object({
  customerId: z.string().optional(),
  app: App.optional(),
  status: Status.optional(),
  currencyCode: z.string().length(3).optional(),
  createdAt: z.iso.datetime().optional(),
  /** History for seeding: when the contract last changed (an ended one: when it ended). Default createdAt. */
  updatedAt: z.iso.datetime().optional(),
  nextBillingDate: z.iso.datetime().optional(),
  originOrderName: z.string().nullable().optional(),
  paymentMethodId: z.string().nullable().optional(),
  billingPolicy: z
    .object({
      interval: Interval.optional(),
      intervalCount: z.number().int().min(1).optional(),
      anchors: z.array(Anchor).optional(),
      minCycles: z.number().int().nullable().optional(),
      maxCycles: z.number().int().nullable().optional(),
    })
    .optional(),
  deliveryPolicy: z
    .object({ interval: Interval.optional(), intervalCount: z.number().int().min(1).optional(), anchors: z.array(Anchor).optional() })
    .optional(),
  lines: z
    .array(
      z.object({
        variantId: z.string().optional(),
        quantity: z.number().int().min(1).optional(),
        price: z.string().optional(),
        sellingPlanId: z.string().nullable().optional(),
        customAttributes: z.array(z.object({ key: z.string().min(1), value: z.string() })).optional(),
      }),
    )
    .optional(),
  webhooks: z.boolean().optional(),
});

const BulkBody = z.object({
  contracts: z.array(ContractBody).optional(),
  /** Or: `count` copies of `template` (each with a fresh customer unless template.customerId). */
  count: z.number().int().min(1).max(100_000).optional(),
  template: ContractBody.optional(),
  webhooks: z.boolean().default(false),
});

const ContractPatchBody = z.object({ status: Status.optional(), nextBillingDate: z.iso.datetime().optional(), webhooks: z.boolean().default(true) });

const UserErrorBody = z.object({ field: z.array(z.string()).nullable().default(null), message: z.string(), code: z.string().nullable().default(null) });
const FailureBody = z.union([
  z.object({ operation: z.string(), userErrors: z.array(UserErrorBody).min(1) }),
  z.object({ operation: z.string(), status: z.number().int().min(400).max(599) }),
  z.object({ operation: z.string(), throttled: z.number().int().min(1).max(100) }),
  z.object({ operation: z.string(), delayMs: z.number().int().min(1).max(60_000) }),
  z.object({ operation: z.string(), webhooksLost: z.literal(true) }),
]);

const WebhookBody = z.object({
  topic: z.string(),
  contractId: z.string().optional(),
  customerId: z.string().optional(),
  sellingPlanGroupId: z.string().optional(),
});

const TokenBody = z.object({ customerId: z.string(), ttlSeconds: z.number().int().min(1).optional() });

class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body ?? {});
  if (!r.success) throw new ControlError(400, r.error.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`).join("; "));
  return r.data;
}

const toGid = (type: string, idOrGid: string) => (idOrGid.startsWith("gid://") ? idOrGid : `gid://shopify/${type}/${idOrGid}`);

function requireShop(core: SimCore, domain: string): ShopState {
  const shop = core.shop(domain);
  if (!shop) throw new ControlError(404, `Shop ${domain} does not exist (POST /_sim/shops first)`);
  return shop;
}

function requireContract(shop: ShopState, id: string): Contract {
  const c = shop.contracts[toGid("SubscriptionContract", id)];
  if (!c) throw new ControlError(404, `Contract ${id} does not exist`);
  return c;
}

/**
 * An injected failure names a root field of Shopify's Admin API, and injected userErrors carry
 * codes that field's payload can carry: a test cannot rehearse an answer Shopify cannot give.
 */
function checkFailure(failure: Failure): Failure {
  const schema = adminSchema();
  const op = failure.operation;
  if (!schema.getQueryType()?.getFields()[op] && !schema.getMutationType()?.getFields()[op]) {
    throw new ControlError(400, `operation: ${op} is not a root field of Shopify's Admin API ${SHOPIFY_API_VERSION}`);
  }
  if ("userErrors" in failure) {
    const codes = userErrorCodes(schema, op);
    for (const e of failure.userErrors) {
      if (codes && e.code !== null && !codes.includes(e.code)) {
        throw new ControlError(400, `userErrors: code ${e.code} is not one ${op} can answer (${codes.join(", ")})`);
      }
    }
  }
  return failure;
}

const shopSummary = (s: ShopState) => ({
  shop: s.domain,
  numericId: s.numericId,
  shopGid: `gid://shopify/Shop/${s.numericId}`,
  name: s.name,
  currencyCode: s.currencyCode,
  plan: s.plan,
  installed: s.installation !== null,
  accessToken: s.installation?.accessToken ?? null,
  scope: s.installation?.scope ?? null,
  counts: {
    products: Object.keys(s.products).length,
    customers: Object.keys(s.customers).length,
    contracts: Object.keys(s.contracts).length,
    sellingPlanGroups: Object.keys(s.sellingPlanGroups).length,
  },
});

type Handler = (core: SimCore, params: string[], body: unknown, query: URLSearchParams) => unknown | Promise<unknown>;

const ROUTES: [string, RegExp, Handler][] = [
  ["GET", /^\/_sim\/health$/, () => ({ ok: true, operations: SUPPORTED_OPERATIONS })],
  // The app's Flow triggers as the simulator read them from the extensions folder (simulator/flow.ts).
  ["GET", /^\/_sim\/flow-triggers$/, (core) => [...core.flowTriggers.values()]],
  ["POST", /^\/_sim\/reset$/, (core) => (core.reset(), { ok: true })],
  ["POST", /^\/_sim\/idle$/, async (core) => (await core.dispatcher?.idle(), { ok: true })],
  ["GET", /^\/_sim\/shops$/, (core) => Object.values(core.state.shops).map(shopSummary)],
  [
    "POST",
    /^\/_sim\/shops$/,
    (core, _p, body) => {
      const shop = installShop(core.state, parse(ShopBody, body), core.now());
      core.changed();
      return shopSummary(shop);
    },
  ],
  ["GET", /^\/_sim\/shops\/([^/]+)$/, (core, [d]) => shopSummary(requireShop(core, d))],
  [
    "POST",
    /^\/_sim\/shops\/([^/]+)\/uninstall$/,
    (core, [d]) => {
      const shop = requireShop(core, d);
      const wasInstalled = shop.installation !== null;
      shop.installation = null;
      // Shopify sends app/uninstalled after revoking the token; the app must not need it.
      if (wasInstalled) core.dispatcher?.send(shop, "app/uninstalled", shopPayload(shop));
      core.changed();
      return { ok: true, webhookSent: wasInstalled };
    },
  ],
  [
    "POST",
    /^\/_sim\/shops\/([^/]+)\/session-token$/,
    (core, [d], body) => {
      requireShop(core, d);
      const userId = z.object({ userId: z.number().int().optional() }).parse(body ?? {}).userId;
      return { token: mintSessionToken({ shop: d, apiKey: core.config.apiKey, apiSecret: core.config.apiSecret, userId, now: core.now() }) };
    },
  ],
  [
    "POST",
    /^\/_sim\/shops\/([^/]+)\/products$/,
    (core, [d], body) => {
      const product = createProduct(core.state, requireShop(core, d), parse(ProductBody, body));
      core.changed();
      return product;
    },
  ],
  [
    "POST",
    /^\/_sim\/shops\/([^/]+)\/selling-plan-groups$/,
    (core, [d], body) => {
      const shop = requireShop(core, d);
      const input = parse(SellingPlanGroupBody, body);
      const unknown = (input.variantIds ?? []).filter((id) => !shop.variants[id]);
      if (unknown.length) throw new ControlError(400, `Unknown variants: ${unknown.join(", ")}`);
      const group = createSellingPlanGroup(core.state, shop, input);
      core.changed();
      return group;
    },
  ],
  [
    "PATCH",
    /^\/_sim\/shops\/([^/]+)\/selling-plan-groups\/([^/]+)$/,
    (core, [d, id], body) => {
      // A merchant's edit in Shopify admin: sends selling_plan_groups/update (this app's groups).
      const shop = requireShop(core, d);
      const { webhooks, ...patch } = parse(SellingPlanGroupPatchBody, body);
      const outcome = updateSellingPlanGroup(core.state, shop, toGid("SellingPlanGroup", id), patch);
      if (!outcome.ok) throw new ControlError(outcome.userErrors[0].field?.[0] === "id" ? 404 : 400, outcome.userErrors.map((e) => e.message).join("; "));
      core.commit(shop, outcome.events, webhooks ?? true);
      return outcome.value;
    },
  ],
  [
    "POST",
    /^\/_sim\/shops\/([^/]+)\/customers$/,
    (core, [d], body) => {
      const customer = createCustomer(core.state, requireShop(core, d), parse(CustomerBody, body));
      core.changed();
      return customer;
    },
  ],
  [
    "POST",
    /^\/_sim\/shops\/([^/]+)\/payment-methods\/([^/]+)\/revoke$/,
    (core, [d, id]) => {
      // The customer (or the merchant) removed a vaulted method in Shopify: it stays readable
      // with showRevoked, and contracts can no longer use it.
      const found = findPaymentMethod(requireShop(core, d), toGid("CustomerPaymentMethod", id));
      if (!found) throw new ControlError(404, "No such payment method");
      found.method.revokedAt ??= core.now().toISOString();
      core.changed();
      return found.method;
    },
  ],
  [
    "POST",
    /^\/_sim\/shops\/([^/]+)\/contracts$/,
    (core, [d], body) => {
      const shop = requireShop(core, d);
      const { webhooks, ...input } = parse(ContractBody, body);
      const outcome = createContract(core.state, shop, input, core.now());
      if (!outcome.ok) throw new ControlError(400, outcome.userErrors.map((e) => e.message).join("; "));
      core.commit(shop, outcome.events, webhooks ?? true);
      return outcome.value;
    },
  ],
  [
    "POST",
    /^\/_sim\/shops\/([^/]+)\/contracts\/bulk$/,
    (core, [d], body) => {
      const shop = requireShop(core, d);
      const input = parse(BulkBody, body);
      const inputs = input.contracts ?? Array.from({ length: input.count ?? 0 }, () => input.template ?? {});
      const ids: string[] = [];
      const events: SimEvent[] = [];
      for (const [i, raw] of inputs.entries()) {
        const { webhooks: _ignored, ...one } = raw;
        const outcome = createContract(core.state, shop, one, core.now());
        if (!outcome.ok)
          throw new ControlError(400, `contracts[${i}]: ${outcome.userErrors.map((e) => e.message).join("; ")} (${ids.length} created before it)`);
        ids.push(outcome.value.id);
        events.push(...outcome.events);
      }
      core.commit(shop, events, input.webhooks);
      return { count: ids.length, ids };
    },
  ],
  ["GET", /^\/_sim\/shops\/([^/]+)\/contracts$/, (core, [d]) => Object.values(requireShop(core, d).contracts)],
  ["GET", /^\/_sim\/shops\/([^/]+)\/contracts\/([^/]+)$/, (core, [d, id]) => requireContract(requireShop(core, d), id)],
  [
    "PATCH",
    /^\/_sim\/shops\/([^/]+)\/contracts\/([^/]+)$/,
    (core, [d, id], body) => {
      // Changes made "in Shopify admin" or by billing (e.g. FAILED, EXPIRED): no API checks.
      const shop = requireShop(core, d);
      const c = requireContract(shop, id);
      const patch = parse(ContractPatchBody, body);
      if (patch.status) c.status = patch.status;
      if (patch.nextBillingDate) c.nextBillingDate = patch.nextBillingDate;
      c.revisionId += 1;
      c.updatedAt = core.now().toISOString();
      core.commit(shop, [{ topic: "subscription_contracts/update", payload: contractPayload(c), app: c.app }], patch.webhooks);
      return c;
    },
  ],
  [
    "POST",
    /^\/_sim\/shops\/([^/]+)\/failures$/,
    (core, [d], body) => {
      const shop = requireShop(core, d);
      const failure = checkFailure(parse(FailureBody, body));
      shop.failures.push(failure);
      core.changed();
      return { ok: true, pending: shop.failures };
    },
  ],
  ["GET", /^\/_sim\/shops\/([^/]+)\/failures$/, (core, [d]) => requireShop(core, d).failures],
  [
    "DELETE",
    /^\/_sim\/shops\/([^/]+)\/failures$/,
    (core, [d]) => {
      requireShop(core, d).failures = [];
      core.changed();
      return { ok: true };
    },
  ],
  [
    "POST",
    /^\/_sim\/shops\/([^/]+)\/webhooks$/,
    (core, [d], body) => {
      const shop = requireShop(core, d);
      const { topic, contractId, customerId, sellingPlanGroupId } = parse(WebhookBody, body);
      let payload: unknown;
      if (topic.startsWith("subscription_contracts/")) {
        if (!contractId) throw new ControlError(400, "contractId is required for subscription_contracts/* topics");
        const c = requireContract(shop, contractId);
        if (c.app !== "self") throw new ControlError(400, "Webhooks about another app's contract are never sent to this app");
        payload = contractPayload(c);
      } else if (topic === "selling_plan_groups/update") {
        const group = sellingPlanGroupId ? shop.sellingPlanGroups[toGid("SellingPlanGroup", sellingPlanGroupId)] : undefined;
        if (!group) throw new ControlError(400, "sellingPlanGroupId of an existing selling plan group is required");
        if (group.app !== "self") throw new ControlError(400, "Webhooks about another app's selling plan group are never sent to this app");
        payload = sellingPlanGroupPayload(shop, group);
      } else if (topic === "app/uninstalled") payload = shopPayload(shop);
      else if (topic === "shop/redact") payload = shopRedactPayload(shop);
      else if (topic === "customers/redact" || topic === "customers/data_request") {
        const customer = customerId ? shop.customers[toGid("Customer", customerId)] : undefined;
        if (!customer) throw new ControlError(400, "customerId of an existing customer is required");
        const orders = Object.values(shop.contracts)
          .filter((c) => c.customerId === customer.id && c.originOrder)
          .map((c) => numericIdOf(c.originOrder!.id));
        payload =
          topic === "customers/redact"
            ? customersRedactPayload(shop, customer, orders)
            : customersDataRequestPayload(shop, customer, orders, Math.floor(Math.random() * 1e9));
      } else throw new ControlError(400, `Topic ${topic} is not simulated`);
      const delivery = core.dispatcher?.send(shop, topic, payload) ?? null;
      if (!delivery) throw new ControlError(400, `The app does not subscribe to ${topic} in shopify.app.toml`);
      core.changed();
      return { delivery, payload };
    },
  ],
  ["GET", /^\/_sim\/shops\/([^/]+)\/webhook-deliveries$/, (core, [d]) => requireShop(core, d).deliveries],
  [
    "POST",
    /^\/_sim\/shops\/([^/]+)\/customer-access-tokens$/,
    (core, [d], body) => {
      const shop = requireShop(core, d);
      const { customerId, ttlSeconds } = parse(TokenBody, body);
      const id = toGid("Customer", customerId);
      const token = mintCustomerAccessToken(shop, id, core.now(), ttlSeconds);
      if (!token) throw new ControlError(404, `Customer ${customerId} does not exist`);
      core.changed();
      return { accessToken: token, customerId: id, expiresAt: shop.customerAccessTokens[token].expiresAt };
    },
  ],
  ["GET", /^\/_sim\/shops\/([^/]+)\/emails$/, (core, [d]) => requireShop(core, d).emails],
  ["GET", /^\/_sim\/shops\/([^/]+)\/metafields$/, (core, [d]) => Object.values(requireShop(core, d).metafields)],
  [
    "GET",
    /^\/_sim\/shops\/([^/]+)\/products$/,
    (core, [d]) => {
      const shop = requireShop(core, d);
      return Object.values(shop.products).map((p) => ({ ...p, variants: p.variantIds.map((id) => shop.variants[id]) }));
    },
  ],
  [
    "PATCH",
    /^\/_sim\/shops\/([^/]+)\/payment-methods\/([^/]+)$/,
    (core, [d, id], body) => {
      // The customer's card starts declining, or is replaced by one that works (dunning tests); or
      // its expiry moves (a card updater, the customer's new card): Shopify then sends
      // customer_payment_methods/update.
      const shop = requireShop(core, d);
      const input = parse(
        z
          .object({
            billing: PaymentBehaviorBody.optional(),
            expiryMonth: z.number().int().min(1).max(12).optional(),
            expiryYear: z.number().int().min(2000).optional(),
          })
          .refine((b) => b.billing !== undefined || b.expiryMonth !== undefined || b.expiryYear !== undefined, "give billing, expiryMonth or expiryYear"),
        body,
      );
      const found = findPaymentMethod(shop, toGid("CustomerPaymentMethod", id));
      if (!found) throw new ControlError(404, `Payment method ${id} does not exist`);
      const { customer, method } = found;
      if (input.billing !== undefined) method.billing = input.billing;
      if (input.expiryMonth === undefined && input.expiryYear === undefined) {
        core.changed();
        return method;
      }
      if (method.kind !== "credit_card" && method.kind !== "shop_pay") throw new ControlError(400, `A ${method.kind} payment method has no expiry`);
      method.expiryMonth = input.expiryMonth ?? method.expiryMonth;
      method.expiryYear = input.expiryYear ?? method.expiryYear;
      core.commit(shop, [{ topic: "customer_payment_methods/update", payload: paymentMethodPayload(customer, method), app: "self" }]);
      return method;
    },
  ],
  ["GET", /^\/_sim\/shops\/([^/]+)\/billing-attempts$/, (core, [d]) => Object.values(requireShop(core, d).billingAttempts ?? {})],
  ["GET", /^\/_sim\/shops\/([^/]+)\/customers$/, (core, [d]) => Object.values(requireShop(core, d).customers)],
  ["GET", /^\/_sim\/shops\/([^/]+)\/discounts$/, (core, [d]) => Object.values(requireShop(core, d).discounts ?? {})],
  ["GET", /^\/_sim\/shops\/([^/]+)\/selling-plan-groups$/, (core, [d]) => Object.values(requireShop(core, d).sellingPlanGroups)],
  [
    "GET",
    /^\/_sim\/shops\/([^/]+)\/operations$/,
    (core, [d], _b, q) =>
      requireShop(core, d).operations.filter(
        (o) => (!q.get("operation") || o.operation === q.get("operation")) && (!q.get("outcome") || o.outcome === q.get("outcome")),
      ),
  ],
];

export async function handleControl(core: SimCore, method: string, path: string, query: URLSearchParams, body: unknown): Promise<HttpAnswer> {
  const flow = FLOW_CONTROL_ROUTES.find(([m, re]) => m === method && re.test(path));
  if (flow) {
    const run: Handler = (c, [d], b, q) => flow[2](c, requireShop(c, d), b, q);
    return handleControlRoute(core, [method, flow[1], run], path, query, body);
  }
  const extra = [...STOREFRONT_CONTROL_ROUTES, ...RATE_LIMIT_CONTROL_ROUTES].find(([m, re]) => m === method && re.test(path));
  if (extra) {
    const run: Handler = (c, [d], b) => extra[2](c, requireShop(c, d), b);
    return handleControlRoute(core, [method, extra[1], run], path, query, body);
  }
  const matching = ROUTES.filter(([, re]) => re.test(path));
  if (matching.length === 0) return { status: 404, body: { error: `No control endpoint ${path}` } };
  const route = matching.find(([m]) => m === method);
  if (!route) return { status: 405, body: { error: `Use ${matching.map(([m]) => m).join(" or ")} for ${path}` } };
  return handleControlRoute(core, route, path, query, body);
}

async function handleControlRoute(core: SimCore, route: [string, RegExp, Handler], path: string, query: URLSearchParams, body: unknown): Promise<HttpAnswer> {
  const params = (route[1].exec(path) ?? []).slice(1).map(decodeURIComponent);
  try {
    return { status: 200, body: await route[2](core, params, body, query) };
  } catch (err) {
    if (err instanceof ControlError) return { status: err.status, body: { error: err.message } };
    if (err instanceof z.ZodError) return { status: 400, body: { error: err.message } };
    throw err;
  }
}
