// A bundle's menu per period, as the Bundles page edits it (docs/decisions/105-bundle-builder.md):
// the variants offered (checked against the shop's catalogue at Shopify, titles, images and prices
// snapshotted from it), per-item limits and the fallback box. A menu is a draft until published;
// publishing goes through publishBoxMenu (the box_menu_published mail). Every check runs before the
// one transaction that replaces the items, so a refused menu leaves the saved one as it was.
import type { Prisma } from "@prisma/client";
import { prisma } from "../../db.server";
import { platformFor, type ShopifyPort } from "../../platform/index.server";
import type { PlatformVariant } from "../../platform/port";
import { parseDecimalToMinor } from "../shared/money.server";
import { publishBoxMenu } from "./box-menu.server";
import { MenuForm, nextPeriod, zodErrors, type FieldErrors, type MenuItemForm } from "./bundle-form";
import { storedSizes, type BundleContext } from "./bundle-builder.server";

export interface MenuPage {
  period: string;
  published: boolean;
  publishedAt: string | null;
  items: MenuItemForm[];
  /** The most recent earlier period with a menu ("copy last period's menu"), if any. */
  previousPeriod: string | null;
}

const itemForm = (i: {
  variantGid: string;
  productTitle: string;
  variantTitle: string | null;
  maxQuantity: number | null;
  fallbackQuantity: number;
  quantity: number | null;
}): MenuItemForm => ({
  variantId: i.variantGid,
  title: i.variantTitle ? `${i.productTitle} – ${i.variantTitle}` : i.productTitle,
  maxQuantity: i.maxQuantity,
  fallbackQuantity: i.fallbackQuantity,
  quantity: i.quantity,
});

async function ownBundle(shopId: string, bundleId: string) {
  return prisma.bundle.findFirst({ where: { id: bundleId, shopId }, include: { group: { select: { groupGid: true } } } });
}

/** The period's menu as the editor shows it (an empty draft when there is none yet), or null for another shop's bundle. */
export async function menuPage(shopId: string, bundleId: string, period: string): Promise<MenuPage | null> {
  const bundle = await ownBundle(shopId, bundleId);
  if (!bundle) return null;
  const box = await prisma.bundleBox.findUnique({
    where: { bundleId_period: { bundleId, period } },
    include: { items: { orderBy: [{ position: "asc" }, { id: "asc" }] } },
  });
  const previous = await prisma.bundleBox.findFirst({ where: { bundleId, period: { lt: period } }, orderBy: { period: "desc" }, select: { period: true } });
  return {
    period,
    published: box?.published ?? false,
    publishedAt: box?.publishedAt?.toISOString() ?? null,
    items: box?.items.map(itemForm) ?? [],
    previousPeriod: previous?.period ?? null,
  };
}

/** "Copy last period's menu": the items of the most recent earlier period, as a new draft's form (not saved). */
export async function copyPreviousMenu(shopId: string, bundleId: string, period: string): Promise<MenuItemForm[] | null> {
  const bundle = await ownBundle(shopId, bundleId);
  if (!bundle) return null;
  const previous = await prisma.bundleBox.findFirst({
    where: { bundleId, period: { lt: period } },
    orderBy: { period: "desc" },
    include: { items: { orderBy: [{ position: "asc" }, { id: "asc" }] } },
  });
  return previous ? previous.items.map(itemForm) : null;
}

/** The period after the latest one with a menu (or the current month): where "next month's menu" starts. */
export async function suggestedPeriod(bundleId: string, now = new Date()): Promise<string> {
  const latest = await prisma.bundleBox.findFirst({ where: { bundleId }, orderBy: { period: "desc" }, select: { period: true } });
  const current = now.toISOString().slice(0, 7);
  return latest && latest.period >= current ? nextPeriod(latest.period) : nextPeriod(current);
}

type Checked = { ok: true; items: MenuItemForm[]; variants: Map<string, PlatformVariant>; currency: string } | { ok: false; errors: FieldErrors };

