// Every change to a shop's data: seeding (control API) and the transitions behind the Admin
// GraphQL mutations. Each transition either refuses with Shopify-like userErrors and changes
// nothing, or applies the change and returns the webhooks it causes. Pure data in, data out:
// no HTTP here, so the rules are unit-testable. A refusal's `code` must be a value of the
// payload's userError code enum in Shopify's schema (the simulator's answers are serialized
// through it: an unknown code is an error there, as it would be a contract break on Shopify).
import {
  newGid,
  nextNumericId,
  randomToken,
  numericIdOf,
  type Address,
  type Anchor,
  type AppOwner,
  type Contract,
  type ContractStatus,
  type Customer,
  type Draft,
  type Interval,
  type Line,
  type PaymentInstrument,
  type PaymentMethod,
  type Policy,
  type SellingPlanGroup,
  type ShopState,
  type SimState,
  type Variant,
  type Outcome,
  type PaymentBehavior,
  type SimEvent,
} from "./state";
import { billingCycleSkipPayload, contractPayload, sellingPlanGroupPayload } from "./payloads";
import { normalizeDecimal } from "./decimal";

const ok = <T>(value: T, events: SimEvent[] = []): Outcome<T> => ({ ok: true, value, events });
const refuse = <T>(message: string, field: string[] | null = null, code: string | null = "INVALID"): Outcome<T> => ({
  ok: false,
  userErrors: [{ field, message, code }],
});

const TERMINAL: ContractStatus[] = ["CANCELLED", "EXPIRED"];

// ---------------------------------------------------------------------------------------------
// Dates

export function addInterval(iso: string, interval: Interval, count: number): string {
  const d = new Date(iso);
  if (interval === "DAY") d.setUTCDate(d.getUTCDate() + count);
  else if (interval === "WEEK") d.setUTCDate(d.getUTCDate() + 7 * count);
  else if (interval === "MONTH") d.setUTCMonth(d.getUTCMonth() + count);
  else d.setUTCFullYear(d.getUTCFullYear() + count);
  return d.toISOString();
}

export const cycleDate = (c: Contract, index: number) => addInterval(c.cycleAnchor, c.billingPolicy.interval, c.billingPolicy.intervalCount * (index - 1));

const sameDay = (a: string, b: string) => a.slice(0, 10) === b.slice(0, 10);

// ---------------------------------------------------------------------------------------------
// Seeding (control API)

export interface ShopInput {
  shop: string;
  name?: string;
  email?: string;
  currencyCode?: string;
  plan?: string;
  partnerDevelopment?: boolean;
  shopifyPlus?: boolean;
  accessToken?: string;
  scope?: string;
}

export const DEFAULT_SCOPE =
  "read_own_subscription_contracts,write_own_subscription_contracts,read_customers,read_products,write_products,read_customer_payment_methods";

/** Creates the shop if new, and installs the app (keeping a live token, minting one otherwise). */
export function installShop(state: SimState, input: ShopInput, now: Date): ShopState {
  let shop = state.shops[input.shop];
  if (!shop) {
    const partnerDevelopment = input.partnerDevelopment ?? false;
    shop = {
      domain: input.shop,
      numericId: nextNumericId(state),
      name: input.name ?? input.shop.replace(/\.myshopify\.com$/, ""),
      email: input.email ?? `owner@${input.shop}`,
      currencyCode: input.currencyCode ?? "USD",
      plan: {
        displayName: input.plan ?? (partnerDevelopment ? "Developer Preview" : "Basic"),
        partnerDevelopment,
        shopifyPlus: input.shopifyPlus ?? false,
      },
      createdAt: now.toISOString(),
      installation: null,
      products: {},
      variants: {},
      sellingPlanGroups: {},
      customers: {},
      contracts: {},
      drafts: {},
      customerAccessTokens: {},
      metafields: {},
      emails: [],
      operations: [],
      failures: [],
      deliveries: [],
    };
    state.shops[input.shop] = shop;
  } else {
    if (input.plan !== undefined) shop.plan.displayName = input.plan;
    if (input.partnerDevelopment !== undefined) shop.plan.partnerDevelopment = input.partnerDevelopment;
    if (input.shopifyPlus !== undefined) shop.plan.shopifyPlus = input.shopifyPlus;
  }
  const token = input.accessToken ?? shop.installation?.accessToken ?? randomToken("shpat_");
  shop.installation = {
    accessToken: token,
    scope: input.scope ?? shop.installation?.scope ?? DEFAULT_SCOPE,
    installedAt: shop.installation?.installedAt ?? now.toISOString(),
  };
  return shop;
}

