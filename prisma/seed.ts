// The demo shops, in the simulator (Shopify's side) and in the app (mirror + app records).
// Idempotent: a shop the simulator already holds is not created again, the mirror is rebuilt
// by the same reconcile the app uses in production, and app records are written once.
// If the simulator is not running, it is started in-process for the duration of the seed.
import { createHash, randomBytes } from "node:crypto";
import { applyLocalDefaults } from "../app/infra/local-env";
import { CANCEL_REASONS, CITIES, FIRST_NAMES, GIFT_MESSAGES, LAST_NAMES, NOTIFICATION_EVENTS, PLANS, PRODUCTS, STREETS, rng, type DemoPlan } from "./demo-data";

applyLocalDefaults();
const { env } = await import("../app/env.server");
const { prisma } = await import("../app/db.server");
const { SimulatorControl } = await import("../simulator/control-client");
// Rows are built by the same fixtures the tests use (one way to build data; tests/support/fixtures.ts).
const { createBundle, createBundleBox, createInstalledShop, createMixMatchPlan, createPlanGroup } = await import("../tests/support/fixtures");
const { reconcileShop } = await import("../app/domain/subscriptions/reconcile.server");
const { parseDecimalToMinor } = await import("../app/domain/shared/money.server");
const { syncStorefrontMetafields } = await import("../app/domain/storefront/sync.server");

type Sim = InstanceType<typeof SimulatorControl>;
type SimVariant = { id: string; productId: string; title: string; price: string; imageUrl: string | null };
type SimProduct = { id: string; title: string; imageUrl: string | null; variants: SimVariant[] };
type SimGroup = { id: string; name: string; app: string; sellingPlans: { id: string; name: string }[]; variantIds: string[] };

type ShopSpec = {
  domain: string;
  plan: "PRO" | "FREE";
  currencyCode: string;
  contracts: number;
  otherAppContracts: number;
  plans: string[];
  seed: number;
  /** Full app data: bundles, Mix & Match, gifts, win-back, notifications, portal. */
  rich: boolean;
};

export const DEMO_SHOPS: ShopSpec[] = [
  {
    domain: "demo-shop.myshopify.com",
    plan: "PRO",
    currencyCode: "USD",
    contracts: 640,
    otherAppContracts: 30,
    plans: PLANS.map((p) => p.key),
    seed: 1,
    rich: true,
  },
  {
    domain: "other-shop.myshopify.com",
    plan: "PRO",
    currencyCode: "CAD",
    contracts: 140,
    otherAppContracts: 5,
    plans: ["weekly", "monthly", "teaclub"],
    seed: 2,
    rich: false,
  },
  {
    domain: "free-shop.myshopify.com",
    plan: "FREE",
    currencyCode: "USD",
    contracts: 45,
    otherAppContracts: 0,
    plans: ["monthly", "fortnightly"],
    seed: 3,
    rich: false,
  },
];

const DAY = 86_400_000;
const NOW = new Date();
const STATUSES = [
  ["ACTIVE", 58],
  ["PAUSED", 14],
  ["CANCELLED", 20],
  ["EXPIRED", 4],
  ["FAILED", 4],
] as const;

function billingPolicy(plan: DemoPlan) {
  const s = plan.schedule;
  if (s.mode === "ROLLING") return { interval: plan.interval, intervalCount: plan.intervalCount, anchors: [] };
  if (s.anchorMonths.length === 0) return { interval: "MONTH", intervalCount: plan.intervalCount, anchors: [{ day: s.anchorDay, type: "MONTHDAY" }] };
  // Sent to the platform as one year with one anchor per listed month (/docs#tag/Admin-API:-Plans).
  return { interval: "YEAR", intervalCount: 1, anchors: s.anchorMonths.map((month) => ({ day: s.anchorDay, month, type: "YEARDAY" })) };
}

/** The next charge date on or after `from` for the plan (noon UTC). */
function nextCharge(plan: DemoPlan, from: Date, r: ReturnType<typeof rng>): Date {
  const s = plan.schedule;
  if (s.mode === "ROLLING") {
    const days = plan.interval === "WEEK" ? 7 * plan.intervalCount : 30 * plan.intervalCount;
    return new Date(from.getTime() + r.int(1, days) * DAY);
  }
  const months = s.anchorMonths.length ? s.anchorMonths : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  for (let i = 0; i < 24; i++) {
    const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + i, s.anchorDay, 12));
    if (d >= from && months.includes(d.getUTCMonth() + 1)) return d;
  }
  throw new Error("no anchor within two years");
}

