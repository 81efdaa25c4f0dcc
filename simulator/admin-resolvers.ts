// The Admin GraphQL API's root fields the simulator answers: one resolver per Shopify root field,
// over the store. graphql-js has already checked the document against Shopify's schema, so a
// resolver receives the field's arguments coerced to their declared types (from variables or
// literals alike) and returns an object of serialize.ts; graphql-js then applies the caller's
// selection set and aliases. Refusals are the payload's `userErrors { field message code }`,
// whose codes the schema's enums constrain. How to add one: docs/simulator.md#how-to-add-an-operation.
import { createBasicCodeDiscount, gqlCodeDiscountNode } from "./store/discounts";
import type { SimCore } from "./core";
import { fieldError } from "./graphql-exec";
import { bulkFinishPayload, gqlBulkOperation } from "./bulk-operations";
import { adminSchema } from "./schema";
import { numericIdOf, type ShopState, type Outcome } from "./state";
import { atomicCreateContract } from "./store/contract-import";
import { commitDraft, openDraft, ownContract, setNextBillingDate, setStatus, skipBillingCycle, updateDraft, updateDraftLine } from "./store/contracts";
import {
  addCustomerAddress,
  createCustomerViaApi,
  createRemotePaymentMethod,
  customerByEmail,
  findPaymentMethod,
  searchCustomers,
  sendPaymentMethodUpdateEmail,
  setCustomerViaApi,
} from "./store/customers";
import { setMetafields } from "./store/metafields";
import { flowTriggerReceive } from "./flow";
import { SELLING_PLAN_MUTATIONS } from "./selling-plan-resolvers";
import { createBillingAttempt, gqlBillingAttempt } from "./subscription-billing";
import { appClientIdOf, createMetafieldDefinition, gqlMetafieldDefinition, updateMetafieldDefinition } from "./store/metafield-definitions";
import { cancelAppSubscription, confirmationUrl, createAppSubscription, gqlAppInstallation, gqlAppSubscription } from "./billing";
import {
  connection,
  gqlContract,
  gqlCustomer,
  gqlDraft,
  gqlLine,
  gqlMailingAddress,
  gqlPaymentMethod,
  gqlProduct,
  gqlSellingPlanGroup,
  gqlShop,
  gqlVariant,
  idKey,
  MAX_PAGE,
  type ConnectionArgs,
} from "./serialize";

/** What every resolver is given besides its arguments: the simulator and the calling shop. */
export interface AdminContext {
  core: SimCore;
  shop: ShopState;
}

// Arguments arrive already checked against the field's declared types: resolvers read them as such.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Args = Record<string, any>;
export type RootResolver = (args: Args, ctx: AdminContext) => unknown;

/**
 * A mutation's payload: on success `onOk(value)` plus empty userErrors, and the change is
 * committed (persisted, webhooks sent); on refusal every payload object null plus userErrors.
 */
function mutation<T>(
  run: (args: Args, ctx: AdminContext) => Outcome<T>,
  onOk: (value: T, shop: ShopState) => Record<string, unknown>,
  nullKeys: string[],
): RootResolver {
  return (args, ctx) => {
    const outcome = run(args, ctx);
    if (!outcome.ok) return { ...Object.fromEntries(nullKeys.map((k) => [k, null])), userErrors: outcome.userErrors };
    ctx.core.commit(ctx.shop, outcome.events);
    return { ...onOk(outcome.value, ctx.shop), userErrors: [] };
  };
}

const statusMutation = (target: "PAUSED" | "ACTIVE" | "CANCELLED") =>
  mutation(
    (a, { core, shop }) => setStatus(shop, a.subscriptionContractId, target, core.now()),
    (c, shop) => ({ contract: gqlContract(shop, c) }),
    ["contract"],
  );