export interface ProductInput {
  title: string;
  imageUrl?: string | null;
  variants?: { title?: string; price?: string; sku?: string | null; available?: boolean; imageUrl?: string | null }[];
}

export function createProduct(state: SimState, shop: ShopState, input: ProductInput) {
  const productId = newGid(state, "Product");
  const variants: Variant[] = (input.variants?.length ? input.variants : [{}]).map((v) => ({
    id: newGid(state, "ProductVariant"),
    productId,
    title: v.title ?? "Default Title",
    price: v.price ?? "10.00",
    sku: v.sku ?? null,
    available: v.available ?? true,
    imageUrl: v.imageUrl ?? null,
  }));
  for (const v of variants) shop.variants[v.id] = v;
  shop.products[productId] = { id: productId, title: input.title, imageUrl: input.imageUrl ?? null, variantIds: variants.map((v) => v.id) };
  return { ...shop.products[productId], variants };
}

export interface SellingPlanGroupInput {
  name: string;
  merchantCode?: string;
  app?: AppOwner;
  plans: { name: string; interval?: Interval; intervalCount?: number }[];
  variantIds?: string[];
}

export function createSellingPlanGroup(state: SimState, shop: ShopState, input: SellingPlanGroupInput): SellingPlanGroup {
  const group: SellingPlanGroup = {
    id: newGid(state, "SellingPlanGroup"),
    name: input.name,
    merchantCode: input.merchantCode ?? input.name.toLowerCase().replace(/\W+/g, "-"),
    app: input.app ?? "self",
    sellingPlans: input.plans.map((p) => ({
      id: newGid(state, "SellingPlan"),
      name: p.name,
      interval: p.interval ?? "MONTH",
      intervalCount: p.intervalCount ?? 1,
    })),
    variantIds: input.variantIds ?? [],
  };
  shop.sellingPlanGroups[group.id] = group;
  return group;
}

export interface SellingPlanGroupPatch {
  name?: string;
  /** Replaces the group's plans: each gets a new id, as when a merchant recreates them in admin. */
  plans?: SellingPlanGroupInput["plans"];
  variantIds?: string[];
}

/**
 * A merchant's edit of a selling plan group in Shopify admin. Sends selling_plan_groups/update,
 * which (like Shopify's) carries no child plan ids: the app re-reads the group.
 */
export function updateSellingPlanGroup(state: SimState, shop: ShopState, id: string, patch: SellingPlanGroupPatch): Outcome<SellingPlanGroup> {
  const group = shop.sellingPlanGroups[id];
  if (!group) return refuse("Selling plan group does not exist", ["id"], "GROUP_DOES_NOT_EXIST");
  const unknown = (patch.variantIds ?? []).filter((v) => !shop.variants[v]);
  if (unknown.length) return refuse(`Product variant does not exist: ${unknown.join(", ")}`, ["productVariantIds"], "PRODUCT_VARIANT_DOES_NOT_EXIST");
  if (patch.name !== undefined) group.name = patch.name;
  if (patch.plans) {
    group.sellingPlans = patch.plans.map((p) => ({
      id: newGid(state, "SellingPlan"),
      name: p.name,
      interval: p.interval ?? "MONTH",
      intervalCount: p.intervalCount ?? 1,
    }));
  }
  if (patch.variantIds) group.variantIds = [...patch.variantIds];
  return ok(group, [{ topic: "selling_plan_groups/update", payload: sellingPlanGroupPayload(shop, group), app: group.app }]);
}

export interface CustomerInput {
  firstName?: string;
  lastName?: string;
  email?: string | null;
  phone?: string | null;
  address?: Customer["address"];
  /** Default: a Visa ending 4242; null for a customer without a vaulted method. */
  paymentMethod?: (PaymentInstrument & { billing?: PaymentBehavior }) | null;
}

