// The Risk Center: one list of checks, each a small function over one shop's rows
// that returns the risks it finds (none when all is well). A check whose source is not built
// yet (e.g. failed exports before the export workers exist) simply finds nothing until rows
// appear. Adding a risk = adding one function to CHECKS. docs/decisions/062-risk-center.md.
import { Prisma } from "@prisma/client";
import { prisma } from "../../db.server";
import { planAllowsApi } from "./shops.server";

export type Severity = "critical" | "high" | "medium" | "low";
export const SEVERITY_ORDER: readonly Severity[] = ["critical", "high", "medium", "low"];

export interface Risk {
  /** Stable per finding (check + subject), e.g. "key_write_scope:<key id>". */
  id: string;
  severity: Severity;
  /** Which part of the app it concerns: Integrations, API keys, Plan, Data, Exports. */
  area: string;
  title: string;
  /** What to do about it, in plain language. */
  action: string;
  link: { label: string; url: string };
  /** Findings of one check about many subjects (keys, exports...) show as one item: its plural title. */
  group?: string;
}

export interface RiskContext {
  shopId: string;
  now: Date;
}

type Check = (ctx: RiskContext) => Promise<Risk[]>;

const DAY = 86_400_000;
const activeKeys = (shopId: string, now: Date) => ({
  shopId,
  revokedAt: null,
  OR: [{ expiresAt: null }, { expiresAt: { gt: now } }],
});

/** Endpoints the delivery system switched off after exhausting retries: events are being dropped. */
const disabledEndpoints: Check = async ({ shopId }) => {
  const rows = await prisma.webhookEndpoint.findMany({ where: { shopId, enabled: false, disabledReason: "exhausted" }, select: { id: true, url: true } });
  return rows.map((e) => ({
    id: `endpoint_disabled:${e.id}`,
    severity: "critical",
    area: "Integrations",
    title: `Webhook endpoint ${e.url} was disabled after repeated failed deliveries`,
    action: "Fix the receiver, then re-enable the endpoint; events raised while it was off were not delivered to it.",
    link: { label: "Open webhooks", url: "/app/webhooks" },
  }));
};

/** Endpoints still enabled whose deliveries are exhausting retries: they will be disabled next. */
const failingEndpoints: Check = async ({ shopId }) => {
  const rows = await prisma.webhookEndpoint.findMany({
    where: { shopId, enabled: true, consecutiveExhausted: { gt: 0 } },
    select: { id: true, url: true, consecutiveExhausted: true },
  });
  return rows.map((e) => ({
    id: `endpoint_failing:${e.id}`,
    severity: "high",
    area: "Integrations",
    title: `Webhook endpoint ${e.url} is failing (${e.consecutiveExhausted} deliveries in a row gave up)`,
    action: "Check that the receiver answers 2xx quickly; it will be disabled if failures continue.",
    link: { label: "Open webhooks", url: "/app/webhooks" },
  }));
};

/** write:subscriptions lets the holder pause or cancel any contract. */
const writeScopedKeys: Check = async ({ shopId, now }) => {
  const rows = await prisma.apiKey.findMany({
    where: { ...activeKeys(shopId, now), scopes: { has: "write:subscriptions" } },
    select: { id: true, name: true },
  });
  return rows.map((k) => ({
    id: `key_write_scope:${k.id}`,
    group: "API keys can change subscriptions (write:subscriptions)",
    severity: "medium",
    area: "API keys",
    title: `API key "${k.name}" can change subscriptions (write:subscriptions)`,
    action: "Whoever holds it can pause or cancel any contract. Keep it only on servers you control; revoke it if it is not needed.",
    link: { label: "Review API keys", url: "/app/keys" },
  }));
};

const expiringKeys: Check = async ({ shopId, now }) => {
  const rows = await prisma.apiKey.findMany({
    where: { shopId, revokedAt: null, expiresAt: { gt: now, lte: new Date(now.getTime() + 14 * DAY) } },
    select: { id: true, name: true, expiresAt: true },
  });
  return rows.map((k) => ({
    id: `key_expiring:${k.id}`,
    group: "API keys expire soon",
    severity: "high",
    area: "API keys",
    title: `API key "${k.name}" expires on ${k.expiresAt!.toISOString().slice(0, 10)}`,
    action: "Expiry cannot be extended: mint a replacement key and switch your integration to it before then.",
    link: { label: "Mint a key", url: "/app/keys" },
  }));
};

