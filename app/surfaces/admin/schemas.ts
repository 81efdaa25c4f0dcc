// The Admin API's response shapes (docs/decisions/020-admin-api-read-shapes.md), as zod schemas the route entries declare as their
// `response` (app/http/route.ts). They type each handler's body, become the shapes at
// /docs/openapi.json, and tests/integration/http/response-schemas.test.ts validates real answers
// against them. Strict objects: a field the reference does not declare fails that test.
import { z } from "zod";
import { RANGES, WINDOWS } from "../../domain/insights/analytics.server";

export const Timestamp = z.iso.datetime().describe("ISO 8601, UTC");
export const Gid = (type: string) => z.string().meta({ description: `gid://shopify/${type}/<number>`, example: `gid://shopify/${type}/1001` });

export const Money = z
  .strictObject({
    amount: z.string().describe("Decimal string in the currency's own exponent (JPY 0, USD 2, KWD 3)"),
    currency_code: z.string().describe("ISO 4217"),
  })
  .meta({ example: { amount: "12.50", currency_code: "USD" } });

/** The list envelope (/docs#section/Conventions): `{ data, next_cursor }`, newest first. */
export const page = <T extends z.ZodType>(row: T) =>
  z.strictObject({
    data: z.array(row),
    next_cursor: z.string().nullable().describe("Pass as ?cursor= for the next page; null on the last page"),
  });