export function createCustomer(state: SimState, shop: ShopState, input: CustomerInput): Customer {
  const id = newGid(state, "Customer");
  const n = numericIdOf(id);
  const instrument: (PaymentInstrument & { billing?: PaymentBehavior }) | null =
    input.paymentMethod === undefined
      ? { kind: "credit_card", brand: "visa", last4: "4242", expiryMonth: 12, expiryYear: new Date().getUTCFullYear() + 3 }
      : input.paymentMethod;
  const customer: Customer = {
    id,
    firstName: input.firstName ?? "Customer",
    lastName: input.lastName ?? String(n),
    email: input.email === undefined ? `customer${n}@example.com` : input.email,
    phone: input.phone ?? null,
    address: input.address ?? { address1: "1 Main Street", city: "Ottawa", province: "ON", country: "CA", zip: "K1A 0A1" },
    paymentMethods: instrument ? [{ ...instrument, id: newGid(state, "CustomerPaymentMethod"), revokedAt: null }] : [],
  };
  shop.customers[id] = customer;
  indexEmail(shop, customer);
  return customer;
}

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
  lines?: { variantId?: string; quantity?: number; price?: string; sellingPlanId?: string | null }[];
}

function planName(shop: ShopState, planId: string | null | undefined): string | null {
  if (!planId) return null;
  for (const g of Object.values(shop.sellingPlanGroups)) {
    const p = g.sellingPlans.find((x) => x.id === planId);
    if (p) return p.name;
  }
  return null;
}

function lineFor(state: SimState, shop: ShopState, variant: Variant, quantity: number, price?: string, sellingPlanId?: string | null): Line {
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
    lines.push(lineFor(state, shop, variant, l.quantity ?? 1, l.price, l.sellingPlanId));
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
  };
  shop.contracts[id] = contract;
  return ok(contract, [{ topic: "subscription_contracts/create", payload: contractPayload(contract), app: contract.app }]);
}

export function mintCustomerAccessToken(shop: ShopState, customerId: string, now: Date, ttlSeconds = 3600): string | null {
  if (!shop.customers[customerId]) return null;
  const token = randomToken("shcat_");
  shop.customerAccessTokens[token] = { customerId, expiresAt: new Date(now.getTime() + ttlSeconds * 1000).toISOString() };
  return token;
}

// ---------------------------------------------------------------------------------------------
// Contract transitions (Admin GraphQL mutations)

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
  delete shop.drafts[draft.id];
  return ok(c, touch(c, now));
}

// ---------------------------------------------------------------------------------------------
// Customers, payment methods, metafields

export function findPaymentMethod(shop: ShopState, id: unknown) {
  for (const customer of Object.values(shop.customers)) {
    const method = customer.paymentMethods.find((m) => m.id === id);
    if (method) return { customer, method };
  }
  return undefined;
}

export function sendPaymentMethodUpdateEmail(state: SimState, shop: ShopState, paymentMethodId: unknown, now: Date): Outcome<Customer> {
  const found = findPaymentMethod(shop, paymentMethodId);
  if (!found) return refuse("Customer payment method does not exist", ["customerPaymentMethodId"], "PAYMENT_METHOD_DOES_NOT_EXIST");
  if (found.method.revokedAt) return refuse("Customer payment method is revoked", null, "PAYMENT_METHOD_REVOKED");
  if (!found.customer.email) return refuse("Customer has no e-mail address", null, "CUSTOMER_DOES_NOT_HAVE_EMAIL");
  shop.emails.push({
    id: newGid(state, "Email"),
    kind: "payment_method_update",
    to: found.customer.email,
    customerId: found.customer.id,
    paymentMethodId: found.method.id,
    sentAt: now.toISOString(),
  });
  return ok(found.customer);
}

const METAFIELD_TYPES = new Set([
  "single_line_text_field",
  "multi_line_text_field",
  "json",
  "boolean",
  "number_integer",
  "number_decimal",
  "date",
  "date_time",
  "url",
  "color",
  "product_reference",
  "variant_reference",
  "list.product_reference",
  "list.variant_reference",
  "list.single_line_text_field",
]);

function validMetafieldValue(type: string, value: string): boolean {
  try {
    if (type === "json" || type.startsWith("list.")) return JSON.parse(value) !== undefined;
  } catch {
    return false;
  }
  if (type === "boolean") return value === "true" || value === "false";
  if (type === "number_integer") return /^-?\d+$/.test(value);
  if (type === "number_decimal") return /^-?\d+(\.\d+)?$/.test(value);
  return true;
}

