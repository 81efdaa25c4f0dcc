// Keeps the storefront metafields (app.bundle_plan, app.mix_match) current on the products
// their plans are sold on, with the child selling plan id resolved live at the platform
// (docs/decisions/066-storefront-metafields.md). Three callers, one function:
// the inbound selling_plan_groups/update webhook (through the mirror queue), the nightly
// reconcile, and the demo seed / CLI. Safe to run twice; syncs of one shop run one at a time.
import { prisma } from "../../db.server";
import { env } from "../../env.server";
import { withLease } from "../../infra/redis-lock.server";
import type { SellingPlanGroupWebhook } from "../../infra/job-payloads";
import { log } from "../../infra/log.server";
import { ensureStorefrontDefinitions } from "./definitions.server";
import { STOREFRONT_METAFIELDS, type BundlePlanValue, type MixMatchValue, type StorefrontMetafieldKey } from "./metafields";
import { storedSizes } from "../catalog/bundle-builder.server";
import { livePlatform, sellingPlanFields, type LiveGroup } from "../catalog/selling-plans-live.server";
import { readGroupsLive, type LiveReadOptions } from "./live-read.server";

/** Written over a metafield whose product no longer carries the plan: the blocks render nothing. */
export const CLEARED_VALUE = JSON.stringify({ selling_plan_id: null });

export interface StorefrontSyncReport {
  products: number;
  written: number;
  cleared: number;
}

interface Desired {
  ownerGid: string;
  key: StorefrontMetafieldKey;
  value: string;
}

const slot = (ownerGid: string, key: string) => `${ownerGid}|${key}`;