export const QUERY: Record<string, RootResolver> = {
  shop: (_a, { shop }) => gqlShop(shop),

  currentAppInstallation: (_a, { shop }) => gqlAppInstallation(shop),

  subscriptionContract: ({ id }, { shop }) => {
    const c = ownContract(shop, id);
    return c ? gqlContract(shop, c) : null;
  },

  subscriptionContracts: (args: ConnectionArgs, { shop }) => {
    const own = Object.values(shop.contracts)
      .filter((c) => c.app === "self")
      .sort((a, b) => numericIdOf(a.id) - numericIdOf(b.id));
    return connection(own, args, idKey, (c) => gqlContract(shop, c));
  },

  customer: ({ id }, { shop }) => {
    const customer = shop.customers[id];
    return customer ? gqlCustomer(customer, shop) : null;
  },

  customers: (args: ConnectionArgs & { query?: string | null }, { shop }) =>
    connection(searchCustomers(shop, args.query ?? ""), args, idKey, (c) => gqlCustomer(c, shop)),

  // @oneOf input: graphql-js has already refused zero or several identifiers.
  customerByIdentifier: ({ identifier }, { shop }) => {
    const customer = identifier.id
      ? shop.customers[identifier.id]
      : identifier.emailAddress
        ? customerByEmail(shop, identifier.emailAddress)
        : identifier.phoneNumber
          ? Object.values(shop.customers).find((c) => c.phone === identifier.phoneNumber)
          : undefined;
    return customer ? gqlCustomer(customer, shop) : null;
  },

  subscriptionBillingAttempt: ({ id }, { shop }) => {
    const attempt = typeof id === "string" ? shop.billingAttempts?.[id] : undefined;
    const c = attempt ? ownContract(shop, attempt.contractId) : undefined;
    return attempt && c ? gqlBillingAttempt(attempt, gqlContract(shop, c)) : null;
  },

  // A revoked method is null unless showRevoked, as on Shopify.
  customerPaymentMethod: ({ id, showRevoked }, { shop }) => {
    const found = findPaymentMethod(shop, id);
    return found && (!found.method.revokedAt || showRevoked) ? gqlPaymentMethod(found.method, found.customer) : null;
  },

  // The requesting app's groups only: Shopify's default `app_id:CURRENT` (the app reads no other app's here).
  sellingPlanGroups: (args: ConnectionArgs, { shop }) => {
    const own = Object.values(shop.sellingPlanGroups)
      .filter((g) => g.app === "self")
      .sort((a, b) => numericIdOf(a.id) - numericIdOf(b.id));
    return connection(own, args, idKey, (g) => gqlSellingPlanGroup(shop, g));
  },

  sellingPlanGroup: ({ id }, { shop }) => {
    const g = shop.sellingPlanGroups[id];
    return g ? gqlSellingPlanGroup(shop, g) : null;
  },

  product: ({ id }, { shop }) => {
    const product = shop.products[id];
    return product ? gqlProduct(shop, product) : null;
  },

  productVariant: ({ id }, { shop }) => {
    const variant = shop.variants[id];
    return variant ? gqlVariant(shop, variant) : null;
  },

  // Bulk operations (bulk-operations.ts): the app's latest bulk query, or one by id.
  currentBulkOperation: ({ type }, { core, shop }) => {
    if (type === "MUTATION") return null;
    const op = core.bulk.current(bucketKeyOf(core, shop));
    return op ? gqlBulkOperation(op, core.publicUrl) : null;
  },
  bulkOperation: ({ id }, { core, shop }) => bulkOperationById(core, shop, id),
  // Newest first by default (sortKey CREATED_AT or COMPLETED_AT); `query` filters by
  // `status:` and `operation_type:` terms joined by AND (only queries are simulated).
  bulkOperations: (args: ConnectionArgs & { query?: string | null; sortKey?: string | null }, { core, shop }) => {
    const terms = [...(args.query ?? "").matchAll(/(status|operation_type):(\w+)/gi)].map((m) => [m[1].toLowerCase(), m[2].toUpperCase()]);
    const ops = core.bulk
      .list(bucketKeyOf(core, shop))
      .filter((op) => terms.every(([k, v]) => (k === "status" ? op.status === v : v === "QUERY")))
      .sort(
        (a, b) => (args.sortKey === "COMPLETED_AT" ? (b.completedAt ?? "").localeCompare(a.completedAt ?? "") : 0) || numericIdOf(b.id) - numericIdOf(a.id),
      );
    return connection(
      ops,
      args,
      (op) => String(numericIdOf(op.id)),
      (op) => gqlBulkOperation(op, core.publicUrl),
    );
  },
  // Only a BulkOperation is simulated through node(id:); another type says so rather than null.
  node: ({ id }, { core, shop }) => {
    if (typeof id === "string" && id.startsWith("gid://shopify/BulkOperation/")) return bulkOperationById(core, shop, id);
    throw fieldError("node(id:) is simulated for BulkOperation ids only (docs/simulator.md#bulk-operations)", "NOT_SIMULATED");
  },

  nodes: ({ ids }, { shop }) => {
    if (ids.length > MAX_PAGE) throw fieldError(`The maximum number of ids is ${MAX_PAGE}`, "MAX_INPUT_SIZE_EXCEEDED");
    return (ids as string[]).map((id) => {
      const variant = shop.variants[id];
      if (variant) return gqlVariant(shop, variant);
      const customer = shop.customers[id];
      if (customer) return gqlCustomer(customer, shop);
      const c = ownContract(shop, id);
      return c ? gqlContract(shop, c) : null;
    });
  },
};

