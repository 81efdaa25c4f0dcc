// Webhook payloads in the shapes Shopify documents (REST-style snake_case, numeric ids next to
// the admin_graphql_api_* gids, lowercase enums).
import { numericIdOf, type Contract, type Customer, type PaymentMethod, type SellingPlanGroup, type ShopState } from "./state";

const lower = (s: string) => s.toLowerCase();

export function contractPayload(c: Contract) {
  return {
    admin_graphql_api_id: c.id,
    id: numericIdOf(c.id),
    billing_policy: {
      interval: lower(c.billingPolicy.interval),
      interval_count: c.billingPolicy.intervalCount,
      min_cycles: c.billingPolicy.minCycles,
      max_cycles: c.billingPolicy.maxCycles,
    },
    currency_code: c.currencyCode,
    customer_id: numericIdOf(c.customerId),
    admin_graphql_api_customer_id: c.customerId,
    delivery_policy: { interval: lower(c.deliveryPolicy.interval), interval_count: c.deliveryPolicy.intervalCount },
    status: lower(c.status),
    admin_graphql_api_origin_order_id: c.originOrder?.id ?? null,
    origin_order_id: c.originOrder ? numericIdOf(c.originOrder.id) : null,
    revision_id: String(c.revisionId),
  };
}

/** customer_payment_methods/update: the method's token, its customer and its instrument (the card's month and year). */
export function paymentMethodPayload(customer: Customer, m: PaymentMethod) {
  const card = m.kind === "credit_card" || m.kind === "shop_pay";
  return {
    admin_graphql_api_id: m.id,
    token: numericIdOf(m.id),
    customer_id: numericIdOf(customer.id),
    admin_graphql_api_customer_id: customer.id,
    instrument_type:
      m.kind === "credit_card"
        ? "CustomerCreditCard"
        : m.kind === "shop_pay"
          ? "CustomerShopPayAgreement"
          : m.kind === "paypal"
            ? "CustomerPaypalBillingAgreement"
            : null,
    payment_instrument: card
      ? {
          last_digits: m.last4,
          month: m.expiryMonth,
          year: m.expiryYear,
          name: `${customer.firstName} ${customer.lastName}`,
          ...(m.kind === "credit_card" ? { brand: m.brand } : {}),
        }
      : null,
    revoked_at: m.revokedAt,
  };
}

export function billingCycleSkipPayload(c: Contract, cycleIndex: number, cycleDate: string) {
  return {
    subscription_contract_id: numericIdOf(c.id),
    admin_graphql_api_subscription_contract_id: c.id,
    cycle_index: cycleIndex,
    cycle_start_at: cycleDate,
    cycle_end_at: cycleDate,
    billing_attempt_expected_date: cycleDate,
    skipped: true,
    edited: false,
    contract_edit: null,
  };
}

/** app/uninstalled carries the shop resource. */
export function shopPayload(s: ShopState) {
  return {
    id: s.numericId,
    name: s.name,
    email: s.email,
    domain: s.domain,
    myshopify_domain: s.domain,
    shop_owner: s.name,
    customer_email: s.email,
    country_code: "US",
    country_name: "United States",
    currency: s.currencyCode,
    timezone: "(GMT+00:00) UTC",
    iana_timezone: "UTC",
    plan_name: s.plan.partnerDevelopment ? "partner_test" : lower(s.plan.displayName.replace(/\s+/g, "_")),
    plan_display_name: s.plan.displayName,
    primary_locale: "en",
    created_at: s.createdAt,
    updated_at: new Date().toISOString(),
  };
}

export const shopRedactPayload = (s: ShopState) => ({ shop_id: s.numericId, shop_domain: s.domain });

export const customersRedactPayload = (s: ShopState, c: Customer, orderIds: number[]) => ({
  shop_id: s.numericId,
  shop_domain: s.domain,
  customer: { id: numericIdOf(c.id), email: c.email, phone: c.phone },
  orders_to_redact: orderIds,
});

export const customersDataRequestPayload = (s: ShopState, c: Customer, orderIds: number[], requestId: number) => ({
  shop_id: s.numericId,
  shop_domain: s.domain,
  orders_requested: orderIds,
  customer: { id: numericIdOf(c.id), email: c.email, phone: c.phone },
  data_request: { id: requestId },
});

/** selling_plan_groups/create|update: Shopify's payload names the group, not its plans' ids. */
export function sellingPlanGroupPayload(shop: ShopState, g: SellingPlanGroup) {
  const productIds = [...new Set(g.variantIds.map((v) => shop.variants[v]?.productId).filter((p): p is string => !!p))];
  return {
    admin_graphql_api_id: g.id,
    id: numericIdOf(g.id),
    name: g.name,
    merchant_code: g.merchantCode,
    description: null,
    options: ["Delivery every"],
    position: null,
    summary: `${g.sellingPlans.length} delivery frequenc${g.sellingPlans.length === 1 ? "y" : "ies"}`,
    selling_plans: g.sellingPlans.map((p) => ({
      name: p.name,
      options: [p.name],
      position: null,
      description: null,
      billing_policy: {
        interval: lower(p.interval),
        interval_count: p.intervalCount,
        min_cycles: p.policies?.minCycles ?? null,
        max_cycles: p.policies?.maxCycles ?? null,
      },
      delivery_policy: {
        interval: lower(p.interval),
        interval_count: p.intervalCount,
        anchors: (p.policies?.anchors ?? []).map((a) => ({ type: lower(a.type), day: a.day, month: a.month, cutoff_day: a.cutoffDay })),
        cutoff: p.policies?.cutoff ?? null,
        pre_anchor_behavior: lower(p.policies?.preAnchorBehavior ?? "ASAP"),
      },
      pricing_policies: [],
    })),
    product_variants: g.variantIds.map((v) => ({ admin_graphql_api_id: v, id: numericIdOf(v) })),
    products: productIds.map((p) => ({ admin_graphql_api_id: p, id: numericIdOf(p) })),
  };
}