const unusedKeys: Check = async ({ shopId, now }) => {
  const cutoff = new Date(now.getTime() - 90 * DAY);
  const rows = await prisma.apiKey.findMany({
    where: {
      shopId,
      revokedAt: null,
      createdAt: { lt: cutoff },
      AND: [{ OR: activeKeys(shopId, now).OR }, { OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: cutoff } }] }],
    },
    select: { id: true, name: true },
  });
  return rows.map((k) => ({
    id: `key_unused:${k.id}`,
    group: "API keys have not been used for 90 days",
    severity: "low",
    area: "API keys",
    title: `API key "${k.name}" has not been used for 90 days`,
    action: "An unused key is a credential nobody watches: revoke it.",
    link: { label: "Review API keys", url: "/app/keys" },
  }));
};

/** Active keys on a shop whose plan fails the gate: every call they make answers plan_upgrade_required. */
const planBelowPro: Check = async ({ shopId, now }) => {
  const shop = await prisma.shop.findUniqueOrThrow({ where: { id: shopId }, select: { appPlan: true, partnerDevelopment: true, platformPlanPaid: true } });
  if (planAllowsApi(shop)) return [];
  const keys = await prisma.apiKey.count({ where: activeKeys(shopId, now) });
  if (!keys) return [];
  const devStore = shop.appPlan === "PRO" && shop.partnerDevelopment && !shop.platformPlanPaid;
  return [
    {
      id: "plan_below_pro",
      severity: "critical",
      area: "Plan",
      title: devStore
        ? `${keys} active API key${keys === 1 ? "" : "s"} on a development store: every call is refused until the store is on a paid Shopify plan`
        : `${keys} active API key${keys === 1 ? "" : "s"}, but the shop is on the Free plan: every call answers plan_upgrade_required`,
      action: devStore ? "Move the store to a paid Shopify plan." : "Upgrade to Pro to turn the Developer API and webhooks on.",
      link: { label: "Open plan", url: "/app/plan" },
    },
  ];
};

const missingMonthlyAmount: Check = async ({ shopId }) => {
  const n = await prisma.contract.count({ where: { shopId, createdByService: true, status: "ACTIVE", monthlyAmountCents: null } });
  if (!n) return [];
  return [
    {
      id: "contracts_missing_amount",
      severity: "medium",
      area: "Data",
      title: `${n} active subscription${n === 1 ? " has" : "s have"} no monthly amount, so MRR counts them as zero`,
      action: "Reconcile the mirror from Shopify (CLI: mirror reconcile) so their amounts are read again.",
      link: { label: "See subscriptions", url: "/app/subscriptions?status=ACTIVE" },
    },
  ];
};

const failedExports: Check = async ({ shopId, now }) => {
  const rows = await prisma.exportJob.findMany({
    where: { shopId, status: "failed", createdAt: { gte: new Date(now.getTime() - 7 * DAY) } },
    select: { id: true, dataset: true, errorMessage: true },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 20,
  });
  return rows.map((j) => ({
    id: `export_failed:${j.id}`,
    group: "exports failed",
    severity: "medium",
    area: "Exports",
    title: `Export of ${j.dataset} failed${j.errorMessage ? `: ${j.errorMessage}` : ""}`,
    action: "Start the export again; if it fails again, quote its id to support.",
    link: { label: "Open exports", url: "/app/exports" },
  }));
};

/**
 * A payment-failed e-mail of ours hard-bounced in the last 30 days: the customer does not know their
 * card failed (Shopify's own card-update e-mail may reach them; ours did not). One per contract.
 */
const bouncedPaymentMail: Check = async ({ shopId, now }) => {
  const rows = await prisma.notificationLogEntry.findMany({
    where: { shopId, event: { in: ["payment_failed", "payment_failed_final"] }, status: "bounced", bouncedAt: { gte: new Date(now.getTime() - 30 * DAY) } },
    select: { contractGid: true },
    distinct: ["contractGid"],
    take: 50,
  });
  return rows.map((r) => ({
    id: `payment_mail_bounced:${r.contractGid}`,
    group: "payment-failed e-mails bounced",
    severity: "high",
    area: "Customers",
    title: `The payment-failed e-mail for subscription ${r.contractGid?.split("/").pop()} bounced`,
    action: "The customer may not know their card failed: reach them another way, or check the address in Shopify.",
    link: { label: "Open notifications", url: "/app/notifications" },
  }));
};

/** Contracts whose first billing date at Shopify differs from the plan's schedule (the drift check). */
const scheduleDrift: Check = async ({ shopId }) => {
  const rows = await prisma.contract.findMany({
    where: { shopId, status: { in: ["ACTIVE", "PAUSED"] }, NOT: { scheduleDrift: { equals: Prisma.DbNull } } },
    select: { contractGid: true, scheduleDrift: true },
    take: 50,
  });
  return rows.map((c) => {
    const d = c.scheduleDrift as { plan: string; shopify: string; expected: string; at?: string };
    return {
      id: `schedule_drift:${c.contractGid}`,
      group: "subscriptions are billed off their plan's schedule",
      severity: "high" as const,
      area: "Plans",
      title: `Plan "${d.plan}": Shopify bills ${c.contractGid} ${d.at === "renewal" ? "next" : "first"} on ${d.shopify}, the plan's schedule says ${d.expected}`,
      action:
        "Shopify's date is the one charged. Check the plan's anchor, cutoff and first-order setting, then reschedule the subscription if the date is wrong.",
      link: { label: "Open subscriptions", url: "/app/subscriptions" },
    };
  });
};

