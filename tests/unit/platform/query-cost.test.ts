// The simulator charges Shopify's calculated query cost (docs/decisions/095-simulated-query-cost.md).
// A table of the app's own documents beside their cost worked out by hand from Shopify's rules:
// scalar and enum 0, object 1, interface/union the dearest possibility, connection
// 2 + first x (one item), mutation 10 plus the connections it returns.
import { describe, expect, it } from "vitest";
import { adminSchema } from "../../../simulator/schema";
import { prepareRequest } from "../../../simulator/graphql-exec";
import { actualCost, MAX_QUERY_COST, requestedCost } from "../../../simulator/query-cost";
import { CONTRACT_GET } from "../../../app/platform/graphql/contract-get";
import { CONTRACTS_LIST, CONTRACTS_LIST_MAX } from "../../../app/platform/graphql/contracts-list";
import { CONTRACT_PAUSE } from "../../../app/platform/graphql/contract-pause";
import { BILLING_ATTEMPT_CREATE } from "../../../app/platform/graphql/billing-attempt-create";
import { BILLING_ATTEMPT_GET } from "../../../app/platform/graphql/billing-attempt-get";
import { SHOP_GET } from "../../../app/platform/graphql/shop-get";
import { CURRENT_APP_INSTALLATION } from "../../../app/platform/graphql/current-app-installation";
import { PAYMENT_METHOD_GET } from "../../../app/platform/graphql/payment-method-get";
import { CUSTOMER_CONTRACTS } from "../../../app/platform/graphql/customer-contracts";
import { SELLING_PLAN_GROUP_GET } from "../../../app/platform/graphql/selling-plan-group-get";
import { SELLING_PLAN_GROUP_CREATE } from "../../../app/platform/graphql/selling-plan-group-create";
import { DRAFT_COMMIT } from "../../../app/platform/graphql/draft-commit";
import { PRODUCT_SELLING_PLAN_GROUPS } from "../../../app/platform/graphql/product-selling-plan-groups";
import { CUSTOMERS_GET } from "../../../app/platform/graphql/customers-get";
import { VARIANTS_GET } from "../../../app/platform/graphql/variants-get";

function requested(query: string, variables: Record<string, unknown> = {}): number {
  const prepared = prepareRequest(adminSchema(), query);
  if (!prepared.ok) throw new Error(JSON.stringify(prepared.errors));
  return requestedCost(adminSchema(), prepared.request, variables);
}

// One contract as CONTRACT_FIELDS reads it: the contract 1 + customer 1 + originOrder 1 +
// billingPolicy 1 + its anchors 1 + its customAttributes 1 + customerPaymentMethod 1 + its
// instrument (union) 1 + lines(first: 50) 2 + 50 x (line 1 + currentPrice 1 + customAttributes 1)
// = 8 + 152 = 160.
const CONTRACT = 160;

