// Contracts: seeded by the control API, and the transitions behind the Admin GraphQL mutations.
import {
  newGid,
  nextNumericId,
  type Anchor,
  type AppOwner,
  type Contract,
  type ContractStatus,
  type Draft,
  type Interval,
  type Line,
  type Policy,
  type ShopState,
  type SimState,
  type Variant,
  type Outcome,
  type SimEvent,
} from "../state";
import { billingCycleSkipPayload, contractPayload } from "../payloads";
import { normalizeDecimal } from "../decimal";
import { ok, refuse } from "./outcome";
import { createCustomer, toAddress, type MailingAddressRaw } from "./customers";
import { createProduct } from "./shops";
import { addInterval, cycleDate, sameDay } from "./dates";

const TERMINAL: ContractStatus[] = ["CANCELLED", "EXPIRED"];

export interface ContractInput {
  customerId?: string;
  app?: AppOwner;
  status?: ContractStatus;
  currencyCode?: string;
  createdAt?: string;
  /** When it last changed (for an ended contract: when it ended); default createdAt. Never before createdAt. */
  updatedAt?: string;
  nextBillingDate?: string;
  originOrderName?: string | null;
  /** Default: the customer's first payment method; null = manual / invoice billing. */
  paymentMethodId?: string | null;
  billingPolicy?: { interval?: Interval; intervalCount?: number; anchors?: Anchor[]; minCycles?: number | null; maxCycles?: number | null };
  deliveryPolicy?: { interval?: Interval; intervalCount?: number; anchors?: Anchor[] };
  /** customAttributes: what a checkout's line properties become (a box's size, a Mix & Match group). */
  lines?: { variantId?: string; quantity?: number; price?: string; sellingPlanId?: string | null; customAttributes?: { key: string; value: string }[] }[];
}

function planName(shop: ShopState, planId: string | null | undefined): string | null {
  if (!planId) return null;
  for (const g of Object.values(shop.sellingPlanGroups)) {
    const p = g.sellingPlans.find((x) => x.id === planId);
    if (p) return p.name;
  }
  return null;
}

export function lineFor(state: SimState, shop: ShopState, variant: Variant, quantity: number, price?: string, sellingPlanId?: string | null): Line {
  const product = shop.products[variant.productId];
  return {
    id: newGid(state, "SubscriptionLine"),
    productId: variant.productId,
    variantId: variant.id,
    title: product?.title ?? "Product",
    variantTitle: variant.title === "Default Title" ? null : variant.title,
    quantity,
    price: price ?? variant.price,
    sellingPlanId: sellingPlanId ?? null,
    sellingPlanName: planName(shop, sellingPlanId),
  };
}

