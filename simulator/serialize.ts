// Stored objects → Admin GraphQL response shapes (full objects; see graphql-document.ts).
import type { Contract, Line, PaymentMethod, SellingPlanGroup, ShopState, Variant } from "./state";

export function gqlLine(l: Line, currencyCode: string) {
  return {
    id: l.id,
    productId: l.productId,
    variantId: l.variantId,
    title: l.title,
    variantTitle: l.variantTitle,
    quantity: l.quantity,
    currentPrice: { amount: l.price, currencyCode },
    sellingPlanId: l.sellingPlanId,
    sellingPlanName: l.sellingPlanName,
  };
}

export function gqlPaymentMethod(m: PaymentMethod) {
  const instrument =
    m.kind === "credit_card"
      ? { __typename: "CustomerCreditCard", brand: m.brand, lastDigits: m.last4, expiryMonth: m.expiryMonth, expiryYear: m.expiryYear }
      : m.kind === "shop_pay"
        ? { __typename: "CustomerShopPayAgreement", lastDigits: m.last4, expiryMonth: m.expiryMonth, expiryYear: m.expiryYear }
        : { __typename: "CustomerPaypalBillingAgreement", paypalAccountEmail: m.paypalEmail };
  return { id: m.id, revokedAt: m.revokedAt, instrument };
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
  const method = c.paymentMethodId
    ? Object.values(shop.customers).flatMap((cu) => cu.paymentMethods).find((m) => m.id === c.paymentMethodId)
    : undefined;
  return {
    id: c.id,
    status: c.status,
    nextBillingDate: c.nextBillingDate,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    revisionId: String(c.revisionId),
    currencyCode: c.currencyCode,
    customer: { id: c.customerId },
    originOrder: c.originOrder,
    billingPolicy: policy(c.billingPolicy),
    deliveryPolicy: { interval: c.deliveryPolicy.interval, intervalCount: c.deliveryPolicy.intervalCount, anchors: c.deliveryPolicy.anchors },
    lines: { nodes: lines, edges: lines.map((node) => ({ node, cursor: node.id })), pageInfo: { hasNextPage: false, endCursor: null } },
    customerPaymentMethod: method ? gqlPaymentMethod(method) : null,
  };
}

export function gqlVariant(shop: ShopState, v: Variant) {
  const product = shop.products[v.productId];
  return {
    __typename: "ProductVariant",
    id: v.id,
    title: v.title,
    price: v.price,
    sku: v.sku,
    availableForSale: v.available,
    image: v.imageUrl ? { url: v.imageUrl } : null,
    product: { id: v.productId, title: product?.title ?? "", featuredImage: product?.imageUrl ? { url: product.imageUrl } : null },
  };
}

export function gqlSellingPlanGroup(g: SellingPlanGroup) {
  const plans = g.sellingPlans.map((p) => ({ id: p.id, name: p.name, billingPolicy: { interval: p.interval, intervalCount: p.intervalCount } }));
  return {
    id: g.id,
    name: g.name,
    merchantCode: g.merchantCode,
    sellingPlans: { nodes: plans, edges: plans.map((node) => ({ node, cursor: node.id })) },
    productVariants: { nodes: g.variantIds.map((id) => ({ id })) },
  };
}

export function gqlShop(s: ShopState) {
  return {
    id: `gid://shopify/Shop/${s.numericId}`,
    name: s.name,
    email: s.email,
    myshopifyDomain: s.domain,
    currencyCode: s.currencyCode,
    plan: { displayName: s.plan.displayName, partnerDevelopment: s.plan.partnerDevelopment, shopifyPlus: s.plan.shopifyPlus },
  };
}