/** Boxes the selection cutoff could not write onto a contract: Shopify refused the edit (docs/decisions/106). */
const refusedBoxes: Check = async ({ shopId }) => {
  const rows = await prisma.boxApplication.findMany({
    where: { shopId, status: "REFUSED" },
    select: { contractGid: true, period: true, source: true, error: true },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: 50,
  });
  return rows.map((r) => ({
    id: `box_refused:${r.contractGid}:${r.period}`,
    severity: "high" as const,
    area: "Bundles",
    title: `The ${r.period} box (${r.source === "PICK" ? "the subscriber's pick" : "the fallback"}) could not be applied to subscription ${r.contractGid.split("/").pop()}${r.error ? `: ${r.error}` : ""}`,
    action: "Shopify refused the edit, so the box would ship unchanged. Check the subscription in Shopify; the cutoff job tries again every hour.",
    link: { label: "Open bundles", url: "/app/bundles" },
  }));
};

/**
 * Box subscribers past their period's cutoff when that period has no published menu: the cutoff job
 * has nothing to apply, so their boxes would ship unchanged (docs/decisions/109-box-size-and-missing-menu.md).
 * One item per bundle and period; publishing the menu lets the next hourly run settle them.
 */
const boxesWithoutMenu: Check = async ({ shopId, now }) => {
  const bundles = await prisma.bundle.findMany({
    where: { shopId, kind: "BUILD_A_BOX" },
    select: { id: true, title: true, selectionCutoffDays: true, group: { select: { groupGid: true } } },
    orderBy: { createdAt: "asc" },
  });
  const risks: Risk[] = [];
  const seenGroups = new Set<string>();
  for (const b of bundles) {
    // One group, one bundle: the first made, as the cutoff job reads it.
    if (seenGroups.has(b.group.groupGid)) continue;
    seenGroups.add(b.group.groupGid);
    const due = await prisma.$queryRaw<{ period: string; subscribers: bigint }[]>(Prisma.sql`
      SELECT to_char(c.next_billing_at AT TIME ZONE 'UTC', 'YYYY-MM') AS period, count(*) AS subscribers
      FROM contracts c
      WHERE c.shop_id = ${shopId} AND c.status = 'ACTIVE' AND c.selling_plan_group_gid = ${b.group.groupGid}
        AND c.next_billing_at > ${now} AND c.next_billing_at <= ${new Date(now.getTime() + b.selectionCutoffDays * DAY)}
        AND NOT EXISTS (SELECT 1 FROM bundle_boxes m WHERE m.bundle_id = ${b.id} AND m.published
                        AND m.period = to_char(c.next_billing_at AT TIME ZONE 'UTC', 'YYYY-MM'))
      GROUP BY 1 ORDER BY 1`);
    for (const r of due) {
      risks.push({
        id: `box_no_menu:${b.id}:${r.period}`,
        severity: "high",
        area: "Bundles",
        title: `${Number(r.subscribers)} subscribers of ${b.title} are past the ${r.period} selection cutoff, and no ${r.period} menu is published`,
        action:
          "Their boxes ship unchanged until a menu is published. Publish the period's menu; the hourly cutoff job then applies each pick or the fallback box.",
        link: { label: "Open the bundle", url: `/app/bundles/${b.id}` },
      });
    }
  }
  return risks;
};

export const CHECKS: readonly Check[] = [
  bouncedPaymentMail,
  disabledEndpoints,
  failingEndpoints,
  planBelowPro,
  expiringKeys,
  writeScopedKeys,
  missingMonthlyAmount,
  failedExports,
  unusedKeys,
  scheduleDrift,
  refusedBoxes,
  boxesWithoutMenu,
];

/** Every open risk of the shop, most severe first (checks' order breaks ties). */
export async function openRisks(shopId: string, now = new Date()): Promise<Risk[]> {
  const found = (await Promise.all(CHECKS.map((check) => check({ shopId, now })))).flat();
  return found
    .map((risk, i) => ({ risk, i }))
    .sort((a, b) => SEVERITY_ORDER.indexOf(a.risk.severity) - SEVERITY_ORDER.indexOf(b.risk.severity) || a.i - b.i)
    .map(({ risk }) => risk);
}
