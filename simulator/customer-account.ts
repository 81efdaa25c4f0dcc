// POST /shopify.com/<shop numeric id>/account/customer/api/<version>/graphql — the Customer
// Account API. Documents are executed against Shopify's Customer Account schema
// (graphql-exec.ts). Simulated: `customer { id }` (which customer a customer access token belongs
// to) and `customer { subscriptionContracts { id status nextBillingDate currencyCode lines { id
// title variantTitle quantity currentPrice } } }` (this app's contracts of that customer: how a
// headless portal learns its line ids), and the shopper's own subscription mutations
// `subscriptionContractPause`, `subscriptionContractCancel` and `subscriptionBillingCycleSkip` on
// those contracts (a portal's HIDE list hides buttons; the shopper's token can still act).
// Any other field of the schema answers NOT_SIMULATED.
import { SHOPIFY_API_VERSION } from "../app/platform/api-version";
import type { SimCore } from "./core";
import { executeRequest, prepareRequest } from "./graphql-exec";
import { customerAccountSchema } from "./schema";
import { connection, idKey, type ConnectionArgs } from "./serialize";
import { numericIdOf, type Contract, type Outcome, type ShopState, type UserError } from "./state";
import { setStatus, skipBillingCycle } from "./store/contracts";
import type { HttpAnswer } from "./http-answer";

/** A contract as the Customer Account API's SubscriptionContract (the fields a portal needs). */
function customerAccountContract(c: Contract) {
  const lines = c.lines.map((l) => ({
    __typename: "SubscriptionLine",
    id: l.id,
    title: l.title,
    variantTitle: l.variantTitle,
    quantity: l.quantity,
    currentPrice: { __typename: "MoneyV2", amount: l.price, currencyCode: c.currencyCode },
  }));
  return {
    __typename: "SubscriptionContract",
    id: c.id,
    status: c.status,
    nextBillingDate: c.nextBillingDate,
    currencyCode: c.currencyCode,
    lines: (args: ConnectionArgs) => connection(lines, args, (l) => l.id),
  };
}

/** The Customer Account schema's error enums are narrower than the Admin's: anything else is INVALID. */
function customerErrors(errors: UserError[], known: string[]): UserError[] {
  return errors.map((e) => ({ ...e, code: e.code && known.includes(e.code) ? e.code : "INVALID" }));
}

/** The shopper's own mutations: only this app's contracts of the token's customer exist for them. */
function customerMutations(core: SimCore, shop: ShopState, customerId: string) {
  const mine = (id: unknown): Contract | undefined => {
    const c = typeof id === "string" ? shop.contracts[id] : undefined;
    return c && c.app === "self" && c.customerId === customerId ? c : undefined;
  };
  const run = <T>(outcome: Outcome<T>, known: string[], onOk: (v: T) => Record<string, unknown>, nullKey: string) => {
    if (!outcome.ok) return { [nullKey]: null, userErrors: customerErrors(outcome.userErrors, known) };
    core.commit(shop, outcome.events);
    return { ...onOk(outcome.value), userErrors: [] };
  };
  const status = (target: "PAUSED" | "CANCELLED") => (args: { subscriptionContractId: string }) => {
    if (!mine(args.subscriptionContractId)) {
      return {
        contract: null,
        userErrors: [{ field: ["subscriptionContractId"], message: "Contract does not exist", code: "SUBSCRIPTION_CONTRACT_DOES_NOT_EXIST" }],
      };
    }
    return run(setStatus(shop, args.subscriptionContractId, target, core.now()), ["INVALID"], (c) => ({ contract: customerAccountContract(c) }), "contract");
  };
  return {
    subscriptionContractPause: status("PAUSED"),
    subscriptionContractCancel: status("CANCELLED"),
    subscriptionBillingCycleSkip: (args: { billingCycleInput: { contractId: string; selector?: { index?: number; date?: string } } }) => {
      const input = args.billingCycleInput;
      if (!mine(input.contractId)) {
        return { billingCycle: null, userErrors: [{ field: ["billingCycleInput", "contractId"], message: "Contract does not exist", code: "INVALID" }] };
      }
      return run(
        skipBillingCycle(shop, input.contractId, input.selector, core.now()),
        ["INVALID"],
        (cycle) => ({
          billingCycle: {
            __typename: "SubscriptionBillingCycle",
            cycleIndex: cycle.cycleIndex,
            cycleStartAt: cycle.cycleStartAt,
            cycleEndAt: cycle.cycleEndAt,
            billingAttemptExpectedDate: cycle.billingAttemptExpectedDate,
            skipped: true,
            edited: false,
            status: "UNBILLED",
          },
        }),
        "billingCycle",
      );
    },
  };
}

const UNAUTHORIZED: HttpAnswer = { status: 401, body: { errors: [{ message: "Unauthorized", extensions: { code: "UNAUTHORIZED" } }] } };

export function handleCustomerAccount(core: SimCore, shopNumericId: number, version: string, authorization: string | undefined, body: unknown): HttpAnswer {
  const shop = Object.values(core.state.shops).find((s) => s.numericId === shopNumericId);
  if (!shop) return { status: 404, body: { errors: [{ message: "Shop not found" }] } };
  if (version !== SHOPIFY_API_VERSION) {
    return { status: 404, body: { errors: [{ message: `API version ${version} is not simulated: the simulator serves ${SHOPIFY_API_VERSION}` }] } };
  }
  const token = authorization?.replace(/^Bearer\s+/i, "").trim();
  const entry = token ? shop.customerAccessTokens[token] : undefined;
  const valid = entry && new Date(entry.expiresAt).getTime() > core.now().getTime() && shop.customers[entry.customerId];
  core.record(shop, { api: "customer_account", operation: "customer", variables: {}, outcome: valid ? "ok" : "unauthorized" });
  if (!valid || !entry) return UNAUTHORIZED;

  const { query, variables, operationName } = (body ?? {}) as { query?: unknown; variables?: unknown; operationName?: unknown };
  if (typeof query !== "string") return { status: 400, body: { errors: [{ message: "query is required", extensions: { code: "BAD_REQUEST" } }] } };
  const schema = customerAccountSchema();
  const prepared = prepareRequest(schema, query, typeof operationName === "string" ? operationName : null);
  if (!prepared.ok) return { status: 200, body: { errors: prepared.errors } };
  const vars = variables && typeof variables === "object" && !Array.isArray(variables) ? (variables as Record<string, unknown>) : {};
  const own = Object.values(shop.contracts)
    .filter((c) => c.app === "self" && c.customerId === entry.customerId)
    .sort((a, b) => numericIdOf(a.id) - numericIdOf(b.id));
  const root = {
    ...customerMutations(core, shop, entry.customerId),
    customer: () => ({
      __typename: "Customer",
      id: entry.customerId,
      subscriptionContracts: (args: ConnectionArgs) => connection(own, args, idKey, (c) => customerAccountContract(c)),
    }),
  };
  return { status: 200, body: executeRequest(schema, prepared.request, root, {}, vars) };
}