export interface MetafieldInputRaw {
  ownerId?: unknown;
  namespace?: unknown;
  key?: unknown;
  type?: unknown;
  value?: unknown;
}

export function setMetafields(state: SimState, shop: ShopState, inputs: unknown, now: Date): Outcome<{ id: string; namespace: string; key: string }[]> {
  if (!Array.isArray(inputs) || inputs.length === 0) return refuse("Metafields are required", ["metafields"], "BLANK");
  if (inputs.length > 25) return refuse("Exceeded the maximum metafields input limit of 25", ["metafields"], "LESS_THAN_OR_EQUAL_TO");
  // All or nothing: validate every input first.
  for (const [i, raw] of (inputs as MetafieldInputRaw[]).entries()) {
    const at = (f: string) => ["metafields", String(i), f];
    if (typeof raw.ownerId !== "string" || !raw.ownerId.startsWith("gid://shopify/")) return refuse("Owner id is invalid", at("ownerId"));
    if (typeof raw.namespace !== "string" || raw.namespace.length < 2 || raw.namespace.length > 255) return refuse("Namespace is invalid", at("namespace"));
    if (typeof raw.key !== "string" || raw.key.length < 2 || raw.key.length > 64) return refuse("Key is invalid", at("key"));
    if (typeof raw.type !== "string" || !METAFIELD_TYPES.has(raw.type)) return refuse(`Type ${String(raw.type)} is not supported`, at("type"));
    if (typeof raw.value !== "string" || !validMetafieldValue(raw.type, raw.value)) return refuse(`Value is invalid for type ${raw.type}`, at("value"));
  }
  const out = (inputs as Required<{ [K in keyof MetafieldInputRaw]: string }>[]).map((m) => {
    const storeKey = `${m.ownerId}|${m.namespace}|${m.key}`;
    const existing = shop.metafields[storeKey];
    const id = existing?.id ?? newGid(state, "Metafield");
    shop.metafields[storeKey] = { id, ownerId: m.ownerId, namespace: m.namespace, key: m.key, type: m.type, value: m.value, updatedAt: now.toISOString() };
    return { id, namespace: m.namespace, key: m.key };
  });
  return ok(out);
}

// ---------------------------------------------------------------------------------------------
// Migration import (docs/decisions/085-migration-import.md): customers created and looked up by
// e-mail, remote payment method references, and subscriptionContractAtomicCreate.

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Customers by lowercased e-mail, per shop object (a reset or a reload makes new ones): built on
 * first use, then kept by every function here that gives a customer an e-mail (indexEmail). A
 * lookup among thousands of customers is then one map read, not a scan.
 */
const EMAIL_INDEX = new WeakMap<ShopState, Map<string, string>>();

function emailIndex(shop: ShopState): Map<string, string> {
  let index = EMAIL_INDEX.get(shop);
  if (!index) {
    index = new Map();
    for (const c of Object.values(shop.customers)) if (c.email && !index.has(c.email.toLowerCase())) index.set(c.email.toLowerCase(), c.id);
    EMAIL_INDEX.set(shop, index);
  }
  return index;
}

function indexEmail(shop: ShopState, customer: Customer, previous: string | null = null): void {
  // A changed e-mail (rare) drops the index, rebuilt at the next lookup: another customer may
  // share the old one (seeded shops may hold duplicates; the first one holds the entry).
  if (previous && previous.toLowerCase() !== customer.email?.toLowerCase()) return void EMAIL_INDEX.delete(shop);
  if (!customer.email) return;
  const index = emailIndex(shop);
  const key = customer.email.toLowerCase();
  const holder = index.has(key) ? shop.customers[index.get(key)!] : undefined;
  if (holder?.email?.toLowerCase() !== key) index.set(key, customer.id);
}

export const customerByEmail = (shop: ShopState, email: unknown): Customer | undefined => {
  if (typeof email !== "string") return undefined;
  const wanted = email.trim().toLowerCase();
  const id = emailIndex(shop).get(wanted);
  const found = id ? shop.customers[id] : undefined;
  return found?.email?.toLowerCase() === wanted ? found : undefined;
};

export interface CustomerCreateRaw {
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
}

