// Stored objects → objects of Shopify's Admin GraphQL types, for graphql-js to execute against
// (graphql-exec.ts). Each key is a field of the Shopify type, named as in the schema; a field
// that takes arguments (connections, `appliesToProductVariant(...)`) is a function of its
// arguments. Only the fields listed here are simulated: selecting another field of the type is
// a NOT_SIMULATED error, never a silent null (docs/simulator.md#how-to-add-an-operation).
import { fieldError } from "./graphql-exec";
import type { Address, Contract, Customer, Draft, Line, PaymentMethod, Product, SellingPlanGroup, ShopState, Variant } from "./state";
import { numericIdOf } from "./state";

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
  reverse?: boolean | null;
}

/** Shopify's page size cap for connections. */
export const MAX_PAGE = 250;

const encodeCursor = (key: string) => Buffer.from(key).toString("base64url");
const decodeCursor = (cursor: string) => Buffer.from(cursor, "base64url").toString();

/**
 * A Relay connection over `items` (already in their default order), as Shopify pages: `first`
 * or `last` is required and at most 250; cursors are opaque; `reverse` flips the order. `toNode`
 * shapes only the items on the page (a shop may hold a million contracts).
 */
/**
 * True while a bulk operation's query runs (bulk-operations.ts): Shopify walks every item of
 * every connection of a bulk query, whatever `first`/`last` say, and needs neither.
 */
let unpaged = false;
export function withUnpagedConnections<T>(work: () => T): T {
  unpaged = true;
  try {
    return work();
  } finally {
    unpaged = false;
  }
}