/** One bucket and one running bulk query per shop and app (docs/decisions/095). */
const bucketKeyOf = (core: SimCore, shop: ShopState) => `${shop.domain}|${core.config.apiKey}`;

function bulkOperationById(core: SimCore, shop: ShopState, id: string) {
  const op = core.bulk.get(id);
  return op && op.bucketKey === bucketKeyOf(core, shop) ? gqlBulkOperation(op, core.publicUrl) : null;
}

export const MUTATION: Record<string, RootResolver> = {
  // The inner query runs later against the same query resolvers, unpaged (bulk-operations.ts).
  bulkOperationRunQuery: ({ query, groupObjects }, ctx) => {
    const { core, shop } = ctx;
    const started = core.bulk.start(bucketKeyOf(core, shop), query, groupObjects === true, {
      schema: adminSchema(),
      rootValue: QUERY,
      context: ctx,
      now: () => core.now(),
      shop,
      finished: (op) => {
        core.record(shop, { api: "admin", operation: "(bulk operation finished)", variables: { id: op.id, status: op.status }, outcome: "ok" });
        core.commit(shop, [{ app: "self", topic: "bulk_operations/finish", payload: bulkFinishPayload(op) }]);
      },
    });
    if (!started.ok) return { bulkOperation: null, userErrors: started.userErrors };
    return { bulkOperation: gqlBulkOperation(started.op, core.publicUrl), userErrors: [] };
  },

  // Shopify Billing (simulator/billing.ts). The payload's confirmationUrl is the simulator's own
  // page, so the resolver needs the core besides the shop.
  appSubscriptionCreate: (a, { core, shop }) => {
    const outcome = createAppSubscription(core.state, shop, a as Parameters<typeof createAppSubscription>[2], core.now());
    if (!outcome.ok) return { appSubscription: null, confirmationUrl: null, userErrors: outcome.userErrors };
    core.commit(shop, outcome.events);
    return { appSubscription: gqlAppSubscription(outcome.value), confirmationUrl: confirmationUrl(core, shop, outcome.value), userErrors: [] };
  },
  appSubscriptionCancel: mutation(
    (a, { core, shop }) => cancelAppSubscription(shop, a.id, core.now()),
    (s) => ({ appSubscription: gqlAppSubscription(s) }),
    ["appSubscription"],
  ),

  subscriptionContractPause: statusMutation("PAUSED"),
  subscriptionContractActivate: statusMutation("ACTIVE"),
  subscriptionContractCancel: statusMutation("CANCELLED"),

  subscriptionContractSetNextBillingDate: mutation(
    (a, { core, shop }) => setNextBillingDate(shop, a.contractId, a.date, core.now()),
    (c, shop) => ({ contract: gqlContract(shop, c) }),
    ["contract"],
  ),

  subscriptionBillingCycleSkip: mutation(
    ({ billingCycleInput }, { core, shop }) => skipBillingCycle(shop, billingCycleInput.contractId, billingCycleInput.selector, core.now()),
    (cycle, shop) => ({
      billingCycle: {
        __typename: "SubscriptionBillingCycle",
        cycleIndex: cycle.cycleIndex,
        cycleStartAt: cycle.cycleStartAt,
        cycleEndAt: cycle.cycleEndAt,
        billingAttemptExpectedDate: cycle.billingAttemptExpectedDate,
        skipped: true,
        edited: false,
        // Only a cycle not yet due can be skipped (store/contracts.ts refuses past ones).
        status: "UNBILLED",
        sourceContract: gqlContract(shop, shop.contracts[cycle.contractId]),
      },
    }),
    ["billingCycle"],
  ),

  // Subscription billing (simulator/subscription-billing.ts). A new attempt answers as Shopify's
  // does, still processing; the outcome follows by webhook. A repeated key answers the attempt made.
  subscriptionBillingAttemptCreate: (a, { core, shop }) => {
    const outcome = createBillingAttempt(core.state, shop, a.subscriptionContractId, a.subscriptionBillingAttemptInput, core.now(), core.publicUrl);
    if (!outcome.ok) return { subscriptionBillingAttempt: null, userErrors: outcome.userErrors };
    const fresh = outcome.events.length > 0;
    if (fresh) core.commit(shop, outcome.events);
    const attempt = outcome.value;
    return { subscriptionBillingAttempt: gqlBillingAttempt(attempt, gqlContract(shop, shop.contracts[attempt.contractId]), fresh), userErrors: [] };
  },

  subscriptionContractUpdate: mutation(
    (a, { core, shop }) => openDraft(core.state, shop, a.contractId, core.now()),
    (d, shop) => ({ draft: gqlDraft(shop, d) }),
    ["draft"],
  ),

  subscriptionDraftLineUpdate: mutation(
    (a, { shop }) => updateDraftLine(shop, a.draftId, a.lineId, a.input),
    ({ draft, line }, shop) => ({
      draft: gqlDraft(shop, draft),
      lineUpdated: gqlLine(line, shop.contracts[draft.contractId]?.currencyCode ?? shop.currencyCode),
    }),
    ["draft", "lineUpdated"],
  ),

  subscriptionDraftUpdate: mutation(
    (a, { shop }) => updateDraft(shop, a.draftId, a.input),
    (draft) => ({ draft: { __typename: "SubscriptionDraft", id: draft.id } }),
    ["draft"],
  ),

  subscriptionDraftCommit: mutation(
    (a, { core, shop }) => commitDraft(shop, a.draftId, core.now()),
    (c, shop) => ({ contract: gqlContract(shop, c) }),
    ["contract"],
  ),

  customerPaymentMethodSendUpdateEmail: mutation(
    (a, { core, shop }) => sendPaymentMethodUpdateEmail(core.state, shop, a.customerPaymentMethodId, core.now()),
    (customer) => ({ customer: { __typename: "Customer", id: customer.id } }),
    ["customer"],
  ),

  // Migration import (docs/decisions/085-migration-import.md).
  customerCreate: mutation(
    (a, { core, shop }) => createCustomerViaApi(core.state, shop, a.input),
    (customer, shop) => ({ customer: gqlCustomer(customer, shop) }),
    ["customer"],
  ),

  customerSet: mutation(
    (a, { core, shop }) => setCustomerViaApi(core.state, shop, a.input, a.identifier ?? null),
    (customer, shop) => ({ customer: gqlCustomer(customer, shop) }),
    ["customer"],
  ),

  customerAddressCreate: mutation(
    (a, { shop }) => addCustomerAddress(shop, a.customerId, a.address),
    ({ customer, address }) => ({ address: { ...gqlMailingAddress(address, customer), id: `gid://shopify/MailingAddress/${numericIdOf(customer.id)}` } }),
    ["address"],
  ),

  customerPaymentMethodRemoteCreate: mutation(
    (a, { core, shop }) => createRemotePaymentMethod(core.state, shop, a.customerId, a.remoteReference),
    ({ customer, method }) => ({ customerPaymentMethod: gqlPaymentMethod(method, customer) }),
    ["customerPaymentMethod"],
  ),

  subscriptionContractAtomicCreate: mutation(
    (a, { core, shop }) => atomicCreateContract(core.state, shop, a.input, core.now()),
    (c, shop) => ({ contract: gqlContract(shop, c) }),
    ["contract"],
  ),

  discountCodeBasicCreate: mutation(
    (a, { core, shop }) => createBasicCodeDiscount(core.state, shop, a.basicCodeDiscount, core.now()),
    (d) => ({ codeDiscountNode: gqlCodeDiscountNode(d, new Date()) }),
    ["codeDiscountNode"],
  ),

  metafieldDefinitionCreate: mutation(
    (a, { core, shop }) => createMetafieldDefinition(core.state, shop, a.definition, appClientIdOf(core.config.apiKey), core.now()),
    (d) => ({ createdDefinition: gqlMetafieldDefinition(d) }),
    ["createdDefinition"],
  ),
  metafieldDefinitionUpdate: mutation(
    (a, { core, shop }) => updateMetafieldDefinition(shop, a.definition, appClientIdOf(core.config.apiKey)),
    (d) => ({ updatedDefinition: gqlMetafieldDefinition(d), validationJob: null }),
    ["updatedDefinition", "validationJob"],
  ),
  metafieldsSet: mutation(
    (a, { core, shop }) => setMetafields(core.state, shop, a.metafields, core.now()),
    (metafields) => ({ metafields: metafields.map((m) => ({ __typename: "Metafield", ...m })) }),
    ["metafields"],
  ),

  // Shopify Flow: the payload checked against the trigger's declared fields (simulator/flow.ts).
  flowTriggerReceive: (a, { core, shop }) => flowTriggerReceive(core, shop, { handle: a.handle, payload: a.payload }),

  // Selling plan groups (simulator/selling-plan-resolvers.ts).
  ...SELLING_PLAN_MUTATIONS,
};

export const SUPPORTED_OPERATIONS = [...Object.keys(QUERY), ...Object.keys(MUTATION)];