/** customerCreate: e-mail and phone are unique per shop, as on Shopify. No payment method is vaulted. */
export function createCustomerViaApi(state: SimState, shop: ShopState, input: CustomerCreateRaw): Outcome<Customer> {
  const email = input.email?.trim() || null;
  const phone = input.phone?.trim() || null;
  if (!email && !phone && !input.firstName && !input.lastName) {
    return refuse("A name, phone number, or email address must be present", null, null);
  }
  if (email && !EMAIL.test(email)) return refuse("Email is invalid", ["email"], null);
  if (email && customerByEmail(shop, email)) return refuse("Email has already been taken", ["email"], null);
  if (phone && !/^\+?[0-9 ()-]{5,20}$/.test(phone)) return refuse("Phone is invalid", ["phone"], null);
  if (phone && Object.values(shop.customers).some((c) => c.phone === phone)) return refuse("Phone has already been taken", ["phone"], null);
  const id = newGid(state, "Customer");
  const customer: Customer = {
    id,
    firstName: input.firstName ?? "",
    lastName: input.lastName ?? "",
    email,
    phone,
    address: null,
    paymentMethods: [],
  };
  shop.customers[id] = customer;
  indexEmail(shop, customer);
  return ok(customer);
}

export interface CustomerSetRaw extends CustomerCreateRaw {
  addresses?: MailingAddressRaw[] | null;
}

/** customerSet's identifier (@oneOf: graphql-js has already refused zero or several). */
export interface CustomerSetIdentifierRaw {
  id?: string | null;
  email?: string | null;
  phone?: string | null;
}

/**
 * customerSet: the customer named by `identifier` updated (fields given replace theirs, the
 * addresses list replaces theirs), or created when there is no identifier or it matches nobody.
 * E-mail and phone stay unique in the shop (TAKEN); an identifier e-mail or phone that differs
 * from the input's is INPUT_MISMATCH. The simulator keeps one address, the first given.
 */
export function setCustomerViaApi(state: SimState, shop: ShopState, input: CustomerSetRaw, identifier: CustomerSetIdentifierRaw | null): Outcome<Customer> {
  const at = (f: string) => ["input", f];
  const email = input.email === undefined ? undefined : input.email?.trim() || null;
  const phone = input.phone === undefined ? undefined : input.phone?.trim() || null;
  if (identifier?.email && email && identifier.email.toLowerCase() !== email.toLowerCase()) {
    return refuse("The identifier value does not match the value of the corresponding field in the input", at("email"), "INPUT_MISMATCH");
  }
  if (identifier?.phone && phone && identifier.phone !== phone) {
    return refuse("The identifier value does not match the value of the corresponding field in the input", at("phone"), "INPUT_MISMATCH");
  }
  const existing = identifier?.id
    ? shop.customers[identifier.id]
    : identifier?.email
      ? customerByEmail(shop, identifier.email)
      : identifier?.phone
        ? Object.values(shop.customers).find((c) => c.phone === identifier.phone)
        : undefined;
  if (identifier?.id && !existing) return refuse("Customer does not exist", ["identifier", "id"], "NOT_FOUND");
  if (!existing && !email && !phone && !input.firstName && !input.lastName && !identifier?.email && !identifier?.phone) {
    return refuse("A name, phone number, or email address must be present", null, "BLANK");
  }
  if (email && !EMAIL.test(email)) return refuse("Email is invalid", at("email"), "INVALID");
  const holder = email ? customerByEmail(shop, email) : undefined;
  if (holder && holder !== existing) return refuse("Email has already been taken", at("email"), "TAKEN");
  if (phone && !/^\+?[0-9 ()-]{5,20}$/.test(phone)) return refuse("Phone is invalid", at("phone"), "INVALID");
  if (phone && Object.values(shop.customers).some((c) => c.phone === phone && c !== existing))
    return refuse("Phone has already been taken", at("phone"), "TAKEN");
  const addresses = input.addresses ?? undefined;
  if (addresses?.some((a) => !a.address1 && !a.city && !a.countryCode)) return refuse("Address is blank", at("addresses"), "BLANK");
  const customer: Customer = existing ?? {
    id: newGid(state, "Customer"),
    firstName: "",
    lastName: "",
    email: identifier?.email ?? null,
    phone: identifier?.phone ?? null,
    address: null,
    paymentMethods: [],
  };
  const previousEmail = customer.email;
  if (input.firstName !== undefined) customer.firstName = input.firstName ?? "";
  if (input.lastName !== undefined) customer.lastName = input.lastName ?? "";
  if (email !== undefined) customer.email = email;
  if (phone !== undefined) customer.phone = phone;
  if (addresses !== undefined) customer.address = addresses.length ? toAddress(addresses[0]) : null;
  shop.customers[customer.id] = customer;
  indexEmail(shop, customer, previousEmail);
  return ok(customer);
}