async function checkMenu(
  ctx: BundleContext,
  bundle: NonNullable<Awaited<ReturnType<typeof ownBundle>>>,
  input: unknown,
  port?: ShopifyPort,
): Promise<Checked & { period?: string }> {
  const r = MenuForm.safeParse(input);
  if (!r.success) return { ok: false, errors: zodErrors(r.error.issues) };
  const { items, period } = r.data;
  const errors: FieldErrors = {};
  if (bundle.kind === "REGULAR") return { ok: false, errors: { form: "A regular bundle has no menus." } };
  if (!items.length) return { ok: false, errors: { items: "Add at least one item to the menu" } };
  const seen = new Set<string>();
  items.forEach((i, n) => {
    if (seen.has(i.variantId)) errors[`items.${n}.variantId`] ??= "This variant is on the menu twice";
    seen.add(i.variantId);
  });
  const p = port ?? (await platformFor(ctx.shopDomain));
  // Unknown ids are left out of Shopify's answer: a variant of another shop is simply not found.
  const found = new Map((await p.getVariants([...seen])).map((v) => [v.id, v]));
  items.forEach((i, n) => {
    if (!found.has(i.variantId)) errors[`items.${n}.variantId`] ??= "This variant is not in your shop's catalogue";
  });
  if (bundle.kind === "BUILD_A_BOX") {
    const min = bundle.boxSizeMin ?? 1;
    const max = bundle.boxSizeMax ?? Number.MAX_SAFE_INTEGER;
    // A pick holds at most each item's limit; an item without one can fill the box alone.
    const capacity = items.reduce((n, i) => n + (i.maxQuantity ?? max), 0);
    // Every size must be fillable from the menu: the largest minimum is the one that counts.
    const largest = storedSizes(bundle).reduce((a, s) => (s.min >= a.min ? s : a), { label: "box", min, max });
    if (capacity < largest.min) {
      errors.items ??= `The ${largest.label} box holds ${largest.min} items, but this menu offers at most ${capacity}: add items or raise their limits.`;
    }
    items.forEach((i, n) => {
      if (i.maxQuantity !== null && i.fallbackQuantity > i.maxQuantity) errors[`items.${n}.fallbackQuantity`] ??= "More than the item's limit";
    });
    const fallback = items.reduce((n, i) => n + i.fallbackQuantity, 0);
    if (fallback < min || fallback > max) {
      errors.fallback ??= `The fallback box must hold ${min === max ? min : `${min} to ${max}`} items (it holds ${fallback}); it ships to subscribers who did not pick.`;
    }
  } else {
    items.forEach((i, n) => {
      if (!i.quantity) errors[`items.${n}.quantity`] ??= "Enter how many the box holds";
    });
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, items, variants: found, currency: (await p.getShop()).currencyCode, period };
}

/** The menu's checks alone (the page runs them before showing the impact of publishing). */
export async function validateMenu(ctx: BundleContext, bundleId: string, input: unknown, port?: ShopifyPort): Promise<FieldErrors | null> {
  const bundle = await ownBundle(ctx.shopId, bundleId);
  if (!bundle) return { form: "No such bundle." };
  const c = await checkMenu(ctx, bundle, input, port);
  return c.ok ? null : c.errors;
}

export type MenuResult = { ok: true; period: string; published: boolean; mailed: number } | { ok: false; errors: FieldErrors };

/**
 * Saves the period's menu (replacing its items), and publishes it when asked. A published menu
 * stays published when edited; its subscribers' picks that name dropped items fall back at the
 * cutoff (menuImpact shows how many first).
 */
export async function saveMenu(
  ctx: BundleContext,
  bundleId: string,
  input: unknown,
  opts: { publish: boolean; now?: Date; port?: ShopifyPort },
): Promise<MenuResult> {
  const bundle = await ownBundle(ctx.shopId, bundleId);
  if (!bundle) return { ok: false, errors: { form: "No such bundle." } };
  const c = await checkMenu(ctx, bundle, input, opts.port);
  if (!c.ok) return c;
  const period = c.period!;
  const rows: Prisma.BundleBoxItemCreateManyInput[] = c.items.map((i, position) => {
    const v = c.variants.get(i.variantId)!;
    return {
      boxId: "",
      variantGid: v.id,
      productTitle: v.productTitle,
      variantTitle: v.title === "Default Title" ? null : v.title,
      imageUrl: v.imageUrl,
      priceCents: parseDecimalToMinor(v.price, c.currency),
      quantity: bundle.kind === "CURATED" ? i.quantity : null,
      maxQuantity: bundle.kind === "BUILD_A_BOX" ? i.maxQuantity : null,
      fallbackQuantity: bundle.kind === "BUILD_A_BOX" ? i.fallbackQuantity : 0,
      position,
    };
  });
  await prisma.$transaction(async (tx) => {
    const box = await tx.bundleBox.upsert({ where: { bundleId_period: { bundleId, period } }, create: { bundleId, period }, update: {} });
    await tx.bundleBoxItem.deleteMany({ where: { boxId: box.id } });
    await tx.bundleBoxItem.createMany({ data: rows.map((r) => ({ ...r, boxId: box.id })) });
  });
  let mailed = 0;
  let published = (await prisma.bundleBox.findUnique({ where: { bundleId_period: { bundleId, period } }, select: { published: true } }))?.published ?? false;
  if (opts.publish && bundle.kind === "BUILD_A_BOX") {
    mailed = (await publishBoxMenu(ctx.shopId, bundleId, period, opts.now)).queued;
    published = true;
  } else if (opts.publish) {
    await prisma.bundleBox.update({ where: { bundleId_period: { bundleId, period } }, data: { published: true, publishedAt: opts.now ?? new Date() } });
    published = true;
  }
  return { ok: true, period, published, mailed };
}

