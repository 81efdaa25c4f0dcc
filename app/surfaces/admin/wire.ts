// The Admin API's wire shapes of the domain's read views: each function maps one typed view
// (camelCase, Dates) to the input of its response schema in ./schemas.ts, so the one zod schema
// is the only statement of the wire shape (docs/decisions/100-one-read-side.md; the webhook
// endpoints in ./webhooks.ts map their views the same way). The embedded pages that show the
// API's figures (analytics, home, Export Center) use the same functions.
import type { z } from "zod";
import type { Gift as GiftRow, SellingPlanGroup, WinbackSend } from "@prisma/client";
import type { CampaignWithResults } from "../../domain/retention/winback.server";
import type { GroupFigures } from "../../domain/retention/winback-attribution.server";
import { iso, money } from "../../domain/shared/money.server";
import type { BoxView, BundleView } from "../../domain/catalog/bundles.server";
import type { MixMatchDetailView, MixMatchView } from "../../domain/catalog/mixmatch.server";
import type { GiftView } from "../../domain/gifts/gifts.server";
import type { NotificationView } from "../../domain/notifications/notifications.server";
import type { ChurnView, CohortsView, MrrView, RecoveryView } from "../../domain/insights/analytics.server";
import type { TrendsView } from "../../domain/insights/trends.server";
import type { CancellationInsights } from "../../domain/retention/cancel-insights.server";
import { decodedPage, type EncodedPage, type PageResult } from "../../domain/shared/paging.server";
import type { LineView, SubscriptionDetailView, SubscriptionView } from "../../domain/subscriptions/reads.server";
import type { WriteReceipt } from "../../domain/subscriptions/writes.server";
import type * as S from "./schemas";

export type SubscriptionJson = z.input<typeof S.Subscription>;

// customer_id is a pseudonymous platform id, not protected customer data (names, e-mails, gift
// messages): it is returned at read:subscriptions, as on notification rows and as the
// customer_id filter already implies (docs/decisions/020-admin-api-read-shapes.md).
export const subscriptionJson = (c: SubscriptionView): SubscriptionJson => ({
  contract_id: c.contractGid,
  status: c.status,
  next_billing_at: iso(c.nextBillingAt),
  selling_plan_group_id: c.sellingPlanGroupGid,
  selling_plan_id: c.sellingPlanGid,
  customer_id: c.customerGid,
  currency_code: c.currencyCode,
  charge_amount: money(c.chargeAmountCents, c.currencyCode),
  monthly_amount: money(c.monthlyAmountCents, c.currencyCode),
  billing_interval: c.billingInterval,
  billing_interval_count: c.billingIntervalCount,
  product_title: c.productTitle,
  frequency_label: c.frequencyLabel,
  order_name: c.orderName,
  created_at: c.createdAt.toISOString(),
  updated_at: c.updatedAt.toISOString(),
});

/**
 * The list page the domain wrote from a binary COPY (app/domain/subscriptions/reads.server.ts
 * SUBSCRIPTION_LIST_COLUMNS, the documented exception of docs/decisions/100-one-read-side.md):
 * its bytes are `subscriptionJson`'s objects, which tests/integration/exports/format-binary.test.ts
 * holds them to, so the page is typed here as that.
 */
export const subscriptionPage = (page: EncodedPage): EncodedPage<SubscriptionJson> => page as EncodedPage<SubscriptionJson>;

/** The same page as values (the Subscriptions page of the admin, tests). */
export const subscriptionRows = (page: EncodedPage): PageResult<SubscriptionJson> => decodedPage(subscriptionPage(page));

export const lineJson = (l: LineView, currencyCode: string): z.input<typeof S.Line> => ({
  line_id: l.lineGid,
  product_id: l.productGid,
  variant_id: l.variantGid,
  title: l.title,
  variant_title: l.variantTitle,
  quantity: l.quantity,
  price: money(l.priceCents, currencyCode)!,
  selling_plan_id: l.sellingPlanGid,
});

export const subscriptionDetailJson = (c: SubscriptionDetailView): z.input<typeof S.SubscriptionDetail> => ({
  ...subscriptionJson(c),
  lines: c.lines.map((l) => lineJson(l, c.currencyCode)),
  gift: c.gift ? giftJson(c.gift) : null,
});

export const receiptJson = (r: WriteReceipt): z.input<typeof S.Receipt> => ({
  id: r.contractGid,
  contract_id: r.contractGid,
  action: r.action,
  previous_status: r.previousStatus,
  status: r.status,
  next_billing_at: iso(r.nextBillingAt),
  line: r.line ? lineJson(r.line, r.line.currencyCode) : null,
});

/** The wire names of the bundle kinds (the Storefront API's too). */
export const BUNDLE_KIND = { CURATED: "curated", BUILD_A_BOX: "build_a_box", REGULAR: "regular" } as const satisfies Record<BundleView["kind"], string>;

