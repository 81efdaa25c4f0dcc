// The simulated storefront's checkout (docs/simulator.md#checkout): a cart's lines, some with a
// selling plan and line properties, become what a Shopify checkout makes of them: the customer
// (found by e-mail or created), a vaulted card, one order, and one subscription contract per
// selling plan group, its next billing date from Shopify's anchor rules (./anchor-rules.ts).
// Webhooks: orders/create, then subscription_contracts/create for each contract.
import { normalizeDecimal } from "../decimal";
import { contractPayload } from "../payloads";
import {
  newGid,
  nextNumericId,
  type Contract,
  type SellingPlan,
  type SellingPlanGroup,
  type ShopState,
  type SimEvent,
  type SimState,
  type Outcome,
} from "../state";
import { checkoutBillingDate } from "./anchor-rules";
import { createContract } from "./contracts";
import { createCustomer, customerByEmail } from "./customers";
import { ok, refuse } from "./outcome";

export interface CartLine {
  variantId: string;
  quantity: number;
  sellingPlanId: string | null;
  properties: Record<string, string>;
}

export interface CheckoutInput {
  email: string;
  firstName: string;
  lastName: string;
  lines: CartLine[];
}

export interface CheckoutResult {
  order: { id: string; name: string };
  customerId: string;
  contractIds: string[];
}

function planOf(shop: ShopState, sellingPlanId: string): { group: SellingPlanGroup; plan: SellingPlan } | null {
  for (const group of Object.values(shop.sellingPlanGroups)) {
    const plan = group.sellingPlans.find((p) => p.id === sellingPlanId);
    if (plan) return { group, plan };
  }
  return null;
}

/** The line price under the plan's fixed pricing policy (the first cycle's price). */
function planPrice(price: string, plan: SellingPlan, currency: string): string {
  const fixed = plan.policies?.pricingPolicies.find((p) => p.kind === "fixed");
  if (!fixed) return normalizeDecimal(price, currency);
  const base = Number(price);
  const v = Number(fixed.value);
  const result =
    fixed.adjustmentType === "PERCENTAGE"
      ? base * (1 - v * 0.01) /* a percentage off, not a money conversion */
      : fixed.adjustmentType === "FIXED_AMOUNT"
        ? Math.max(0, base - v)
        : v;
  return normalizeDecimal(result, currency);
}