/** What every metafield of the shop should hold now, from the mirror and the live platform. */
async function desiredMetafields(shopId: string, shopDomain: string, read: LiveReadOptions): Promise<Map<string, Desired>> {
  const bundles = await prisma.bundle.findMany({
    where: { shopId },
    include: { group: { select: { groupGid: true } } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const mixes = await prisma.mixMatchPlan.findMany({
    where: { shopId },
    include: { group: { select: { groupGid: true } }, categories: { include: { entries: true } } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const desired = new Map<string, Desired>();
  if (bundles.length === 0 && mixes.length === 0) return desired;

  // A large catalogue is read through one bulk operation (docs/decisions/164-storefront-bulk-read.md).
  const { live, productOf } = await readGroupsLive(shopId, shopDomain, [...bundles.map((b) => b.group.groupGid), ...mixes.map((m) => m.group.groupGid)], read);
  const productsOf = (g: LiveGroup | undefined) => [...new Set((g?.variantIds ?? []).map((v) => productOf.get(v)).filter((p): p is string => !!p))];

  // The oldest plan wins a product that two plans of the same kind are sold on (decision 066).
  const put = (products: string[], key: StorefrontMetafieldKey, value: object, what: string) => {
    for (const ownerGid of products) {
      const existing = desired.get(slot(ownerGid, key));
      if (existing) {
        log.warn("storefront metafield: product already carries an older plan", { ownerGid, key, skipped: what });
        continue;
      }
      desired.set(slot(ownerGid, key), { ownerGid, key, value: JSON.stringify(value) });
    }
  };

  for (const b of bundles) {
    const g = live.get(b.group.groupGid);
    const value: BundlePlanValue = {
      bundle_id: b.id,
      title: b.title,
      selling_plan_group_id: b.group.groupGid,
      ...sellingPlanFields(g),
      selection_cutoff_days: b.selectionCutoffDays,
      box_sizes: b.kind === "BUILD_A_BOX" ? storedSizes(b).map((z) => ({ label: z.label, min_items: z.min, max_items: z.max })) : [],
    };
    put(productsOf(g), STOREFRONT_METAFIELDS.bundlePlan.key, value, `bundle ${b.id}`);
  }
  const byPos = <T extends { position: number; id: string }>(a: T, b: T) => a.position - b.position || a.id.localeCompare(b.id);
  for (const m of mixes) {
    const g = live.get(m.group.groupGid);
    // Only variants sold on the plan's group: a line the cart would refuse is never offered.
    const sold = new Set(g?.variantIds ?? []);
    const value: MixMatchValue = {
      mix_match_id: m.id,
      title: m.title,
      selling_plan_group_id: m.group.groupGid,
      selling_plan_id: sellingPlanFields(g).selling_plan_id,
      cart_group_id: m.cartGroupId,
      min_items: m.minItems,
      max_items: m.maxItems,
      price_cents: m.priceCents,
      categories: [...m.categories].sort(byPos).map((c) => ({
        title: c.title,
        entries: [...c.entries]
          .sort(byPos)
          .filter((e) => sold.has(e.variantGid))
          .map((e) => ({ variant_id: e.variantGid, product_title: e.productTitle, variant_title: e.variantTitle, price_cents: e.priceCents })),
      })),
    };
    const offered = value.categories.reduce((n, c) => n + c.entries.length, 0);
    const total = m.categories.reduce((n, c) => n + c.entries.length, 0);
    if (offered < total) log.warn("mix & match entries not sold on the plan's group are left out", { mixMatchId: m.id, left_out: total - offered });
    put(productsOf(g), STOREFRONT_METAFIELDS.mixMatch.key, value, `mix & match ${m.id}`);
  }
  return desired;
}

/**
 * Writes every storefront metafield of the shop that differs from what the app last wrote
 * (all of them with `force`, the nightly repair of drift on the platform's side), and clears
 * those whose product no longer carries the plan. Throws when the platform does not answer
 * (the job retries); nothing partial is recorded as written.
 */
export async function syncStorefrontMetafields(shopDomain: string, opts: { force?: boolean; read?: LiveReadOptions } = {}): Promise<StorefrontSyncReport> {
  const shop = await prisma.shop.findUnique({ where: { domain: shopDomain }, select: { id: true, installState: true } });
  if (!shop || shop.installState !== "INSTALLED") return { products: 0, written: 0, cleared: 0 };
  // The definitions first: without storefront access the values are invisible to a headless storefront (decision 123).
  await ensureStorefrontDefinitions(shopDomain);
  // One sync per shop at a time: a slower sync that resolved before a plan change must not
  // overwrite the newer one's values. The lease is in Redis, not a transaction's advisory lock:
  // Shopify is called outside any database transaction, and only the bookkeeping of what was
  // written is one short transaction at the end (docs/decisions/144-bounded-tables.md).
  return withLease(
    `${env().REDIS_PREFIX}:storefront-sync:{${shop.id}}`,
    async () => {
      const desired = await desiredMetafields(shop.id, shopDomain, opts.read ?? {});
      const stored = await prisma.storefrontMetafield.findMany({ where: { shopId: shop.id } });
      const storedBySlot = new Map(stored.map((r) => [slot(r.ownerGid, r.key), r]));
      const writes = [...desired.values()].filter((d) => opts.force || storedBySlot.get(slot(d.ownerGid, d.key))?.value !== d.value);
      const clears = stored.filter((r) => !desired.has(slot(r.ownerGid, r.key)));
      const inputs = [
        ...writes.map((d) => ({ ownerId: d.ownerGid, namespace: STOREFRONT_METAFIELDS.bundlePlan.namespace, key: d.key, type: "json", value: d.value })),
        ...clears.map((r) => ({ ownerId: r.ownerGid, namespace: STOREFRONT_METAFIELDS.bundlePlan.namespace, key: r.key, type: "json", value: CLEARED_VALUE })),
      ];
      if (inputs.length) await livePlatform(shopDomain, (port) => port.setMetafields(inputs), "storefront_sync");
      const now = new Date();
      await prisma.$transaction([
        ...writes.map((d) =>
          prisma.storefrontMetafield.upsert({
            where: { shopId_ownerGid_key: { shopId: shop.id, ownerGid: d.ownerGid, key: d.key } },
            create: { shopId: shop.id, ownerGid: d.ownerGid, key: d.key, value: d.value },
            update: { value: d.value, writtenAt: now },
          }),
        ),
        ...(clears.length
          ? [prisma.storefrontMetafield.deleteMany({ where: { shopId: shop.id, OR: clears.map((r) => ({ ownerGid: r.ownerGid, key: r.key })) } })]
          : []),
      ]);
      const report = { products: new Set([...desired.values()].map((d) => d.ownerGid)).size, written: writes.length, cleared: clears.length };
      if (inputs.length) log.info("storefront metafields synced", { shop: shopDomain, ...report });
      return report;
    },
    { ttlMs: 60_000, maxWaitMs: 120_000 },
  );
}

/**
 * The mirror's inbound selling_plan_groups/create, /update and /delete: re-read the group at the
 * platform, mirror its child plans, and bring the storefront metafields of the shop up to date. A
 * group the platform no longer has is archived with no child plans (GET /plans shows it archived,
 * the storefront offers it no more). A group this app does not mirror (another app's) changes nothing.
 */
export async function syncSellingPlanGroup(job: SellingPlanGroupWebhook): Promise<{ mirrored: boolean; metafields: StorefrontSyncReport | null }> {
  const shop = await prisma.shop.findUnique({ where: { domain: job.shopDomain }, select: { id: true, installState: true } });
  if (!shop || shop.installState !== "INSTALLED") return { mirrored: false, metafields: null };
  const local = await prisma.sellingPlanGroup.findUnique({ where: { shopId_groupGid: { shopId: shop.id, groupGid: job.groupGid } } });
  if (!local) return { mirrored: false, metafields: null };
  const live = await livePlatform(job.shopDomain, (port) => port.resolveSellingPlans(job.groupGid), "storefront_sync");
  const plans = live?.sellingPlans ?? [];
  await prisma.$transaction([
    ...(live ? [] : [prisma.sellingPlanGroup.update({ where: { id: local.id }, data: { status: "ARCHIVED" } })]),
    prisma.sellingPlan.deleteMany({ where: { groupId: local.id, sellingPlanGid: { notIn: plans.map((p) => p.id) } } }),
    ...plans.map((p, position) =>
      prisma.sellingPlan.upsert({
        where: { groupId_sellingPlanGid: { groupId: local.id, sellingPlanGid: p.id } },
        create: { groupId: local.id, sellingPlanGid: p.id, name: p.name, position },
        update: { name: p.name, position },
      }),
    ),
  ]);
  return { mirrored: true, metafields: await syncStorefrontMetafields(job.shopDomain) };
}
