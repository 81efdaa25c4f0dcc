// The one way to build test data: shops, keys, plan groups, contracts, bundles and their menus,
// Mix & Match plans, written through Prisma (and, for an installed shop, through the app's own
// install path). Every test and the demo seed (prisma/seed.ts) build their rows here, so a change
// to the schema is made once. Nothing here imports Vitest: the seed runs outside a test.
//
// Builders that take `over` fill every field a test does not name with a plausible default and
// return the created row. Domains and gids are unique per process, so tests of one worker never
// collide in its database.
import { randomUUID } from "node:crypto";
import type { Prisma } from "@prisma/client";
import { prisma } from "../../app/db.server";
import { mintKey, type MintedKey, type MintInput } from "../../app/domain/keys/keys.server";
import { recordInstallation, setAppPlan } from "../../app/domain/shop/lifecycle.server";

let seq = 0;
/** A short string unique in this process (time, a counter and randomness). */
export const uniq = () => `${Date.now().toString(36)}${(++seq).toString(36)}${randomUUID().slice(0, 6)}`;
let gidSeq = Math.floor(Math.random() * 1e9);
/** A fresh Shopify global id of the type, e.g. gid("SubscriptionContract"). */
export const gid = (type: string) => `gid://shopify/${type}/${++gidSeq}`;

// ---------------------------------------------------------------------------------------------
// Shops

export interface ShopOpts {
  /** Default: a fresh `t-<uuid>.myshopify.com`. */
  domain?: string;
  /** Default PRO. */
  appPlan?: "FREE" | "PRO";
  /** What Shopify Billing last said of the app's plan (docs/decisions on the app plan); default unset. */
  billingPlan?: "FREE" | "PRO";
  partnerDevelopment?: boolean;
  platformPlanPaid?: boolean;
  storefrontOrigins?: string[];
  installedAt?: Date;
  /**
   * When the plan facts were last read from Shopify; default now, so the gate's 60 s re-read
   * (decision 121) leaves the row as the test wrote it. null: stale at once.
   */
  planCheckedAt?: Date | null;
  /** An offline session row (what the GraphQL adapter reads); default true. */
  offlineSession?: boolean;
  /** The offline session's access token; default shpat_test (the simulator's test token). */
  accessToken?: string;
}

/** A shop row (and, unless told otherwise, its offline session), written straight to the database. */
export async function createShop(opts: ShopOpts = {}) {
  const domain = opts.domain ?? `t-${randomUUID()}.myshopify.com`;
  const shop = await prisma.shop.create({
    data: {
      domain,
      appPlan: opts.appPlan ?? "PRO",
      ...(opts.billingPlan === undefined ? {} : { billingPlan: opts.billingPlan }),
      ...(opts.partnerDevelopment === undefined ? {} : { partnerDevelopment: opts.partnerDevelopment }),
      ...(opts.platformPlanPaid === undefined ? {} : { platformPlanPaid: opts.platformPlanPaid }),
      ...(opts.storefrontOrigins === undefined ? {} : { storefrontOrigins: opts.storefrontOrigins }),
      ...(opts.installedAt === undefined ? {} : { installedAt: opts.installedAt }),
      planCheckedAt: opts.planCheckedAt === undefined ? new Date() : opts.planCheckedAt,
    },
  });
  if (opts.offlineSession !== false) {
    await prisma.session.create({
      data: { id: `offline_${domain}`, shop: domain, state: "", isOnline: false, accessToken: opts.accessToken ?? "shpat_test" },
    });
  }
  return shop;
}

/**
 * A shop installed the way the app installs one (sealed offline session, shop row) after the
 * platform granted `accessToken`, on the app plan given (null: follow Shopify Billing).
 */
export async function createInstalledShop(domain: string, grant: { accessToken: string; scope: string }, plan: "PRO" | "FREE" | null) {
  await recordInstallation(domain, grant.accessToken, grant.scope);
  await setAppPlan(domain, plan);
  return prisma.shop.findUniqueOrThrow({ where: { domain } });
}

// ---------------------------------------------------------------------------------------------
// Keys

/** What mintKey takes; only the shop is required (default: a SECRET key named "test key"). */
export type KeyOpts = Partial<MintInput> & { shopId: string };