const TABLE: [name: string, query: string, variables: Record<string, unknown>, byHand: number][] = [
  ["CONTRACT_GET: one contract", CONTRACT_GET, { id: "gid://shopify/SubscriptionContract/1" }, CONTRACT],
  ["CONTRACTS_LIST: a full page, 2 + 6 x 160", CONTRACTS_LIST, { first: CONTRACTS_LIST_MAX }, 2 + 6 * CONTRACT],
  ["CONTRACT_PAUSE: a mutation without connections", CONTRACT_PAUSE, {}, 10],
  ["BILLING_ATTEMPT_CREATE: a mutation", BILLING_ATTEMPT_CREATE, {}, 10],
  // attempt 1 + contract 1 + state (union: success 1 + order 1 = 2; failed 1 + error union 1 = 2) 2
  ["BILLING_ATTEMPT_GET: unions cost their dearest member", BILLING_ATTEMPT_GET, {}, 4],
  ["SHOP_GET: shop 1 + plan 1", SHOP_GET, {}, 2],
  ["CURRENT_APP_INSTALLATION: installation 1 + its subscriptions (a list, not a connection) 1", CURRENT_APP_INSTALLATION, {}, 2],
  ["PAYMENT_METHOD_GET: contract 1 + payment method 1 + instrument (union) 1", PAYMENT_METHOD_GET, {}, 3],
  ["CUSTOMER_CONTRACTS: customer 1 + 2 + 100 x (contract 1 + customAttributes 1)", CUSTOMER_CONTRACTS, {}, 203],
  ["SELLING_PLAN_GROUP_GET: group 1 + (2 + 50 x 1) + (2 + 250 x 1)", SELLING_PLAN_GROUP_GET, {}, 305],
  ["SELLING_PLAN_GROUP_CREATE: 10 + its two connections 52 + 252", SELLING_PLAN_GROUP_CREATE, {}, 314],
  ["DRAFT_COMMIT: 10 + the contract's lines connection 152", DRAFT_COMMIT, {}, 162],
  ["PRODUCT_SELLING_PLAN_GROUPS: product 1 + 2 + 20 x (group 1 + 2 + 31 x 1)", PRODUCT_SELLING_PLAN_GROUPS, {}, 683],
  // nodes(ids:) is a list of the Node interface: its dearest fragment, Customer 1 + email 1 + phone 1 + address 1
  ["CUSTOMERS_GET: an interface costs its dearest fragment", CUSTOMERS_GET, { ids: [] }, 4],
  // variant 1 + media(first: 1) (2 + 1 x (media 1 + preview 1 + image 1)) + product (1 + featuredMedia 1 + preview 1 + image 1)
  ["VARIANTS_GET: nested objects and a connection of one", VARIANTS_GET, { ids: [] }, 10],
];

describe("requestedQueryCost of the app's documents, by Shopify's rules", () => {
  it.each(TABLE)("%s", (_name, query, variables, byHand) => {
    expect(requested(query, variables)).toBe(byHand);
  });

  it("every document the app sends fits under the single-query maximum", () => {
    for (const [name, query, variables] of TABLE) expect(requested(query, variables), name).toBeLessThanOrEqual(MAX_QUERY_COST);
  });

  it("nested connections multiply, aliases and named fragments count like the fields they stand for", () => {
    const nested = `{ products(first: 10) { edges { node { title variants(first: 5) { edges { node { id } } } } } } }`;
    expect(requested(nested)).toBe(2 + 10 * (1 + 2 + 5 * 1));
    const aliased = `query { a: shop { id } b: shop { name plan { partnerDevelopment } } }`;
    expect(requested(aliased)).toBe(1 + 2);
    const fragment = `query { shop { ...F } } fragment F on Shop { id plan { partnerDevelopment } }`;
    expect(requested(fragment)).toBe(2);
    expect(requested(`query($n: Int!) { products(last: $n) { nodes { id } } }`, { n: 40 })).toBe(42);
  });

  it("a contracts page one larger than the maximum page would be refused", () => {
    expect(requested(CONTRACTS_LIST, { first: CONTRACTS_LIST_MAX + 1 })).toBeGreaterThan(MAX_QUERY_COST);
  });
});

describe("actualQueryCost: the same rules over what came back", () => {
  it("a connection is charged for the items returned, a null object for nothing", () => {
    const prepared = prepareRequest(adminSchema(), CONTRACT_GET);
    if (!prepared.ok) throw new Error("invalid");
    const data = {
      subscriptionContract: {
        id: "c",
        customer: { id: "x" },
        originOrder: null,
        billingPolicy: { interval: "MONTH", intervalCount: 1, anchors: [] },
        lines: { nodes: [{ id: "l", currentPrice: { amount: "1", currencyCode: "USD" }, customAttributes: [] }] },
      },
    };
    // contract 1 + customer 1 + billingPolicy 1 (no anchors) + lines 2 + one line (1 + price 1)
    expect(actualCost(adminSchema(), prepared.request, { id: "c" }, data)).toBe(7);
    expect(actualCost(adminSchema(), prepared.request, { id: "c" }, { subscriptionContract: null })).toBe(0);
  });

  it("a mutation costs 10 whatever its payload returned", () => {
    const prepared = prepareRequest(adminSchema(), CONTRACT_PAUSE);
    if (!prepared.ok) throw new Error("invalid");
    expect(actualCost(adminSchema(), prepared.request, {}, { subscriptionContractPause: { contract: { id: "c" }, userErrors: [] } })).toBe(10);
  });
});