export function connection<T, N = T>(items: T[], args: ConnectionArgs, keyOf: (item: T) => string, toNode?: (item: T) => N) {
  if (unpaged) args = { reverse: args.reverse, first: items.length };
  const { first, last, after, before, reverse } = args;
  if (first == null && last == null) throw fieldError("you must provide one of first or last", "BAD_REQUEST");
  for (const n of unpaged ? [] : [first, last]) {
    if (n != null && (n < 0 || n > MAX_PAGE)) throw fieldError(`The page size must be between 0 and ${MAX_PAGE}`, "BAD_REQUEST");
  }
  let list = reverse ? [...items].reverse() : items;
  if (after) {
    const i = list.findIndex((item) => keyOf(item) === decodeCursor(after));
    if (i >= 0) list = list.slice(i + 1);
  }
  if (before) {
    const i = list.findIndex((item) => keyOf(item) === decodeCursor(before));
    if (i >= 0) list = list.slice(0, i);
  }
  const total = list.length;
  if (first != null) list = list.slice(0, first);
  if (last != null) list = list.slice(Math.max(0, list.length - last));
  const edges = list.map((item) => ({ node: toNode ? toNode(item) : (item as unknown as N), cursor: encodeCursor(keyOf(item)) }));
  return {
    nodes: edges.map((e) => e.node),
    edges,
    pageInfo: {
      hasNextPage: first != null ? total > list.length : false,
      hasPreviousPage: last != null ? total > list.length : Boolean(after),
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

/** The id's numeric part as the sort and cursor key: Shopify lists by id by default. */
export const idKey = (item: { id: string }) => String(numericIdOf(item.id)).padStart(16, "0");

const money = (amount: string, currencyCode: string) => ({ amount, currencyCode });

export function gqlLine(l: Line, currencyCode: string) {
  return {
    __typename: "SubscriptionLine",
    id: l.id,
    productId: l.productId,
    variantId: l.variantId,
    title: l.title,
    variantTitle: l.variantTitle,
    quantity: l.quantity,
    currentPrice: money(l.price, currencyCode),
    sellingPlanId: l.sellingPlanId,
    sellingPlanName: l.sellingPlanName,
    customAttributes: (l.customAttributes ?? []).map((a) => ({ __typename: "Attribute", key: a.key, value: a.value })),
  };
}

export function gqlPaymentMethod(m: PaymentMethod, customer: Customer) {
  // A remote reference is vaulted asynchronously by Shopify: until then the instrument is null.
  const instrument =
    m.kind === "remote"
      ? null
      : m.kind === "credit_card"
        ? { __typename: "CustomerCreditCard", brand: m.brand, lastDigits: m.last4, expiryMonth: m.expiryMonth, expiryYear: m.expiryYear }
        : m.kind === "shop_pay"
          ? { __typename: "CustomerShopPayAgreement", lastDigits: m.last4, expiryMonth: m.expiryMonth, expiryYear: m.expiryYear }
          : { __typename: "CustomerPaypalBillingAgreement", paypalAccountEmail: m.paypalEmail };
  return { __typename: "CustomerPaymentMethod", id: m.id, revokedAt: m.revokedAt, instrument, customer: gqlCustomer(customer) };
}

/** A stored address as Shopify's MailingAddress; fields the seed never gave fall back to the customer's. */
export function gqlMailingAddress(a: Address, c: Customer | null) {
  return {
    __typename: "MailingAddress",
    firstName: a.firstName !== undefined ? a.firstName : (c?.firstName ?? null),
    lastName: a.lastName !== undefined ? a.lastName : (c?.lastName ?? null),
    company: a.company ?? null,
    address1: a.address1,
    address2: a.address2 ?? null,
    city: a.city,
    province: a.province,
    provinceCode: a.province,
    zip: a.zip,
    country: a.country,
    countryCodeV2: /^[A-Z]{2}$/.test(a.country) ? a.country : null,
    phone: a.phone !== undefined ? a.phone : (c?.phone ?? null),
  };
}

/** Shopify's CustomerEmailAddress: the address with its marketing consent (`marketingState`). */
function gqlEmailAddress(c: Customer, shop?: ShopState) {
  const n = numericIdOf(c.id);
  const base = `https://${shop?.domain ?? "shop.myshopify.com"}`;
  return {
    __typename: "CustomerEmailAddress",
    emailAddress: c.email,
    marketingState: c.marketingState ?? "NOT_SUBSCRIBED",
    marketingOptInLevel: c.marketingState === "SUBSCRIBED" ? "SINGLE_OPT_IN" : null,
    marketingUpdatedAt: null,
    marketingUnsubscribeUrl: `${base}/unsubscribe?customer=${n}`,
    openTrackingLevel: "UNKNOWN",
    openTrackingUrl: `${base}/open-tracking?customer=${n}`,
    validFormat: /^[^@\s]+@[^@\s]+$/.test(c.email ?? ""),
    sourceLocation: null,
  };
}

export function gqlCustomer(c: Customer, shop?: ShopState) {
  return {
    __typename: "Customer",
    id: c.id,
    firstName: c.firstName,
    lastName: c.lastName,
    displayName: `${c.firstName} ${c.lastName}`.trim(),
    defaultEmailAddress: c.email ? gqlEmailAddress(c, shop) : null,
    defaultPhoneNumber: c.phone ? { phoneNumber: c.phone } : null,
    // The simulator keeps one address per customer (the default one).
    defaultAddress: c.address ? gqlMailingAddress(c.address, c) : null,
    // This app's contracts of the customer (another app's stay invisible, as everywhere).
    subscriptionContracts: (args: ConnectionArgs) => {
      const own = shop ? Object.values(shop.contracts).filter((k) => k.app === "self" && k.customerId === c.id) : [];
      return connection(
        own.sort((a, b) => numericIdOf(a.id) - numericIdOf(b.id)),
        args,
        idKey,
        (k) => gqlContract(shop!, k),
      );
    },
  };
}

const policy = (p: Contract["billingPolicy"]) => ({
  interval: p.interval,
  intervalCount: p.intervalCount,
  anchors: p.anchors.map((a) => ({ day: a.day, month: a.month, type: a.type })),
  minCycles: p.minCycles,
  maxCycles: p.maxCycles,
});

export function gqlContract(shop: ShopState, c: Contract) {
  const lines = c.lines.map((l) => gqlLine(l, c.currencyCode));
  const owner = c.paymentMethodId ? Object.values(shop.customers).find((cu) => cu.paymentMethods.some((m) => m.id === c.paymentMethodId)) : undefined;
  const method = owner?.paymentMethods.find((m) => m.id === c.paymentMethodId);
  const customer = shop.customers[c.customerId];
  return {
    __typename: "SubscriptionContract",
    id: c.id,
    status: c.status,
    nextBillingDate: c.nextBillingDate,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    revisionId: String(c.revisionId),
    currencyCode: c.currencyCode,
    customer: customer ? gqlCustomer(customer, shop) : { __typename: "Customer", id: c.customerId },
    originOrder: c.originOrder ? { __typename: "Order", ...c.originOrder } : null,
    billingPolicy: policy(c.billingPolicy),
    deliveryPolicy: { interval: c.deliveryPolicy.interval, intervalCount: c.deliveryPolicy.intervalCount, anchors: c.deliveryPolicy.anchors },
    customAttributes: (c.customAttributes ?? []).map((a) => ({ __typename: "Attribute", key: a.key, value: a.value })),
    deliveryMethod: c.deliveryAddress ? { __typename: "SubscriptionDeliveryMethodShipping", address: gqlMailingAddress(c.deliveryAddress, null) } : null,
    lines: (args: ConnectionArgs) => connection(lines, args, (l) => l.id),
    // Shopify hides a revoked method unless asked with showRevoked: true.
    customerPaymentMethod: ({ showRevoked }: { showRevoked?: boolean | null }) =>
      method && owner && (!method.revokedAt || showRevoked) ? gqlPaymentMethod(method, owner) : null,
  };
}

/** A SubscriptionDraft: its id and the lines it projects (what commit will write). */
export function gqlDraft(shop: ShopState, d: Draft) {
  const currency = shop.contracts[d.contractId]?.currencyCode ?? shop.currencyCode;
  const lines = d.lines.map((l) => gqlLine(l, currency));
  return { __typename: "SubscriptionDraft", id: d.id, lines: (args: ConnectionArgs) => connection(lines, args, (l) => l.id) };
}

/** An image as Shopify's `Media` (a MediaImage), keyed by the owner's numeric id. */
function mediaImage(ownerId: string, url: string) {
  const image = { url, altText: null };
  return {
    __typename: "MediaImage",
    id: `gid://shopify/MediaImage/${numericIdOf(ownerId)}`,
    alt: null,
    mediaContentType: "IMAGE",
    status: "READY",
    image,
    preview: { image, status: "READY" },
  };
}

export function gqlVariant(shop: ShopState, v: Variant) {
  const product = shop.products[v.productId];
  const media = v.imageUrl ? [mediaImage(v.id, v.imageUrl)] : [];
  return {
    __typename: "ProductVariant",
    id: v.id,
    title: v.title,
    displayName: `${product?.title ?? ""} - ${v.title}`,
    price: v.price,
    sku: v.sku,
    availableForSale: v.available,
    media: (args: ConnectionArgs) => connection(media, args, (m) => m.id),
    // Deprecated in Shopify's schema (use media / featuredMedia), still answered for old callers.
    image: v.imageUrl ? { url: v.imageUrl, altText: null } : null,
    product: {
      __typename: "Product",
      id: v.productId,
      title: product?.title ?? "",
      featuredMedia: product?.imageUrl ? mediaImage(product.id, product.imageUrl) : null,
      featuredImage: product?.imageUrl ? { url: product.imageUrl, altText: null } : null,
    },
  };
}

/** A product with the selling plan groups it is sold on (any of its variants, any app's). */
export function gqlProduct(shop: ShopState, p: Product) {
  const groups = Object.values(shop.sellingPlanGroups)
    .filter((g) => g.variantIds.some((v) => p.variantIds.includes(v)))
    .sort((a, b) => numericIdOf(a.id) - numericIdOf(b.id));
  return {
    __typename: "Product",
    id: p.id,
    title: p.title,
    sellingPlanGroups: (args: ConnectionArgs) => connection(groups, args, idKey, (g) => gqlSellingPlanGroup(shop, g)),
  };
}

export function gqlSellingPlanGroup(shop: ShopState, g: SellingPlanGroup) {
  const plans = g.sellingPlans.map((p) => {
    const anchors = (p.policies?.anchors ?? []).map((a) => ({
      __typename: "SellingPlanAnchor",
      type: a.type,
      day: a.day,
      month: a.month,
      cutoffDay: a.cutoffDay,
    }));
    return {
      __typename: "SellingPlan",
      id: p.id,
      name: p.name,
      options: p.policies?.options ?? [p.name],
      billingPolicy: {
        __typename: "SellingPlanRecurringBillingPolicy",
        interval: p.interval,
        intervalCount: p.intervalCount,
        anchors,
        minCycles: p.policies?.minCycles ?? null,
        maxCycles: p.policies?.maxCycles ?? null,
      },
      deliveryPolicy: {
        __typename: "SellingPlanRecurringDeliveryPolicy",
        interval: p.interval,
        intervalCount: p.intervalCount,
        anchors,
        cutoff: p.policies?.cutoff ?? null,
        preAnchorBehavior: p.policies?.preAnchorBehavior ?? "ASAP",
        intent: "FULFILLMENT_BEGIN",
      },
    };
  });
  const variants = g.variantIds.flatMap((id) => (shop.variants[id] ? [gqlVariant(shop, shop.variants[id])] : []));
  return {
    __typename: "SellingPlanGroup",
    id: g.id,
    name: g.name,
    merchantCode: g.merchantCode,
    sellingPlans: (args: ConnectionArgs) => connection(plans, args, idKey),
    productVariants: (args: ConnectionArgs) => connection(variants, args, idKey),
    appliesToProductVariant: ({ productVariantId }: { productVariantId: string }) => g.variantIds.includes(productVariantId),
  };
}

export function gqlShop(s: ShopState) {
  return {
    __typename: "Shop",
    id: `gid://shopify/Shop/${s.numericId}`,
    name: s.name,
    email: s.email,
    contactEmail: s.email,
    myshopifyDomain: s.domain,
    currencyCode: s.currencyCode,
    ianaTimezone: s.ianaTimezone ?? "UTC",
    plan: {
      displayName: s.plan.displayName,
      publicDisplayName: s.plan.displayName,
      partnerDevelopment: s.plan.partnerDevelopment,
      shopifyPlus: s.plan.shopifyPlus,
    },
  };
}