/** Creates a contract; missing customer and products are made up so one call seeds a test. */
export function createContract(state: SimState, shop: ShopState, input: ContractInput, now: Date): Outcome<Contract> {
  const customer = input.customerId ? shop.customers[input.customerId] : createCustomer(state, shop, {});
  if (!customer) return refuse(`Customer ${input.customerId} does not exist`, ["customerId"]);
  let lineInputs = input.lines ?? [];
  if (lineInputs.length === 0) {
    const first = Object.values(shop.variants)[0] ?? createProduct(state, shop, { title: "Coffee beans", variants: [{ price: "18.00" }] }).variants[0];
    lineInputs = [{ variantId: first.id, quantity: 1 }];
  }
  const lines: Line[] = [];
  for (const [i, l] of lineInputs.entries()) {
    const variant = l.variantId ? shop.variants[l.variantId] : undefined;
    if (!variant) return refuse(`Variant ${l.variantId} does not exist`, ["lines", String(i), "variantId"]);
    const line = lineFor(state, shop, variant, l.quantity ?? 1, l.price, l.sellingPlanId);
    if (l.customAttributes?.length) line.customAttributes = l.customAttributes.map((a) => ({ key: a.key, value: a.value }));
    lines.push(line);
  }
  const bp = input.billingPolicy ?? {};
  const billingPolicy: Policy = {
    interval: bp.interval ?? "MONTH",
    intervalCount: bp.intervalCount ?? 1,
    anchors: bp.anchors ?? [],
    minCycles: bp.minCycles ?? null,
    maxCycles: bp.maxCycles ?? null,
  };
  const dp = input.deliveryPolicy ?? {};
  const createdAt = input.createdAt ?? now.toISOString();
  const nextBillingDate = input.nextBillingDate ?? addInterval(createdAt, billingPolicy.interval, billingPolicy.intervalCount);
  const id = newGid(state, "SubscriptionContract");
  const orderNumber = nextNumericId(state);
  const paymentMethodId = input.paymentMethodId === undefined ? (customer.paymentMethods[0]?.id ?? null) : input.paymentMethodId;
  const contract: Contract = {
    id,
    app: input.app ?? "self",
    status: input.status ?? "ACTIVE",
    nextBillingDate,
    cycleAnchor: nextBillingDate,
    skippedCycles: [],
    createdAt,
    updatedAt: input.updatedAt && Date.parse(input.updatedAt) > Date.parse(createdAt) ? new Date(input.updatedAt).toISOString() : createdAt,
    revisionId: 1,
    currencyCode: input.currencyCode ?? shop.currencyCode,
    customerId: customer.id,
    paymentMethodId,
    originOrder:
      input.originOrderName === null
        ? null
        : { id: `gid://shopify/Order/${orderNumber}`, name: input.originOrderName ?? `#${1000 + Object.keys(shop.contracts).length + 1}` },
    billingPolicy,
    deliveryPolicy: {
      interval: dp.interval ?? billingPolicy.interval,
      intervalCount: dp.intervalCount ?? billingPolicy.intervalCount,
      anchors: dp.anchors ?? billingPolicy.anchors,
      minCycles: null,
      maxCycles: null,
    },
    lines,
    // A contract from checkout ships to the address given there: the customer's (default) address here.
    deliveryAddress: customer.address ? { ...customer.address } : null,
  };
  shop.contracts[id] = contract;
  return ok(contract, [{ topic: "subscription_contracts/create", payload: contractPayload(contract), app: contract.app }]);
}

/** This app's contract, or undefined: another app's contract is as good as missing. */
export const ownContract = (shop: ShopState, id: unknown): Contract | undefined => {
  const c = typeof id === "string" ? shop.contracts[id] : undefined;
  return c && c.app === "self" ? c : undefined;
};

function touch(c: Contract, now: Date): SimEvent[] {
  c.updatedAt = now.toISOString();
  c.revisionId += 1;
  return [{ topic: "subscription_contracts/update", payload: contractPayload(c), app: c.app }];
}

const STATUS_TOPIC: Partial<Record<ContractStatus, string>> = {
  PAUSED: "subscription_contracts/pause",
  ACTIVE: "subscription_contracts/activate",
  CANCELLED: "subscription_contracts/cancel",
};

/**
 * Pause / activate / cancel. A terminal contract refuses every change (cancelling a cancelled
 * contract included, as Shopify does); otherwise the same status again is a successful no-op.
 */
export function setStatus(shop: ShopState, contractId: unknown, target: "PAUSED" | "ACTIVE" | "CANCELLED", now: Date): Outcome<Contract> {
  const c = ownContract(shop, contractId);
  if (!c) return refuse("Contract does not exist", ["subscriptionContractId"]);
  if (TERMINAL.includes(c.status)) {
    return refuse(`Contract can't transition from ${c.status.toLowerCase()} to ${target.toLowerCase()}`, null, "CONTRACT_TERMINATED");
  }
  if (c.status === target) return ok(c);
  c.status = target;
  const events = touch(c, now);
  const topic = STATUS_TOPIC[target];
  if (topic) events.push({ topic, payload: contractPayload(c), app: c.app });
  return ok(c, events);
}

export function setNextBillingDate(shop: ShopState, contractId: unknown, date: unknown, now: Date): Outcome<Contract> {
  const c = ownContract(shop, contractId);
  if (!c) return refuse("Contract does not exist", ["contractId"]);
  const parsed = typeof date === "string" ? new Date(date) : new Date(NaN);
  if (Number.isNaN(parsed.getTime())) return refuse("Date is invalid", ["date"]);
  if (parsed.getTime() <= now.getTime()) return refuse("Next billing date must be in the future", ["date"]);
  if (TERMINAL.includes(c.status)) return refuse("Contract is no longer active", null);
  c.nextBillingDate = parsed.toISOString();
  return ok(c, touch(c, now));
}