export const Subscription = z.strictObject({
  contract_id: Gid("SubscriptionContract"),
  status: z.string().describe("ACTIVE, PAUSED, FAILED, CANCELLED or EXPIRED"),
  next_billing_at: Timestamp.nullable(),
  selling_plan_group_id: Gid("SellingPlanGroup").nullable(),
  selling_plan_id: Gid("SellingPlan").nullable(),
  customer_id: Gid("Customer").describe("Pseudonymous platform id"),
  currency_code: z.string(),
  charge_amount: Money.nullable(),
  monthly_amount: Money.nullable().describe("null until backfilled"),
  billing_interval: z.string().nullable().describe("DAY, WEEK, MONTH or YEAR"),
  billing_interval_count: z.number().int().nullable(),
  product_title: z.string().nullable(),
  frequency_label: z.string().nullable(),
  order_name: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const Line = z.strictObject({
  line_id: Gid("SubscriptionLine"),
  product_id: Gid("Product").nullable(),
  variant_id: Gid("ProductVariant").nullable(),
  title: z.string(),
  variant_title: z.string().nullable(),
  quantity: z.number().int(),
  price: Money,
  selling_plan_id: Gid("SellingPlan").nullable(),
});

export const Gift = z.strictObject({
  id: z.string(),
  contract_id: Gid("SubscriptionContract").nullable(),
  kind: z.enum(["prepaid", "recurring"]),
  status: z.string().describe("pending, sent, claimed, expired or ended"),
  gifter_name: z.string().nullable().describe("null without read:customers"),
  gifter_email: z.string().nullable().describe("null without read:customers"),
  recipient_name: z.string().nullable().describe("null without read:customers"),
  recipient_email: z.string().nullable().describe("null without read:customers"),
  message: z.string().nullable().describe("null without read:customers"),
  prepaid_charges: z.number().int().nullable(),
  charges_run: z.number().int(),
  send_at: Timestamp.nullable(),
  sent_at: Timestamp.nullable(),
  claimed_at: Timestamp.nullable(),
  expires_at: Timestamp.nullable(),
  created_at: Timestamp,
});

export const SubscriptionDetail = Subscription.extend({ lines: z.array(Line), gift: Gift.nullable() });

export const Plan = z.strictObject({
  selling_plan_group_id: Gid("SellingPlanGroup"),
  name: z.string(),
  status: z.enum(["active", "archived"]),
  cadence: z.strictObject({ label: z.string(), interval: z.string(), interval_count: z.number().int() }),
  billing: z.strictObject({ label: z.string() }),
  discount: z.strictObject({ label: z.string() }),
  giftable: z.boolean(),
  schedule: z.discriminatedUnion("mode", [
    z.strictObject({ mode: z.literal("rolling") }),
    z.strictObject({
      mode: z.literal("anchored"),
      anchor_day: z.number().int(),
      anchor_months: z.array(z.number().int()),
      cutoff_days: z.number().int(),
      pre_anchor_behavior: z.enum(["NEXT", "ASAP"]),
      ship_day: z.number().int().nullable(),
      label: z.string(),
    }),
  ]),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const Bundle = z.strictObject({
  id: z.string(),
  title: z.string(),
  kind: z.enum(["curated", "build_a_box", "regular"]),
  selling_plan_group_id: Gid("SellingPlanGroup"),
  selection_cutoff_days: z.number().int(),
  box_size_min: z.number().int().nullable(),
  box_size_max: z.number().int().nullable(),
  created_at: Timestamp,
});

export const Box = z.strictObject({
  bundle_id: z.string(),
  period: z.string().describe("YYYY-MM"),
  published: z.boolean(),
  published_at: Timestamp.nullable(),
  items: z.array(
    z.strictObject({
      variant_id: Gid("ProductVariant"),
      product_title: z.string(),
      variant_title: z.string().nullable(),
      image_url: z.string().nullable(),
      price_cents: z.number().int().describe("Integer minor units (snapshot)"),
      quantity: z.number().int().nullable(),
      position: z.number().int(),
    }),
  ),
});

export const MixMatch = z.strictObject({
  id: z.string(),
  title: z.string(),
  selling_plan_group_id: Gid("SellingPlanGroup"),
  cart_group_id: z.string(),
  price_cents: z.number().int().describe("Snapshot refreshed on save; the live variant price wins at checkout"),
  min_items: z.number().int(),
  max_items: z.number().int(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const MixMatchDetail = MixMatch.extend({
  categories: z.array(
    z.strictObject({
      id: z.string(),
      title: z.string(),
      position: z.number().int(),
      entries: z.array(
        z.strictObject({
          variant_id: Gid("ProductVariant"),
          product_title: z.string(),
          variant_title: z.string().nullable(),
          image_url: z.string().nullable(),
          price_cents: z.number().int(),
          position: z.number().int(),
        }),
      ),
    }),
  ),
});

const WinbackGroup = z.strictObject({
  customers: z.number().int().describe("customers in the group"),
  reactivated: z.number().int().describe("of those, customers with a new contract within the attribution window"),
  reactivation_rate: z.number().nullable().describe("reactivated / customers, 4 decimals; null for an empty group"),
  recovered: z.array(Money).describe("the group's new contracts' charges within the window, one entry per currency"),
});

export const Campaign = z.strictObject({
  id: z.string(),
  name: z.string(),
  status: z.string().describe("draft, active, paused or ended"),
  offer_label: z.string(),
  discount_percent: z.number().nullable(),
  delay_days: z.number().int(),
  reasons: z.array(z.string()).describe("cancel reasons targeted; empty = any"),
  cancelled_within_days: z.number().int(),
  holdout_percent: z.number().int().describe("share of the eligible audience never sent to (the baseline)"),
  attribution_days: z.number().int(),
  started_at: Timestamp.nullable(),
  results: z
    .strictObject({
      sent: WinbackGroup,
      holdout: WinbackGroup,
      incremental_reactivations: z.number().nullable().describe("sent.reactivated minus what the hold-out's rate predicts; null without a hold-out"),
      revenue: z
        .array(
          z.strictObject({
            raw: Money.describe("recovered revenue of the sent group, what other apps report"),
            incremental: Money.nullable().describe("what the e-mail added over the hold-out's baseline; null without a hold-out"),
          }),
        )
        .describe("one entry per currency"),
    })
    .describe("the campaign's attribution, docs/decisions/115-winback-audience.md"),
  created_at: Timestamp,
});

export const Send = z.strictObject({
  id: z.string(),
  campaign_id: z.string(),
  contract_id: Gid("SubscriptionContract"),
  customer_id: Gid("Customer"),
  sent_at: Timestamp,
  reactivated: z.boolean(),
  reactivated_at: Timestamp.nullable(),
  recovered_amount: Money,
  new_contract_id: Gid("SubscriptionContract").nullable().describe("the contract that brought the customer back"),
  created_at: Timestamp,
});

export const Notification = z.strictObject({
  id: z.string(),
  event: z.string(),
  category: z.string(),
  status: z
    .string()
    .describe(
      "queued, sent, delivered, bounced, failed, deferred, skipped or held (sent: an SMTP server accepted it; delivered only on evidence; held: its sender stopped mid-send and no relay ledger could say whether it went, so it waits for the merchant)",
    ),
  customer_id: Gid("Customer"),
  contract_id: Gid("SubscriptionContract").nullable(),
  title: z.string(),
  delivered_at: Timestamp.nullable(),
  sent_at: Timestamp.nullable(),
  bounced_at: Timestamp.nullable(),
  created_at: Timestamp,
});

const rate = z.number().nullable().describe("4 decimals; null when the denominator is zero");

export const Mrr = z.strictObject({
  as_of: Timestamp,
  mrr: z.array(Money).describe("Sum of monthly amounts of ACTIVE contracts, one entry per currency, largest first"),
  active_contracts: z.number().int(),
  contracts_missing_amount: z.number().int().describe("ACTIVE contracts whose monthly amount was never backfilled (they count zero)"),
});

export const Churn = z.strictObject({
  range: z.enum(RANGES),
  start: Timestamp,
  end: Timestamp,
  subscribers_at_start: z.number().int(),
  churned: z.number().int(),
  churn_rate: rate,
  new_subscriptions: z.number().int(),
  ended_total: z.number().int(),
});

export const Cohorts = z.strictObject({
  window: z.enum(WINDOWS),
  as_of: Timestamp,
  cohorts: z.array(
    z.strictObject({
      cohort: z.string().describe("Signup month (UTC), YYYY-MM"),
      size: z.number().int(),
      retention: z.array(z.strictObject({ month: z.number().int(), active: z.number().int(), rate })),
    }),
  ),
});

export const Recovery = z.strictObject({
  range: z.enum(RANGES),
  start: Timestamp,
  end: Timestamp,
  sends: z.number().int(),
  reactivated: z.number().int(),
  recovery_rate: rate,
  recovered_amount: z.array(Money),
});

export const Trends = z.strictObject({
  as_of: Timestamp,
  months: z
    .array(
      z.strictObject({
        month: z.string().describe("YYYY-MM (UTC)"),
        end: Timestamp.describe("The month's end, or as_of for the current month: when MRR and active_contracts are read"),
        mrr: z.array(Money).describe("Monthly amounts of the contracts live at `end` (ACTIVE now, or ended after `end`), per currency, largest first"),
        active_contracts: z.number().int(),
        subscribers_at_start: z.number().int(),
        churned: z.number().int().describe("Of subscribers_at_start, those that ended within the month"),
        churn_rate: rate,
        new_subscriptions: z.number().int(),
        winback_sends: z.number().int(),
        winback_reactivated: z.number().int().describe("Of the month's win-back sends, those reactivated since"),
      }),
    )
    .describe("The twelve calendar months ending with the current one, oldest first"),
});

const count = z.number().int();

export const Cancellations = z.strictObject({
  range: z.enum(RANGES),
  start: Timestamp,
  end: Timestamp,
  bucket: z.enum(["day", "week", "month"]).describe("Width of each entry of series (UTC): day for 7d and 30d, week for 90d, month for 12mo"),
  by_reason: z.array(z.strictObject({ reason: z.string(), count })).describe("Cancel reasons recorded in the range, most frequent first"),
  cancelled_without_reason: count.describe("Subscriptions cancelled in the range with no cancel reason recorded"),
  offers: z
    .array(z.strictObject({ offer_type: z.enum(["pause", "skip", "discount"]), shown: count, accepted: count, acceptance_rate: rate }))
    .describe("Save events per offer type, all three always present"),
  contracts_shown: count.describe("Subscriptions shown at least one offer in the range"),
  contracts_saved: count.describe("Of those, the ones that accepted an offer in the range"),
  save_rate: rate.describe("contracts_saved / contracts_shown; null when none was shown an offer"),
  revenue_preserved: z
    .array(Money)
    .describe("Monthly amount of the saved subscriptions, derived from the mirror when the offer was accepted; one entry per currency"),
  series: z.array(
    z.strictObject({
      start: Timestamp,
      cancellations: count,
      offers_shown: count,
      offers_accepted: count,
      contracts_shown: count,
      contracts_saved: count,
      save_rate: rate,
    }),
  ),
});

export const Receipt = z.strictObject({
  id: Gid("SubscriptionContract"),
  contract_id: Gid("SubscriptionContract"),
  action: z.enum(["pause", "resume", "cancel", "skip", "reschedule", "update_line"]),
  previous_status: z.string(),
  status: z.string(),
  next_billing_at: Timestamp.nullable(),
  line: Line.nullable().describe("update_line only: the line as it is now"),
});