export interface MenuImpact {
  period: string;
  /** Active subscribers whose next charge ships this period. */
  subscribers: number;
  /** Of them, those with a pick for this period. */
  picked: number;
  /** Subscribers whose saved pick (this period's, else their latest) names items the new menu drops. */
  picksNamingDropped: { contractGid: string; dropped: string[] }[];
  /** Subscribers who get the fallback if nothing changes before the cutoff: no valid pick for this period. */
  fallback: { contractGid: string }[];
  /** Items of the saved menu (or, for a new period, of the previous one) that the new menu leaves out. */
  droppedItems: { variantId: string; title: string }[];
}

/** What publishing (or saving a published) menu would do, before anything is written. */
export async function menuImpact(shopId: string, bundleId: string, input: unknown): Promise<MenuImpact | { errors: FieldErrors }> {
  const r = MenuForm.safeParse(input);
  if (!r.success) return { errors: zodErrors(r.error.issues) };
  const bundle = await ownBundle(shopId, bundleId);
  if (!bundle) return { errors: { form: "No such bundle." } };
  const { period, items } = r.data;
  const onMenu = new Set(items.map((i) => i.variantId));
  const [y, m] = period.split("-").map(Number);
  const contracts = await prisma.contract.findMany({
    where: {
      shopId,
      status: "ACTIVE",
      sellingPlanGroupGid: bundle.group.groupGid,
      nextBillingAt: { gte: new Date(Date.UTC(y, m - 1, 1)), lt: new Date(Date.UTC(y, m, 1)) },
    },
    select: { contractGid: true },
    orderBy: { id: "asc" },
  });
  const gids = contracts.map((c) => c.contractGid);
  const picks = await prisma.boxSelection.findMany({
    where: { shopId, contractGid: { in: gids }, period: { lte: period } },
    orderBy: [{ contractGid: "asc" }, { period: "desc" }],
    select: { contractGid: true, period: true, items: true },
  });
  const latest = new Map<string, { period: string; variants: string[] }>();
  for (const p of picks) {
    if (latest.has(p.contractGid)) continue;
    latest.set(p.contractGid, { period: p.period, variants: (p.items as { variant_id: string }[]).map((i) => i.variant_id) });
  }
  const reference = await prisma.bundleBox.findFirst({ where: { bundleId, period: { lte: period } }, orderBy: { period: "desc" }, include: { items: true } });
  const titles = new Map((reference?.items ?? []).map((i) => [i.variantGid, i.variantTitle ? `${i.productTitle} – ${i.variantTitle}` : i.productTitle]));
  const picksNamingDropped: MenuImpact["picksNamingDropped"] = [];
  const fallback: MenuImpact["fallback"] = [];
  let picked = 0;
  for (const gid of gids) {
    const pick = latest.get(gid);
    const dropped = pick ? pick.variants.filter((v) => !onMenu.has(v)) : [];
    if (dropped.length) picksNamingDropped.push({ contractGid: gid, dropped: dropped.map((v) => titles.get(v) ?? v) });
    const current = pick?.period === period;
    if (current) picked++;
    if (!current || dropped.length) fallback.push({ contractGid: gid });
  }
  return {
    period,
    subscribers: gids.length,
    picked,
    picksNamingDropped,
    fallback,
    droppedItems: [...titles.entries()].filter(([v]) => !onMenu.has(v)).map(([variantId, title]) => ({ variantId, title })),
  };
}

/** The bundle's menus for the page, newest period first (the 24 most recent, as the Admin API). */
export async function listMenus(shopId: string, bundleId: string): Promise<{ period: string; published: boolean; items: number }[]> {
  const boxes = await prisma.bundleBox.findMany({
    where: { bundleId, bundle: { shopId } },
    orderBy: { period: "desc" },
    take: 24,
    include: { _count: { select: { items: true } } },
  });
  return boxes.map((b) => ({ period: b.period, published: b.published, items: b._count.items }));
}