export interface SkipSelector {
  index?: unknown;
  date?: unknown;
}

export interface SkippedCycle {
  contractId: string;
  cycleIndex: number;
  /** The previous cycle's billing date (the contract's creation for the first cycle). */
  cycleStartAt: string;
  /** = the billing date of the cycle. */
  cycleEndAt: string;
  billingAttemptExpectedDate: string;
}

export function skipBillingCycle(shop: ShopState, contractId: unknown, selector: SkipSelector | undefined, now: Date): Outcome<SkippedCycle> {
  const c = ownContract(shop, contractId);
  if (!c) return refuse("Contract does not exist", ["billingCycleInput", "contractId"]);
  if (TERMINAL.includes(c.status)) return refuse("Contract is no longer active", null);
  let index: number | undefined;
  if (typeof selector?.index === "number") {
    if (!Number.isInteger(selector.index) || selector.index < 1) {
      return refuse("Billing cycle index must be at least 1", ["billingCycleInput", "selector", "index"]);
    }
    index = selector.index;
  } else if (typeof selector?.date === "string") {
    const wanted = selector.date;
    if (Number.isNaN(new Date(wanted).getTime())) return refuse("Date is invalid", ["billingCycleInput", "selector", "date"]);
    for (let i = 1; i <= 1000 && !index; i++) {
      const d = cycleDate(c, i);
      if (sameDay(d, new Date(wanted).toISOString())) index = i;
      if (d > new Date(wanted).toISOString()) break;
    }
    if (!index) return refuse("No billing cycle on that date", ["billingCycleInput", "selector", "date"]);
  } else {
    return refuse("Select a billing cycle by index or date", ["billingCycleInput", "selector"]);
  }
  const date = cycleDate(c, index);
  if (date < now.toISOString()) return refuse("Billing cycle is in the past", ["billingCycleInput", "selector"]);
  const events: SimEvent[] = [];
  if (!c.skippedCycles.includes(index)) {
    c.skippedCycles.push(index);
    events.push({ topic: "subscription_billing_cycles/skip", payload: billingCycleSkipPayload(c, index, date), app: c.app });
    // Skipping the cycle due next moves the next charge to the next cycle not skipped.
    if (sameDay(c.nextBillingDate, date)) {
      let next = index + 1;
      while (c.skippedCycles.includes(next)) next++;
      c.nextBillingDate = cycleDate(c, next);
      events.unshift(...touch(c, now));
    }
  }
  const cycleStartAt = index > 1 ? cycleDate(c, index - 1) : c.createdAt;
  return ok({ contractId: c.id, cycleIndex: index, cycleStartAt, cycleEndAt: date, billingAttemptExpectedDate: date }, events);
}

export function openDraft(state: SimState, shop: ShopState, contractId: unknown, now: Date): Outcome<Draft> {
  const c = ownContract(shop, contractId);
  if (!c) return refuse("Contract does not exist", ["contractId"]);
  if (TERMINAL.includes(c.status)) return refuse("Contract is no longer active", null);
  // Abandoned drafts are how a refused edit ends; forget them after a day so the state stays small.
  const dayAgo = new Date(now.getTime() - 86400_000).toISOString();
  for (const d of Object.values(shop.drafts)) if (d.createdAt < dayAgo) delete shop.drafts[d.id];
  const draft: Draft = {
    id: newGid(state, "SubscriptionDraft"),
    contractId: c.id,
    baseRevisionId: c.revisionId,
    lines: structuredClone(c.lines),
    createdAt: now.toISOString(),
  };
  shop.drafts[draft.id] = draft;
  return ok(draft);
}