export function checkout(state: SimState, shop: ShopState, input: CheckoutInput, now: Date): Outcome<CheckoutResult> {
  if (!input.lines.length) return refuse("The cart is empty", ["lines"], "INVALID");
  if (!/^[^@\s]+@[^@\s]+$/.test(input.email)) return refuse("Enter a valid e-mail address", ["email"], "INVALID");
  for (const [i, l] of input.lines.entries()) {
    const variant = shop.variants[l.variantId];
    if (!variant) return refuse(`Variant ${l.variantId} does not exist`, ["lines", String(i), "variantId"], "INVALID");
    if (l.sellingPlanId) {
      const found = planOf(shop, l.sellingPlanId);
      if (!found || !found.group.variantIds.includes(l.variantId))
        return refuse("This selling plan is not offered on this variant", ["lines", String(i), "sellingPlanId"], "INVALID");
    }
  }
  const existing = customerByEmail(shop, input.email);
  const customer = existing ?? createCustomer(state, shop, { email: input.email, firstName: input.firstName, lastName: input.lastName });
  if (!customer.paymentMethods.some((m) => !m.revokedAt)) {
    customer.paymentMethods.push({
      kind: "credit_card",
      brand: "visa",
      last4: "4242",
      expiryMonth: 12,
      expiryYear: now.getUTCFullYear() + 3,
      id: newGid(state, "CustomerPaymentMethod"),
      revokedAt: null,
    });
  }
  const paymentMethodId = customer.paymentMethods.find((m) => !m.revokedAt)!.id;
  const orderNumber = nextNumericId(state);
  const order = { id: `gid://shopify/Order/${orderNumber}`, name: `#${1000 + ((orderNumber % 9000) + 1)}` };
  const lineItems = input.lines.map((l) => {
    const found = l.sellingPlanId ? planOf(shop, l.sellingPlanId) : null;
    const variant = shop.variants[l.variantId];
    return {
      variant_id: Number(l.variantId.split("/").pop()),
      admin_graphql_api_id: l.variantId,
      title: shop.products[variant.productId]?.title ?? "Product",
      quantity: l.quantity,
      price: found ? planPrice(variant.price, found.plan, shop.currencyCode) : normalizeDecimal(variant.price, shop.currencyCode),
      selling_plan_allocation: found ? { selling_plan: { id: Number(found.plan.id.split("/").pop()), name: found.plan.name } } : null,
      properties: Object.entries(l.properties).map(([name, value]) => ({ name, value })),
    };
  });
  const events: SimEvent[] = [
    {
      topic: "orders/create",
      payload: {
        admin_graphql_api_id: order.id,
        id: orderNumber,
        name: order.name,
        email: input.email,
        currency: shop.currencyCode,
        created_at: now.toISOString(),
        customer: { id: Number(customer.id.split("/").pop()), admin_graphql_api_id: customer.id },
        line_items: lineItems,
      },
      app: "self",
    },
  ];
  // One contract per selling plan group, as Shopify makes them.
  const byGroup = new Map<string, { group: SellingPlanGroup; plan: SellingPlan; lines: CartLine[] }>();
  for (const l of input.lines) {
    const found = l.sellingPlanId ? planOf(shop, l.sellingPlanId) : null;
    if (!found || found.group.app !== "self") continue;
    const entry = byGroup.get(found.group.id) ?? { ...found, lines: [] };
    entry.lines.push(l);
    byGroup.set(found.group.id, entry);
  }
  const contracts: Contract[] = [];
  for (const { plan, lines } of byGroup.values()) {
    const anchors = plan.policies?.anchors ?? [];
    const rules = {
      interval: plan.interval,
      intervalCount: plan.intervalCount,
      anchors,
      cutoff: plan.policies?.cutoff ?? null,
      preAnchorBehavior: plan.policies?.preAnchorBehavior ?? "ASAP",
    };
    const { nextBillingDate } = checkoutBillingDate(now, rules, shop.ianaTimezone ?? "UTC");
    const policy = { interval: plan.interval, intervalCount: plan.intervalCount, anchors: anchors.map((a) => ({ type: a.type, day: a.day, month: a.month })) };
    const made = createContract(
      state,
      shop,
      {
        customerId: customer.id,
        paymentMethodId,
        nextBillingDate,
        originOrderName: order.name,
        billingPolicy: { ...policy, minCycles: plan.policies?.minCycles ?? null, maxCycles: plan.policies?.maxCycles ?? null },
        deliveryPolicy: policy,
        lines: lines.map((l) => ({
          variantId: l.variantId,
          quantity: l.quantity,
          price: planPrice(shop.variants[l.variantId].price, plan, shop.currencyCode),
          sellingPlanId: plan.id,
        })),
      },
      now,
    );
    if (!made.ok) return made;
    const c = made.value;
    c.originOrder = order;
    // The checkout's shipping address becomes the contract's delivery method (the shopper's own).
    if (customer.address) c.deliveryAddress = { ...customer.address, firstName: customer.firstName, lastName: customer.lastName };
    c.lines.forEach((line, i) => {
      line.customAttributes = Object.entries(lines[i].properties).map(([key, value]) => ({ key, value }));
    });
    contracts.push(c);
    events.push({ topic: "subscription_contracts/create", payload: contractPayload(c), app: "self" });
  }
  return ok({ order, customerId: customer.id, contractIds: contracts.map((c) => c.id) }, events);
}