const period = (d: Date) => d.toISOString().slice(0, 7);
const monthsBack = (n: number) => new Date(Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth() - n, 1, 12));

function scheduleLabel(plan: DemoPlan): string | null {
  const s = plan.schedule;
  if (s.mode === "ROLLING") return null;
  const monthNames = s.anchorMonths.map((m) => new Date(Date.UTC(2000, m - 1, 1)).toLocaleString("en", { month: "long", timeZone: "UTC" }));
  const when = monthNames.length
    ? `on the ${s.anchorDay}${ordinal(s.anchorDay)} of ${monthNames.join(", ")}`
    : `on the ${s.anchorDay}${ordinal(s.anchorDay)} of every month`;
  return `Charged ${when}; orders placed less than ${s.cutoffDays} days before join the following shipment.`;
}
const ordinal = (n: number) => (n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th");

function cadenceLabel(plan: DemoPlan): string {
  if (plan.schedule.mode === "ANCHORED" && plan.schedule.anchorMonths.length) return `${plan.schedule.anchorMonths.length} deliveries a year`;
  const unit = plan.interval === "WEEK" ? "week" : "month";
  return plan.intervalCount === 1 ? `Delivered every ${unit}` : `Delivered every ${plan.intervalCount} ${unit}s`;
}

/** Creates the shop's Shopify side: catalogue, plans, customers, contracts (ours and another app's). */
async function seedSimulator(sim: Sim, spec: ShopSpec) {
  const r = rng(spec.seed);
  const path = sim.shop(spec.domain);
  const products = new Map<string, SimProduct>();
  for (const p of PRODUCTS) {
    products.set(p.key, await sim.call<SimProduct>("POST", `${path}/products`, { title: p.title, imageUrl: p.imageUrl, variants: p.variants }));
  }
  const plans = PLANS.filter((p) => spec.plans.includes(p.key));
  const groups = new Map<string, SimGroup>();
  for (const plan of plans) {
    const variantIds = plan.products.flatMap((k) => products.get(k)!.variants.map((v) => v.id));
    const name = plan.kind === "mix_match" ? `${plan.name}` : plan.name;
    groups.set(
      plan.key,
      await sim.call<SimGroup>("POST", `${path}/selling-plan-groups`, {
        name,
        plans: [{ name: `${cadenceLabel(plan)}, ${plan.discountPercent}% off`, interval: plan.interval, intervalCount: plan.intervalCount }],
        variantIds,
      }),
    );
  }
  const foreign = await sim.call<SimGroup>("POST", `${path}/selling-plan-groups`, {
    name: "Subscribe & Save (another app)",
    app: "other",
    plans: [{ name: "Monthly", interval: "MONTH", intervalCount: 1 }],
    variantIds: products.get("espresso")!.variants.map((v) => v.id),
  });

  const customerCount = Math.ceil(spec.contracts * 0.6);
  const customers: string[] = [];
  for (let i = 0; i < customerCount; i++) {
    const first = r.pick(FIRST_NAMES);
    const last = r.pick(LAST_NAMES);
    const place = r.pick(CITIES);
    const method = r.weighted([
      ["card", 84],
      ["paypal", 9],
      ["none", 7],
    ] as const);
    const expiryYear = NOW.getUTCFullYear() + r.int(0, 4);
    const c = await sim.call<{ id: string }>("POST", `${path}/customers`, {
      firstName: first,
      lastName: last,
      email: `${first}.${last}${i}@example.com`
        .toLowerCase()
        .normalize("NFD")
        .replace(/[^\p{ASCII}]/gu, "")
        .replace(/'/g, ""),
      phone: `+1555${String(1000000 + i).slice(-7)}`,
      address: { address1: `${r.int(1, 999)} ${r.pick(STREETS)}`, ...place },
      paymentMethod:
        method === "none"
          ? null
          : method === "paypal"
            ? { kind: "paypal", paypalEmail: `${first}.${last}.pay@example.com`.toLowerCase().replace(/[^\w.@-]/g, "") }
            : {
                kind: "credit_card",
                brand: r.pick(["visa", "mastercard", "american_express"]),
                last4: String(r.int(1000, 9999)),
                expiryMonth: r.int(1, 12),
                expiryYear,
              },
    });
    customers.push(c.id);
  }

  const contracts: object[] = [];
  const weighted = plans.map((p) => [p, p.weight] as const);
  for (let i = 0; i < spec.contracts; i++) {
    const plan = r.weighted(weighted);
    const group = groups.get(plan.key)!;
    // More recent signups than old ones: a growing shop.
    const ageDays = Math.floor(Math.pow(r.next(), 1.6) * 900);
    const createdAt = new Date(NOW.getTime() - ageDays * DAY - r.int(0, DAY - 1));
    const status = plan.archived ? r.pick(["ACTIVE", "CANCELLED", "CANCELLED"] as const) : r.weighted(STATUSES);
    // An ended contract ended some time between its signup and now, spread over the shop's
    // history (the platform's updatedAt of that change; the mirror keeps it as ended_at), so the
    // demo shows real churn and cohorts that thin out over time (docs/decisions/041).
    const ended = status === "CANCELLED" || status === "EXPIRED" || status === "FAILED";
    const endedAt = ended
      ? new Date(Math.min(NOW.getTime() - 60_000, createdAt.getTime() + (NOW.getTime() - createdAt.getTime()) * (0.1 + 0.9 * r.next())))
      : null;
    // One active contract in forty is due now, so the billing engine has renewals to charge
    // (`npm run cli -- billing run --shop demo-shop.myshopify.com`; docs/decisions/080).
    // (The planned date is drawn either way, so the random sequence of every other field stays the same.)
    const planned = endedAt ? new Date(endedAt.getTime() + r.int(1, 28) * DAY) : nextCharge(plan, NOW, r);
    const next = status === "ACTIVE" && i % 40 === 0 ? new Date(NOW.getTime() - 3600_000) : planned;
    const lineCount = plan.kind === "regular" && r.next() < 0.25 ? 2 : 1;
    const lines = Array.from({ length: lineCount }, () => {
      const product = products.get(r.pick(plan.products))!;
      return {
        variantId: r.pick(product.variants).id,
        quantity: r.weighted([
          [1, 70],
          [2, 22],
          [3, 8],
        ] as const),
        sellingPlanId: group.sellingPlans[0].id,
      };
    });
    const customerId = customers[i % customers.length];
    contracts.push({
      customerId,
      status,
      createdAt: createdAt.toISOString(),
      ...(endedAt ? { updatedAt: endedAt.toISOString() } : {}),
      nextBillingDate: next.toISOString(),
      originOrderName: `#${1001 + i}`,
      billingPolicy: billingPolicy(plan),
      lines,
    });
  }
  for (let i = 0; i < spec.otherAppContracts; i++) {
    contracts.push({
      app: "other",
      customerId: customers[i % customers.length],
      status: r.weighted(STATUSES),
      createdAt: new Date(NOW.getTime() - r.int(1, 600) * DAY).toISOString(),
      lines: [{ variantId: products.get("espresso")!.variants[0].id, quantity: 1, sellingPlanId: foreign.sellingPlans[0].id }],
    });
  }
  await sim.call("POST", `${path}/contracts/bulk`, { contracts, webhooks: false });
}

/** Mirrors the shop's selling plan groups (the app's own plan records). */
async function seedPlans(shopId: string, spec: ShopSpec, groups: SimGroup[]) {
  for (const plan of PLANS.filter((p) => spec.plans.includes(p.key))) {
    const group = groups.find((g) => g.name === plan.name && g.app === "self");
    if (!group) throw new Error(`simulator has no selling plan group "${plan.name}" on ${spec.domain}`);
    const s = plan.schedule;
    const anchored = s.mode === "ANCHORED" ? s : null;
    const fields = {
      name: plan.name,
      status: plan.archived ? ("ARCHIVED" as const) : ("ACTIVE" as const),
      cadenceLabel: cadenceLabel(plan),
      interval: anchored ? "MONTH" : plan.interval,
      intervalCount: plan.intervalCount,
      billingLabel:
        plan.interval === "WEEK"
          ? `Billed every ${plan.intervalCount === 1 ? "week" : `${plan.intervalCount} weeks`}`
          : `Billed every ${plan.intervalCount === 1 ? "month" : `${plan.intervalCount} months`}`,
      discountLabel: plan.discountPercent ? `${plan.discountPercent}% off every order` : "No discount",
      giftable: plan.giftable,
      scheduleMode: anchored ? ("ANCHORED" as const) : ("ROLLING" as const),
      anchorDay: anchored?.anchorDay ?? null,
      anchorMonths: anchored?.anchorMonths ?? [],
      cutoffDays: anchored?.cutoffDays ?? null,
      preAnchorBehavior: anchored?.preAnchor ?? null,
      shipDay: anchored?.shipDay ?? null,
      scheduleLabel: scheduleLabel(plan),
    };
    // Idempotent: a second seed updates the group and keeps its plans.
    await createPlanGroup(shopId, { groupGid: group.id, ...fields, sellingPlans: group.sellingPlans.map((p) => ({ sellingPlanGid: p.id, name: p.name })) });
  }
}

/** App-only records of a rich shop: bundles and boxes, Mix & Match, gifts, win-back, notifications, portal. */
async function seedAppRecords(shopId: string, spec: ShopSpec, products: SimProduct[]) {
  const r = rng(spec.seed * 97);
  const variants = products.flatMap((p) => p.variants.map((v) => ({ ...v, productTitle: p.title, imageUrl: v.imageUrl ?? p.imageUrl })));
  // Catalogue prices in the shop's currency, to minor units by the app's one conversion.
  const cents = (price: string) => parseDecimalToMinor(price, spec.currencyCode);
  const groupByKey = async (key: string) => {
    const plan = PLANS.find((p) => p.key === key)!;
    return prisma.sellingPlanGroup.findFirstOrThrow({ where: { shopId, name: plan.name } });
  };

  // Bundles: two curated boxes and a build-a-box menu, 24+ periods each.
  const bundles = [
    { key: "quarterly", title: "Quarterly Tasting Box", kind: "CURATED" as const, periods: 26, every: 3, items: 4, cutoff: 5, min: null, max: null },
    { key: "roasters", title: "Roaster's Choice Monthly Box", kind: "CURATED" as const, periods: 26, every: 1, items: 3, cutoff: 4, min: null, max: null },
    { key: "buildabox", title: "Build-Your-Own Coffee Box", kind: "BUILD_A_BOX" as const, periods: 26, every: 1, items: 8, cutoff: 4, min: 3, max: 6 },
  ];
  for (const b of bundles) {
    const group = await groupByKey(b.key);
    const bundle = await createBundle({
      shopId,
      groupId: group.id,
      title: b.title,
      kind: b.kind,
      selectionCutoffDays: b.cutoff,
      boxSizeMin: b.min,
      boxSizeMax: b.max,
      createdAt: monthsBack(b.periods * b.every + 1),
    });
    // Periods from oldest to next month; next month's menu is not yet published.
    for (let i = b.periods - 1; i >= -1; i--) {
      const start = monthsBack(i * b.every);
      const published = i >= 0;
      const picks = [...variants].sort(() => r.next() - 0.5).slice(0, b.items);
      await createBundleBox({
        bundleId: bundle.id,
        period: period(start),
        published,
        publishedAt: published ? new Date(start.getTime() - 10 * DAY) : null,
        items: picks.map((v) => ({
          variantGid: v.id,
          productTitle: v.productTitle,
          variantTitle: v.title,
          imageUrl: v.imageUrl,
          priceCents: cents(v.price),
          quantity: b.kind === "CURATED" ? r.int(1, 2) : null,
        })),
      });
    }
  }

  // Mix & Match.
  const mixes = [
    // Entries are variants the plan's group is sold on: a cart line outside it would be refused.
    {
      key: "trio",
      title: "Coffee Trio",
      cartGroupId: "mm-coffee-trio",
      min: 3,
      max: 3,
      categories: [
        ["Fruity & floral", ["yirgacheffe", "kenya"]],
        ["Chocolatey", ["huila"]],
      ],
    },
    {
      key: "teasampler",
      title: "Tea Sampler",
      cartGroupId: "mm-tea-sampler",
      min: 2,
      max: 4,
      categories: [
        ["Black teas", ["darjeeling"]],
        ["Green & herbal", ["sencha", "rooibos"]],
      ],
    },
  ] as const;
  for (const m of mixes) {
    const group = await groupByKey(m.key);
    const entries = m.categories.map(([title, keys]) => ({
      title,
      variants: keys.flatMap((k) =>
        products
          .find((p) => p.title === PRODUCTS.find((x) => x.key === k)!.title)!
          .variants.map((v) => ({ ...v, productTitle: PRODUCTS.find((x) => x.key === k)!.title })),
      ),
    }));
    const cheapest = entries
      .flatMap((e) => e.variants)
      .map((v) => cents(v.price))
      .sort((a, b) => a - b);
    await createMixMatchPlan({
      shopId,
      groupId: group.id,
      title: m.title,
      cartGroupId: m.cartGroupId,
      minItems: m.min,
      maxItems: m.max,
      priceCents: cheapest.slice(0, m.min).reduce((s, c) => s + c, 0),
      // Categories and entries are positioned in the order given.
      categories: entries.map((e) => ({
        title: e.title,
        entries: e.variants.map((v) => ({
          variantGid: v.id,
          productTitle: v.productTitle,
          variantTitle: v.title,
          imageUrl: v.imageUrl,
          priceCents: cents(v.price),
        })),
      })),
    });
  }

  const contracts = await prisma.contract.findMany({
    where: { shopId },
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      contractGid: true,
      customerGid: true,
      status: true,
      sellingPlanGroupGid: true,
      chargeAmountCents: true,
      currencyCode: true,
      createdAt: true,
      updatedAt: true,
      endedAt: true,
    },
  });
  // Nothing the app records happened in the future: every date below is clamped to the past.
  const past = (d: Date) => (d.getTime() > NOW.getTime() - 60_000 ? new Date(NOW.getTime() - 60_000) : d);

  // Gifts on giftable plans, both kinds, every status.
  const giftable = new Set((await prisma.sellingPlanGroup.findMany({ where: { shopId, giftable: true }, select: { groupGid: true } })).map((g) => g.groupGid));
  // Gifts sent at least two weeks ago, so sends and claims are behind us.
  const giftContracts = contracts
    .filter((c) => c.sellingPlanGroupGid && giftable.has(c.sellingPlanGroupGid) && c.createdAt.getTime() < NOW.getTime() - 14 * DAY)
    .slice(0, 40);
  await prisma.gift.createMany({
    data: giftContracts.map((c, i) => {
      const kind = i % 3 === 0 ? ("RECURRING" as const) : ("PREPAID" as const);
      const status =
        c.status === "EXPIRED"
          ? "ENDED"
          : r.weighted([
              ["CLAIMED", 55],
              ["SENT", 18],
              ["PENDING", 12],
              ["EXPIRED", 8],
              ["ENDED", 7],
            ] as const);
      const gifter = `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`;
      const recipient = `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`;
      const sentAt = new Date(c.createdAt.getTime() + DAY);
      return {
        shopId,
        contractId: c.id,
        kind,
        status,
        gifterName: gifter,
        gifterEmail: `${gifter.split(" ")[0].toLowerCase()}.gifts${i}@example.com`,
        recipientName: recipient,
        recipientEmail: `${recipient.split(" ")[0].toLowerCase()}.recipient${i}@example.com`,
        message: r.pick(GIFT_MESSAGES),
        claimTokenHash: createHash("sha256").update(randomBytes(24)).digest("hex"),
        prepaidCharges: kind === "PREPAID" ? r.pick([3, 6, 12]) : null,
        chargesRun: r.int(0, 6),
        sendAt: sentAt,
        sentAt: status === "PENDING" ? null : sentAt,
        claimedAt: status === "CLAIMED" || status === "ENDED" ? new Date(sentAt.getTime() + r.int(1, 10) * DAY) : null,
        expiresAt: new Date(sentAt.getTime() + 60 * DAY),
        createdAt: c.createdAt,
      };
    }),
  });

  // Win-back: an active campaign with a ledger of sends, some recovered; an ended one.
  // One send per customer per campaign (the ledger's unique key, docs/decisions/117): a customer's first cancelled contract.
  const seenCustomers = new Set<string>();
  const cancelled = contracts.filter((c) => c.status === "CANCELLED" && c.endedAt && !seenCustomers.has(c.customerGid) && seenCustomers.add(c.customerGid));
  const campaigns = [
    {
      name: "We miss you — 20% off your next box",
      status: "active",
      offerLabel: "20% off the next order",
      discountPercent: 20,
      delayDays: 14,
      sends: cancelled.slice(0, 80),
      createdAt: monthsBack(10),
    },
    {
      name: "Spring comeback: free biscotti",
      status: "ended",
      offerLabel: "Free biscotti with the next box",
      discountPercent: null,
      delayDays: 30,
      sends: cancelled.slice(80, 110),
      createdAt: monthsBack(20),
    },
  ];
  for (const c of campaigns) {
    const campaign = await prisma.winbackCampaign.create({
      data: {
        shopId,
        name: c.name,
        status: c.status,
        offerLabel: c.offerLabel,
        discountPercent: c.discountPercent,
        delayDays: c.delayDays,
        createdAt: c.createdAt,
      },
    });
    await prisma.winbackSend.createMany({
      // A send goes out delayDays after the cancellation; those still ahead are not sent yet.
      data: c.sends.flatMap((k) => {
        const sentAt = new Date(Math.max(k.endedAt!.getTime(), c.createdAt.getTime()) + c.delayDays * DAY);
        if (sentAt > NOW) return [];
        const reactivatedAt = new Date(sentAt.getTime() + r.int(1, 12) * DAY);
        const reactivated = r.next() < 0.22 && reactivatedAt <= NOW;
        return {
          shopId,
          campaignId: campaign.id,
          contractGid: k.contractGid,
          customerGid: k.customerGid,
          decidedAt: sentAt,
          sentAt,
          reactivated,
          reactivatedAt: reactivated ? reactivatedAt : null,
          recoveredAmountCents: reactivated ? (k.chargeAmountCents ?? 0) : 0,
          currencyCode: k.currencyCode,
          createdAt: sentAt,
        };
      }),
    });
  }

  // Notification log: the e-mails the app sent (no names, no addresses).
  const log = [];
  // Sent over the last 180 days, while the contract was live (never after it ended, never
  // in the future), delivered a minute later.
  for (let i = 0; i < 900; i++) {
    const c = contracts[r.int(0, contracts.length - 1)];
    const n = r.pick(NOTIFICATION_EVENTS);
    const from = Math.max(c.createdAt.getTime(), NOW.getTime() - 180 * DAY);
    const until = Math.min(c.endedAt?.getTime() ?? NOW.getTime(), NOW.getTime()) - 2 * 60_000;
    const createdAt = new Date(until <= from ? until : from + r.next() * (until - from));
    const status = r.weighted([
      ["delivered", 82],
      ["sent", 8],
      ["bounced", 4],
      ["failed", 3],
      ["queued", 3],
    ] as const);
    log.push({
      shopId,
      customerGid: c.customerGid,
      contractGid: c.contractGid,
      event: n.event,
      category: n.category,
      status,
      title: n.title,
      deliveredAt: status === "delivered" ? new Date(createdAt.getTime() + 60_000) : null,
      createdAt,
    });
  }
  await prisma.notificationLogEntry.createMany({ data: log });

  // Portal: preferences, cancellation reasons and save-flow events, portal config.
  const customers = [...new Set(contracts.map((c) => c.customerGid))];
  await prisma.notificationPreference.createMany({
    data: customers
      .slice(0, 45)
      .map((customerGid) => ({ shopId, customerGid, values: { reminders: r.next() < 0.8, orders: true, box: r.next() < 0.7, winback: r.next() < 0.4 } })),
    skipDuplicates: true,
  });
  await prisma.cancelReason.createMany({
    data: cancelled
      .slice(0, 60)
      .map((c) => ({ shopId, contractGid: c.contractGid, customerGid: c.customerGid, reason: r.pick(CANCEL_REASONS), createdAt: c.endedAt! })),
  });
  await prisma.saveEvent.createMany({
    data: contracts.slice(0, 120).flatMap((c) => {
      const offerType = r.pick(["pause", "skip", "discount"] as const);
      const accepted = c.status !== "CANCELLED" && r.next() < 0.4;
      const base = { shopId, contractGid: c.contractGid, customerGid: c.customerGid, offerType, createdAt: past(c.endedAt ?? c.updatedAt) };
      return accepted
        ? [
            { ...base, eventType: "shown", preservedRevenueCents: 0 },
            { ...base, eventType: "accepted", preservedRevenueCents: c.chargeAmountCents ?? 0 },
          ]
        : [{ ...base, eventType: "shown", preservedRevenueCents: 0 }];
    }),
  });
  await prisma.portalConfig.upsert({
    where: { shopId },
    create: {
      shopId,
      rescheduleMaxMonths: 3,
      cancelReasons: CANCEL_REASONS,
      hiddenActions: ["edit_address"],
      allowedOrigins: ["https://shop.northwind-coffee.example"],
    },
    update: {},
  });

  // Legacy contracts imported before monthly amounts existed: never backfilled, so analytics
  // must report them in contracts_missing_amount instead of inventing a figure.
  const legacy = contracts
    .filter((c) => c.status === "ACTIVE")
    .slice(0, 35)
    .map((c) => c.id);
  await prisma.contract.updateMany({ where: { id: { in: legacy } }, data: { monthlyAmountCents: null } });
}

async function seedShop(sim: Sim, spec: ShopSpec) {
  const existing = await sim.getShop(spec.domain);
  const fresh = !existing || (existing.counts?.contracts ?? 0) === 0;
  if (fresh) {
    // The simulator forgot this shop (or never had it): whatever the app held is stale.
    await prisma.shop.deleteMany({ where: { domain: spec.domain } });
  }
  const installed = await sim.installShop({ shop: spec.domain, currencyCode: spec.currencyCode, name: spec.domain.split(".")[0].replace(/-/g, " ") });
  if (fresh) await seedSimulator(sim, spec);
  // Pro demo shops hold a support override (they have no charge in the simulator's Billing); a
  // Free one follows Billing, so upgrading it on the Plan page works as for a merchant.
  await createInstalledShop(spec.domain, installed, spec.plan === "PRO" ? "PRO" : null);
  const shop = await prisma.shop.update({
    where: { domain: spec.domain },
    data: { storefrontOrigins: [`https://${spec.domain}`] },
    select: { id: true },
  });
  await seedPlans(shop.id, spec, await sim.call<SimGroup[]>("GET", `${sim.shop(spec.domain)}/selling-plan-groups`));
  const { contracts } = await reconcileShop(spec.domain);
  // Bundles are the first records seedAppRecords writes and nothing else makes them; the notification
  // log is not a mark: the running workers may log a confirmation for the shop before this line.
  const hasRecords = (await prisma.bundle.count({ where: { shopId: shop.id } })) > 0;
  if (spec.rich && !hasRecords) await seedAppRecords(shop.id, spec, await sim.call<SimProduct[]>("GET", `${sim.shop(spec.domain)}/products`));
  // The example portal (/examples/portal/) is served by the app itself: its origin may call the
  // Customer API out of the box; the merchant adds their own on Storefront access (decision 132).
  const appOrigin = new URL(env().SHOPIFY_APP_URL).origin;
  const portal = await prisma.portalConfig.findUnique({ where: { shopId: shop.id }, select: { allowedOrigins: true } });
  if (!portal?.allowedOrigins.includes(appOrigin)) {
    const allowedOrigins = [...(portal?.allowedOrigins ?? []), appOrigin];
    await prisma.portalConfig.upsert({ where: { shopId: shop.id }, create: { shopId: shop.id, allowedOrigins }, update: { allowedOrigins } });
  }
  // The theme blocks read these; the same sync the webhook and the nightly job run (decision 066).
  if (spec.rich) await syncStorefrontMetafields(spec.domain, { force: true });
  console.log(`[seed] ${spec.domain}: ${contracts} contracts mirrored (${spec.plan})${fresh ? ", created in the simulator" : ""}`);
}

export async function seedDemo(): Promise<void> {
  const config = env();
  if (!config.SHOPIFY_SIMULATOR_URL) throw new Error("The demo seed needs simulator mode (SHOPIFY_SIMULATOR_URL).");
  const sim = new SimulatorControl(config.SHOPIFY_SIMULATOR_URL);
  let local: { close(): Promise<void> } | undefined;
  if (!(await sim.reachable())) {
    const { startSimulator } = await import("../simulator/server");
    local = await startSimulator({
      port: config.SIMULATOR_PORT,
      stateFile: config.SIMULATOR_STATE_FILE,
      appUrl: config.SHOPIFY_APP_URL,
      apiKey: config.SHOPIFY_API_KEY,
      apiSecret: config.SHOPIFY_API_SECRET,
    });
  }
  try {
    for (const spec of DEMO_SHOPS) await seedShop(sim, spec);
  } finally {
    await local?.close();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ""))) {
  try {
    const { assertDatabaseReady } = await import("../app/infra/service-checks.server");
    if (process.env.NODE_ENV !== "production") await assertDatabaseReady(env().DATABASE_URL);
    await seedDemo();
    await prisma.$disconnect();
    process.exit(0);
  } catch (err) {
    console.error(err);
    await prisma.$disconnect();
    process.exit(1);
  }
}