export interface MailingAddressRaw {
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  company?: string | null;
  countryCode?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
  provinceCode?: string | null;
  zip?: string | null;
}

/**
 * The simulator keeps codes where Shopify keeps both a name and a code (it has no table of
 * country and province names): province and country read back as the codes given.
 */
const toAddress = (a: MailingAddressRaw): Address => ({
  address1: a.address1 ?? "",
  address2: a.address2 ?? null,
  city: a.city ?? "",
  company: a.company ?? null,
  country: a.countryCode ?? "",
  province: a.provinceCode ?? null,
  zip: a.zip ?? "",
  firstName: a.firstName ?? null,
  lastName: a.lastName ?? null,
  phone: a.phone ?? null,
});

/** customerAddressCreate: the simulator keeps one address per customer, the default one. */
export function addCustomerAddress(shop: ShopState, customerId: unknown, address: MailingAddressRaw): Outcome<{ customer: Customer; address: Address }> {
  const customer = typeof customerId === "string" ? shop.customers[customerId] : undefined;
  if (!customer) return refuse("Customer does not exist", ["customerId"], null);
  if (!address.address1 && !address.city && !address.countryCode) return refuse("Address is blank", ["address"], null);
  customer.address = toAddress(address);
  return ok({ customer, address: customer.address });
}

export interface RemoteReferenceRaw {
  stripePaymentMethod?: { customerId: string; paymentMethodId: string } | null;
  braintreePaymentMethod?: { customerId: string; paymentMethodToken: string } | null;
  authorizeNetCustomerPaymentProfile?: { customerProfileId: string; customerPaymentProfileId: string } | null;
}

/** customerPaymentMethodRemoteCreate: exactly one remote reference, for a customer of the shop. */
export function createRemotePaymentMethod(state: SimState, shop: ShopState, customerId: unknown, ref: RemoteReferenceRaw) {
  type R = Outcome<{ customer: Customer; method: PaymentMethod }>;
  const customer = typeof customerId === "string" ? shop.customers[customerId] : undefined;
  if (!customer) return refuse("Customer does not exist", ["customerId"], "INVALID") as R;
  const given = [ref.stripePaymentMethod, ref.braintreePaymentMethod, ref.authorizeNetCustomerPaymentProfile].filter(Boolean);
  if (given.length !== 1) return refuse("Exactly one remote reference is required", ["remoteReference"], "EXACTLY_ONE_REMOTE_REFERENCE_REQUIRED") as R;
  const instrument: PaymentInstrument = ref.stripePaymentMethod
    ? {
        kind: "remote",
        gateway: "stripe",
        remoteCustomerId: ref.stripePaymentMethod.customerId,
        remotePaymentMethodId: ref.stripePaymentMethod.paymentMethodId,
      }
    : ref.braintreePaymentMethod
      ? {
          kind: "remote",
          gateway: "braintree",
          remoteCustomerId: ref.braintreePaymentMethod.customerId,
          remotePaymentMethodId: ref.braintreePaymentMethod.paymentMethodToken,
        }
      : {
          kind: "remote",
          gateway: "authorize_net",
          remoteCustomerId: ref.authorizeNetCustomerPaymentProfile!.customerProfileId,
          remotePaymentMethodId: ref.authorizeNetCustomerPaymentProfile!.customerPaymentProfileId,
        };
  if (!instrument.remoteCustomerId || !instrument.remotePaymentMethodId) {
    return refuse("Remote reference is blank", ["remoteReference"], "INVALID") as R;
  }
  const method: PaymentMethod = { ...instrument, id: newGid(state, "CustomerPaymentMethod"), revokedAt: null };
  customer.paymentMethods.push(method);
  return ok({ customer, method }) as R;
}

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