/** An API key minted by the app's own mintKey (so its hash, prefix and checks are real). */
export async function createKey(opts: KeyOpts): Promise<MintedKey> {
  return mintKey({ shopId: opts.shopId, name: opts.name ?? "test key", scopes: opts.scopes ?? [], kind: opts.kind ?? "SECRET", expiresAt: opts.expiresAt });
}

// ---------------------------------------------------------------------------------------------
// Selling plan groups

type PlanGroupData = Omit<Prisma.SellingPlanGroupUncheckedCreateInput, "shopId" | "sellingPlans" | "id">;

export type PlanGroupOpts = Partial<PlanGroupData> & {
  /** The group's selling plans by gid (named "Plan 0", "Plan 1", ...); default one fresh plan. */
  sellingPlanGids?: string[];
  /** The group's selling plans with their names (wins over sellingPlanGids). */
  sellingPlans?: { sellingPlanGid: string; name: string }[];
};

/**
 * A mirrored selling plan group with its plans. Idempotent on (shop, group gid): an existing
 * group is updated with the fields given and keeps its plans (new ones are added), as the demo
 * seed needs when it runs again.
 */
export async function createPlanGroup(shopId: string, over: PlanGroupOpts = {}) {
  const { sellingPlanGids, sellingPlans, ...data } = over;
  const fields = {
    groupGid: gid("SellingPlanGroup"),
    name: "Monthly coffee",
    cadenceLabel: "Every month",
    interval: "MONTH",
    intervalCount: 1,
    billingLabel: "Billed monthly",
    discountLabel: "10% off",
    ...data,
  };
  const plans = sellingPlans ?? (sellingPlanGids ?? [gid("SellingPlan")]).map((g, i) => ({ sellingPlanGid: g, name: `Plan ${i}` }));
  const { groupGid, ...rest } = fields;
  const row = await prisma.sellingPlanGroup.upsert({
    where: { shopId_groupGid: { shopId, groupGid } },
    create: { shopId, groupGid, ...rest },
    update: rest,
  });
  await prisma.sellingPlan.createMany({
    data: plans.map((p, position) => ({ groupId: row.id, sellingPlanGid: p.sellingPlanGid, name: p.name, position })),
    skipDuplicates: true,
  });
  return prisma.sellingPlanGroup.findUniqueOrThrow({ where: { id: row.id }, include: { sellingPlans: { orderBy: { position: "asc" } } } });
}

// ---------------------------------------------------------------------------------------------
// Contracts (the mirror's rows)

export interface ContractSeed {
  contractGid?: string;
  status?: "ACTIVE" | "PAUSED" | "CANCELLED" | "EXPIRED" | "FAILED" | "STALE";
  createdByService?: boolean;
  customerGid?: string;
  sellingPlanGroupGid?: string | null;
  sellingPlanGid?: string | null;
  monthlyAmountCents?: number | null;
  chargeAmountCents?: number | null;
  currencyCode?: string;
  createdAt?: Date;
  updatedAt?: Date;
  /** When it ended; default for an ended status (CANCELLED, EXPIRED, FAILED): updatedAt, else null. */
  endedAt?: Date | null;
  nextBillingAt?: Date | null;
  billingInterval?: string | null;
  billingIntervalCount?: number | null;
  productTitle?: string | null;
  frequencyLabel?: string | null;
  orderName?: string | null;
}

/** The row createContract(s) write: the i-th of a batch is created i+1 minutes ago unless told. */
export function contractData(shopId: string, s: ContractSeed = {}, i = 0) {
  const createdAt = s.createdAt ?? new Date(Date.now() - (i + 1) * 60_000);
  return {
    shopId,
    contractGid: s.contractGid ?? gid("SubscriptionContract"),
    status: s.status ?? "ACTIVE",
    createdByService: s.createdByService ?? true,
    customerGid: s.customerGid ?? gid("Customer"),
    sellingPlanGroupGid: s.sellingPlanGroupGid ?? null,
    sellingPlanGid: s.sellingPlanGid ?? null,
    monthlyAmountCents: s.monthlyAmountCents === undefined ? 2000 : s.monthlyAmountCents,
    chargeAmountCents: s.chargeAmountCents === undefined ? 2000 : s.chargeAmountCents,
    currencyCode: s.currencyCode ?? "USD",
    billingInterval: s.billingInterval === undefined ? "MONTH" : s.billingInterval,
    billingIntervalCount: s.billingIntervalCount === undefined ? 1 : s.billingIntervalCount,
    nextBillingAt: s.nextBillingAt === undefined ? new Date(Date.now() + 10 * 86_400_000) : s.nextBillingAt,
    productTitle: s.productTitle === undefined ? "Coffee beans" : s.productTitle,
    frequencyLabel: s.frequencyLabel ?? null,
    orderName: s.orderName ?? null,
    createdAt,
    updatedAt: s.updatedAt ?? createdAt,
    // As the mirror keeps it (docs/decisions/041): an ended contract has an end time.
    endedAt: s.endedAt !== undefined ? s.endedAt : ["CANCELLED", "EXPIRED", "FAILED"].includes(s.status ?? "ACTIVE") ? (s.updatedAt ?? createdAt) : null,
  } as const;
}