export const bundleJson = (b: BundleView): z.input<typeof S.Bundle> => ({
  id: b.id,
  title: b.title,
  kind: BUNDLE_KIND[b.kind],
  selling_plan_group_id: b.sellingPlanGroupGid,
  selection_cutoff_days: b.selectionCutoffDays,
  box_size_min: b.boxSizeMin,
  box_size_max: b.boxSizeMax,
  created_at: b.createdAt.toISOString(),
});

export const boxJson = (b: BoxView): z.input<typeof S.Box> => ({
  bundle_id: b.bundleId,
  period: b.period,
  published: b.published,
  published_at: iso(b.publishedAt),
  items: b.items.map((i) => ({
    variant_id: i.variantGid,
    product_title: i.productTitle,
    variant_title: i.variantTitle,
    image_url: i.imageUrl,
    price_cents: i.priceCents,
    quantity: i.quantity,
    position: i.position,
  })),
});

export const mixMatchJson = (p: MixMatchView): z.input<typeof S.MixMatch> => ({
  id: p.id,
  title: p.title,
  selling_plan_group_id: p.sellingPlanGroupGid,
  cart_group_id: p.cartGroupId,
  price_cents: p.priceCents,
  min_items: p.minItems,
  max_items: p.maxItems,
  created_at: p.createdAt.toISOString(),
  updated_at: p.updatedAt.toISOString(),
});

/** The catalogue, categories and entries in position order (the Storefront API's too). */
export const mixMatchCategoriesJson = (p: MixMatchDetailView): z.input<typeof S.MixMatchDetail>["categories"] =>
  p.categories.map((c) => ({
    id: c.id,
    title: c.title,
    position: c.position,
    entries: c.entries.map((e) => ({
      variant_id: e.variantGid,
      product_title: e.productTitle,
      variant_title: e.variantTitle,
      image_url: e.imageUrl,
      price_cents: e.priceCents,
      position: e.position,
    })),
  }));

export const mixMatchDetailJson = (p: MixMatchDetailView): z.input<typeof S.MixMatchDetail> => ({ ...mixMatchJson(p), categories: mixMatchCategoriesJson(p) });

const GIFT_KIND = { PREPAID: "prepaid", RECURRING: "recurring" } as const satisfies Record<GiftRow["kind"], string>;

export const giftJson = (g: GiftView): z.input<typeof S.Gift> => ({
  id: g.id,
  contract_id: g.contractGid,
  kind: GIFT_KIND[g.kind],
  status: g.status.toLowerCase(),
  gifter_name: g.gifterName,
  gifter_email: g.gifterEmail,
  recipient_name: g.recipientName,
  recipient_email: g.recipientEmail,
  message: g.message,
  prepaid_charges: g.prepaidCharges,
  charges_run: g.chargesRun,
  send_at: iso(g.sendAt),
  sent_at: iso(g.sentAt),
  claimed_at: iso(g.claimedAt),
  expires_at: iso(g.expiresAt),
  created_at: g.createdAt.toISOString(),
});

const groupJson = (g: GroupFigures, rate: number | null) => ({
  customers: g.customers,
  reactivated: g.reactivated,
  reactivation_rate: rate,
  recovered: g.recovered,
});

export const campaignJson = (c: CampaignWithResults): z.input<typeof S.Campaign> => ({
  id: c.id,
  name: c.name,
  status: c.status,
  offer_label: c.offerLabel,
  discount_percent: c.discountPercent,
  delay_days: c.delayDays,
  reasons: c.reasons,
  cancelled_within_days: c.cancelledWithinDays,
  holdout_percent: c.holdoutPercent,
  attribution_days: c.attributionDays,
  started_at: iso(c.startedAt),
  results: {
    sent: groupJson(c.results.sent, c.results.sentRate),
    holdout: groupJson(c.results.holdout, c.results.holdoutRate),
    incremental_reactivations: c.results.incrementalReactivations,
    revenue: c.results.revenue.map((r) => ({ raw: r.raw, incremental: r.incremental })),
  },
  created_at: c.createdAt.toISOString(),
});

export const sendJson = (s: WinbackSend): z.input<typeof S.Send> => ({
  id: s.id,
  campaign_id: s.campaignId,
  contract_id: s.contractGid,
  customer_id: s.customerGid,
  // The ledger lists sends only (held-out rows have no send time): decidedAt never shows here.
  sent_at: (s.sentAt ?? s.decidedAt).toISOString(),
  reactivated: s.reactivated,
  reactivated_at: iso(s.reactivatedAt),
  recovered_amount: money(s.recoveredAmountCents, s.currencyCode)!,
  new_contract_id: s.newContractGid,
  created_at: s.createdAt.toISOString(),
});