export function updateDraftLine(
  shop: ShopState,
  draftId: unknown,
  lineId: unknown,
  input: { quantity?: unknown; productVariantId?: unknown; currentPrice?: unknown; customAttributes?: unknown } | undefined,
): Outcome<{ draft: Draft; line: Line }> {
  const draft = typeof draftId === "string" ? shop.drafts[draftId] : undefined;
  if (!draft) return refuse("Draft does not exist", ["draftId"]);
  const line = draft.lines.find((l) => l.id === lineId);
  if (!line) return refuse("Line does not exist", ["lineId"]);
  // Validate everything before changing anything: a refused update leaves the draft as it was.
  if (input?.quantity !== undefined && (typeof input.quantity !== "number" || !Number.isInteger(input.quantity) || input.quantity < 1)) {
    return refuse("Quantity must be greater than or equal to 1", ["input", "quantity"], "GREATER_THAN_OR_EQUAL_TO");
  }
  let variant: Variant | undefined;
  if (input?.productVariantId !== undefined) {
    variant = typeof input.productVariantId === "string" ? shop.variants[input.productVariantId] : undefined;
    if (!variant) return refuse("Product variant does not exist", ["input", "productVariantId"], "INVALID");
  }
  const currency = shop.contracts[draft.contractId]?.currencyCode ?? shop.currencyCode;
  let price: string | undefined;
  if (input?.currentPrice !== undefined) {
    const raw = input.currentPrice;
    // Shopify keeps a price to its currency's precision (three decimals in KWD, none in JPY).
    try {
      if (typeof raw !== "string" && typeof raw !== "number") throw new Error("not a decimal");
      price = normalizeDecimal(raw, currency);
    } catch {
      return refuse("Price is invalid", ["input", "currentPrice"]);
    }
  }
  let attributes: { key: string; value: string }[] | undefined;
  if (input?.customAttributes !== undefined && input.customAttributes !== null) {
    const list = input.customAttributes as { key?: unknown; value?: unknown }[];
    if (!Array.isArray(list) || list.some((a) => typeof a?.key !== "string" || a.key === "" || typeof a.value !== "string")) {
      return refuse("Custom attributes are invalid", ["input", "customAttributes"]);
    }
    attributes = list.map((a) => ({ key: a.key as string, value: a.value as string }));
  }
  if (typeof input?.quantity === "number") line.quantity = input.quantity;
  if (attributes) line.customAttributes = attributes; // replaces the list, as Shopify's input does
  if (variant) {
    line.variantId = variant.id;
    line.productId = variant.productId;
    line.title = shop.products[variant.productId]?.title ?? line.title;
    line.variantTitle = variant.title === "Default Title" ? null : variant.title;
    line.price = variant.price;
  }
  if (price !== undefined) line.price = price;
  return ok({ draft, line });
}

/**
 * subscriptionDraftUpdate, as far as the app uses it: deliveryMethod.shipping.address. Shopify
 * refuses a shipping address without its street, city or country (INVALID on the field).
 */
export function updateDraft(
  shop: ShopState,
  draftId: unknown,
  input: { deliveryMethod?: { shipping?: { address?: MailingAddressRaw | null } | null } | null } | undefined,
): Outcome<Draft> {
  const draft = typeof draftId === "string" ? shop.drafts[draftId] : undefined;
  if (!draft) return refuse("Draft does not exist", ["draftId"]);
  const address = input?.deliveryMethod?.shipping?.address;
  if (address) {
    for (const field of ["address1", "city", "countryCode"] as const) {
      if (!address[field]) return refuse(`${field} can't be blank`, ["input", "deliveryMethod", "shipping", "address", field], "INVALID");
    }
    draft.deliveryAddress = toAddress(address);
  }
  return ok(draft);
}

export function commitDraft(shop: ShopState, draftId: unknown, now: Date): Outcome<Contract> {
  const draft = typeof draftId === "string" ? shop.drafts[draftId] : undefined;
  if (!draft) return refuse("Draft does not exist", ["draftId"]);
  const c = ownContract(shop, draft.contractId);
  if (!c) return refuse("Contract does not exist", ["draftId"]);
  if (c.revisionId !== draft.baseRevisionId) {
    delete shop.drafts[draft.id];
    return refuse("The contract changed since this draft was created", null, "STALE_CONTRACT");
  }
  if (TERMINAL.includes(c.status)) return refuse("Contract is no longer active", null);
  c.lines = draft.lines;
  if (draft.deliveryAddress) c.deliveryAddress = draft.deliveryAddress;
  delete shop.drafts[draft.id];
  return ok(c, touch(c, now));
}