/** n mirrored contracts in batches of 1000 (no lines); `seed(i)` names what differs per row. */
export async function createContracts(shopId: string, n: number, seed: (i: number) => ContractSeed = () => ({})) {
  const rows = Array.from({ length: n }, (_, i) => contractData(shopId, seed(i), i));
  for (let i = 0; i < rows.length; i += 1000) await prisma.contract.createMany({ data: rows.slice(i, i + 1000) });
  return rows;
}

export interface LineSeed {
  lineGid?: string;
  variantGid?: string;
  quantity?: number;
  priceCents?: number;
  sellingPlanGid?: string | null;
}

/** One mirrored contract with its lines. */
export async function createContract(shopId: string, s: ContractSeed = {}, lines: LineSeed[] = []) {
  return prisma.contract.create({
    data: {
      ...contractData(shopId, s),
      lines: {
        create: lines.map((l, position) => ({
          lineGid: l.lineGid ?? gid("SubscriptionLine"),
          variantGid: l.variantGid ?? gid("ProductVariant"),
          productGid: gid("Product"),
          title: "Coffee beans",
          quantity: l.quantity ?? 1,
          priceCents: l.priceCents ?? 1800,
          sellingPlanGid: l.sellingPlanGid ?? null,
          position,
        })),
      },
    },
    include: { lines: true },
  });
}

// ---------------------------------------------------------------------------------------------
// Bundles, their menus (boxes) and Mix & Match plans

/** A bundle on a plan group: default a curated box titled "Box". */
export async function createBundle(
  data: Omit<Prisma.BundleUncheckedCreateInput, "title" | "kind"> & Partial<Pick<Prisma.BundleUncheckedCreateInput, "title" | "kind">>,
) {
  return prisma.bundle.create({ data: { title: "Box", kind: "CURATED", ...data } });
}

export interface MenuItem {
  variantGid: string;
  productTitle: string;
  variantTitle: string;
  imageUrl?: string | null;
  priceCents: number;
  quantity?: number | null;
}

/** One period's menu (box) of a bundle, its items in the order given. */
export async function createBundleBox(opts: { bundleId: string; period: string; published?: boolean; publishedAt?: Date | null; items: MenuItem[] }) {
  const published = opts.published ?? true;
  return prisma.bundleBox.create({
    data: {
      bundleId: opts.bundleId,
      period: opts.period,
      published,
      publishedAt: opts.publishedAt !== undefined ? opts.publishedAt : published ? new Date() : null,
      items: { create: opts.items.map((item, position) => ({ ...item, position })) },
    },
  });
}

export interface MixMatchOpts {
  shopId: string;
  groupId: string;
  title: string;
  cartGroupId: string;
  priceCents: number;
  minItems: number;
  maxItems: number;
  /** Categories and their entries, positioned in the order given. */
  categories: { title: string; entries: Omit<MenuItem, "quantity">[] }[];
}

/** A Mix & Match plan with its categories and entries. */
export async function createMixMatchPlan(opts: MixMatchOpts) {
  const { categories, ...plan } = opts;
  return prisma.mixMatchPlan.create({
    data: {
      ...plan,
      categories: {
        create: categories.map((c, position) => ({
          title: c.title,
          position,
          entries: { create: c.entries.map((e, i) => ({ ...e, position: i })) },
        })),
      },
    },
  });
}