export const mrrJson = (m: MrrView): z.input<typeof S.Mrr> => ({
  as_of: m.asOf.toISOString(),
  mrr: m.mrr,
  active_contracts: m.activeContracts,
  contracts_missing_amount: m.contractsMissingAmount,
});

export const churnJson = (c: ChurnView): z.input<typeof S.Churn> => ({
  range: c.range,
  start: c.start.toISOString(),
  end: c.end.toISOString(),
  subscribers_at_start: c.subscribersAtStart,
  churned: c.churned,
  churn_rate: c.churnRate,
  new_subscriptions: c.newSubscriptions,
  ended_total: c.endedTotal,
});

export const cohortsJson = (c: CohortsView): z.input<typeof S.Cohorts> => ({
  window: c.window,
  as_of: c.asOf.toISOString(),
  cohorts: c.cohorts.map((k) => ({ cohort: k.cohort, size: k.size, retention: k.retention.map((r) => ({ month: r.month, active: r.active, rate: r.rate })) })),
});

export const recoveryJson = (r: RecoveryView): z.input<typeof S.Recovery> => ({
  range: r.range,
  start: r.start.toISOString(),
  end: r.end.toISOString(),
  sends: r.sends,
  reactivated: r.reactivated,
  recovery_rate: r.recoveryRate,
  recovered_amount: r.recoveredAmount,
});

export const trendsJson = (t: TrendsView): z.input<typeof S.Trends> => ({
  as_of: t.asOf.toISOString(),
  months: t.months.map((m) => ({
    month: m.month,
    end: m.end.toISOString(),
    mrr: m.mrr,
    active_contracts: m.activeContracts,
    subscribers_at_start: m.subscribersAtStart,
    churned: m.churned,
    churn_rate: m.churnRate,
    new_subscriptions: m.newSubscriptions,
    winback_sends: m.sends,
    winback_reactivated: m.reactivated,
  })),
});

export const cancellationsJson = (r: CancellationInsights): z.input<typeof S.Cancellations> => ({
  range: r.range,
  start: r.start.toISOString(),
  end: r.end.toISOString(),
  bucket: r.bucket,
  by_reason: r.byReason,
  cancelled_without_reason: r.cancelledWithoutReason,
  offers: r.offers.map((o) => ({ offer_type: o.offerType, shown: o.shown, accepted: o.accepted, acceptance_rate: o.acceptanceRate })),
  contracts_shown: r.contractsShown,
  contracts_saved: r.contractsSaved,
  save_rate: r.saveRate,
  revenue_preserved: r.revenuePreserved,
  series: r.series.map((b) => ({
    start: b.start.toISOString(),
    cancellations: b.cancellations,
    offers_shown: b.offersShown,
    offers_accepted: b.offersAccepted,
    contracts_shown: b.contractsShown,
    contracts_saved: b.contractsSaved,
    save_rate: b.saveRate,
  })),
});

type ScheduleCols = Pick<SellingPlanGroup, "scheduleMode" | "anchorDay" | "anchorMonths" | "cutoffDays" | "preAnchorBehavior" | "shipDay" | "scheduleLabel">;

/** Rolling plans are exactly { mode: "rolling" }; anchored plans carry every schedule field. */
export function scheduleJson(g: ScheduleCols): z.input<typeof S.Plan>["schedule"] {
  if (g.scheduleMode !== "ANCHORED") return { mode: "rolling" };
  return {
    mode: "anchored",
    anchor_day: g.anchorDay ?? 1,
    anchor_months: [...(g.anchorMonths ?? [])].sort((a, b) => a - b),
    cutoff_days: g.cutoffDays ?? 0,
    pre_anchor_behavior: g.preAnchorBehavior ?? "NEXT",
    ship_day: g.shipDay ?? null,
    label: g.scheduleLabel ?? "",
  };
}

export const planJson = (g: SellingPlanGroup): z.input<typeof S.Plan> => ({
  selling_plan_group_id: g.groupGid,
  name: g.name,
  status: g.status === "ACTIVE" ? "active" : "archived",
  cadence: { label: g.cadenceLabel, interval: g.scheduleMode === "ANCHORED" ? "MONTH" : g.interval, interval_count: g.intervalCount },
  billing: { label: g.billingLabel },
  discount: { label: g.discountLabel },
  giftable: g.giftable,
  schedule: scheduleJson(g),
  created_at: g.createdAt.toISOString(),
  updated_at: g.updatedAt.toISOString(),
});

export const notificationJson = (n: NotificationView): z.input<typeof S.Notification> => ({
  id: n.id,
  event: n.event,
  category: n.category,
  status: n.status,
  customer_id: n.customerGid,
  contract_id: n.contractGid,
  title: n.title,
  delivered_at: iso(n.deliveredAt),
  sent_at: iso(n.sentAt),
  bounced_at: iso(n.bouncedAt),
  created_at: n.createdAt.toISOString(),
});
