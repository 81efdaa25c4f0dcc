// subscriptionContractAtomicCreate, the migration import's one call per contract
// (docs/decisions/085-migration-import.md).
import { newGid, type Anchor, type Contract, type ContractStatus, type Interval, type Line, type ShopState, type SimState, type Outcome } from "../state";
import { contractPayload } from "../payloads";

import { ok, refuse } from "./outcome";

import { lineFor } from "./contracts";
import { findPaymentMethod, toAddress, type MailingAddressRaw } from "./customers";

interface PolicyRaw {
  interval?: Interval;
  intervalCount?: number;
  anchors?: { day?: number | null; month?: number | null; type?: Anchor["type"] | null }[] | null;
  minCycles?: number | null;
  maxCycles?: number | null;
}

export interface AtomicCreateRaw {
  customerId?: string;
  currencyCode?: string;
  nextBillingDate?: string;
  contract?: {
    status?: ContractStatus | null;
    paymentMethodId?: string | null;
    billingPolicy?: PolicyRaw | null;
    deliveryPolicy?: PolicyRaw | null;
    deliveryPrice?: string | number | null;
    deliveryMethod?: { shipping?: { address?: MailingAddressRaw | null } | null } | null;
    customAttributes?: { key: string; value: string }[] | null;
  };
  lines?: {
    line: { productVariantId: string; quantity: number; currentPrice: string | number; sellingPlanId?: string | null; sellingPlanName?: string | null };
  }[];
}

const anchorsOf = (p: PolicyRaw): Anchor[] => (p.anchors ?? []).map((a) => ({ day: a.day ?? 1, month: a.month ?? null, type: a.type ?? "MONTHDAY" }));

/**
 * subscriptionContractAtomicCreate: the whole contract in one call (customer, lines, policies,
 * delivery, payment method, status, next billing date), validated in full before anything is
 * stored. Sends subscription_contracts/create like any new contract.
 */
export function atomicCreateContract(state: SimState, shop: ShopState, input: AtomicCreateRaw, now: Date): Outcome<Contract> {
  const at = (...path: (string | number)[]) => ["input", ...path.map(String)];
  const customer = input.customerId ? shop.customers[input.customerId] : undefined;
  if (!customer) return refuse("Customer does not exist", at("customerId"), "CUSTOMER_DOES_NOT_EXIST");
  const draft = input.contract ?? {};
  const next = typeof input.nextBillingDate === "string" ? new Date(input.nextBillingDate) : new Date(NaN);
  if (Number.isNaN(next.getTime())) return refuse("Next billing date is invalid", at("nextBillingDate"), "INVALID_BILLING_DATE");
  const lineInputs = input.lines ?? [];
  if (lineInputs.length === 0) return refuse("Lines can't be blank", at("lines"), "INVALID_LINES");
  if (lineInputs.length > 250) return refuse("Too many lines", at("lines"), "TOO_MANY_LINES");
  const bp = draft.billingPolicy;
  if (!bp) return refuse("Billing policy can't be blank", at("contract", "billingPolicy"), "PRESENCE");
  if (!bp.intervalCount || bp.intervalCount < 1)
    return refuse("Interval count must be greater than 0", at("contract", "billingPolicy", "intervalCount"), "GREATER_THAN");
  const dp = draft.deliveryPolicy ?? bp;
  if (!dp.intervalCount || dp.intervalCount < 1)
    return refuse("Interval count must be greater than 0", at("contract", "deliveryPolicy", "intervalCount"), "GREATER_THAN");
  const plans = new Map(Object.values(shop.sellingPlanGroups).flatMap((g) => g.sellingPlans.map((p) => [p.id, p] as const)));
  const lines: Line[] = [];
  for (const [i, { line }] of lineInputs.entries()) {
    const variant = shop.variants[line.productVariantId];
    if (!variant) return refuse("Product variant does not exist", at("lines", i, "line", "productVariantId"), "INVALID");
    if (!Number.isInteger(line.quantity) || line.quantity < 1) {
      return refuse("Quantity must be greater than or equal to 1", at("lines", i, "line", "quantity"), "GREATER_THAN_OR_EQUAL_TO");
    }
    const price = Number(line.currentPrice);
    if (!Number.isFinite(price) || price < 0)
      return refuse("Price must be greater than or equal to 0", at("lines", i, "line", "currentPrice"), "GREATER_THAN_OR_EQUAL_TO");
    if (line.sellingPlanId && !plans.has(line.sellingPlanId)) return refuse("Selling plan does not exist", at("lines", i, "line", "sellingPlanId"), "INVALID");
    const built = lineFor(state, shop, variant, line.quantity, String(line.currentPrice), line.sellingPlanId ?? null);
    if (line.sellingPlanName) built.sellingPlanName = line.sellingPlanName;
    lines.push(built);
  }
  let paymentMethodId: string | null = null;
  if (draft.paymentMethodId) {
    const found = findPaymentMethod(shop, draft.paymentMethodId);
    if (!found) return refuse("Payment method does not exist", at("contract", "paymentMethodId"), "INVALID");
    if (found.customer.id !== customer.id)
      return refuse("The payment method customer must be the same as the contract customer", at("contract", "paymentMethodId"), "CUSTOMER_MISMATCH");
    if (found.method.revokedAt) return refuse("Payment method is revoked", at("contract", "paymentMethodId"), "INVALID");
    paymentMethodId = found.method.id;
  }
  const shipping = draft.deliveryMethod?.shipping?.address ?? null;
  if (!shipping)
    return refuse("The delivery method can't be blank if any lines require shipping", at("contract", "deliveryMethod"), "DELIVERY_METHOD_REQUIRED");
  const createdAt = now.toISOString();
  const contract: Contract = {
    id: newGid(state, "SubscriptionContract"),
    app: "self",
    status: draft.status ?? "ACTIVE",
    nextBillingDate: next.toISOString(),
    cycleAnchor: next.toISOString(),
    skippedCycles: [],
    createdAt,
    updatedAt: createdAt,
    revisionId: 1,
    currencyCode: input.currencyCode ?? shop.currencyCode,
    customerId: customer.id,
    paymentMethodId,
    // A contract made by the API has no origin order.
    originOrder: null,
    billingPolicy: {
      interval: bp.interval ?? "MONTH",
      intervalCount: bp.intervalCount,
      anchors: anchorsOf(bp),
      minCycles: bp.minCycles ?? null,
      maxCycles: bp.maxCycles ?? null,
    },
    deliveryPolicy: { interval: dp.interval ?? "MONTH", intervalCount: dp.intervalCount, anchors: anchorsOf(dp), minCycles: null, maxCycles: null },
    lines,
    customAttributes: (draft.customAttributes ?? []).map((a) => ({ key: a.key, value: a.value })),
    deliveryAddress: toAddress(shipping),
  };
  shop.contracts[contract.id] = contract;
  return ok(contract, [{ topic: "subscription_contracts/create", payload: contractPayload(contract), app: "self" }]);
}
