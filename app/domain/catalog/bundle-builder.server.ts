// The Bundles page's bundle writes and reads (docs/decisions/105-bundle-builder.md): a bundle on
// one of the shop's selling plan groups, build-a-box (sizes with a price each), curated or
// regular. Every check runs before the one write, so a refused form saves nothing.
import type { Bundle } from "@prisma/client";
import { prisma } from "../../db.server";
import { platformFor, type ShopifyPort } from "../../platform/index.server";
import { formatMinor, parseDecimalToMinor } from "../shared/money.server";
import { checkBundleForm, shortestIntervalDays, sizeBounds, type BundleForm, type FieldErrors } from "./bundle-form";

export interface BundleContext {
  shopId: string;
  shopDomain: string;
}

export type BundleResult = { ok: true; bundleId: string } | { ok: false; errors: FieldErrors };

/** A stored size: price in minor units of the shop's currency. */
export interface StoredSize {
  label: string;
  min: number;
  max: number;
  price_cents: number;
  currency: string;
}

export const storedSizes = (b: Pick<Bundle, "sizes">): StoredSize[] => (Array.isArray(b.sizes) ? (b.sizes as unknown as StoredSize[]) : []);

async function checked(ctx: BundleContext, input: unknown, port?: ShopifyPort) {
  const r = checkBundleForm(input);
  if (!r.form) return { errors: r.errors } as const;
  const form = r.form;
  const group = await prisma.sellingPlanGroup.findFirst({ where: { shopId: ctx.shopId, groupGid: form.groupGid, status: "ACTIVE" } });
  if (!group) return { errors: { groupGid: "Choose one of your shop's plans" } } as const;
  const days = shortestIntervalDays(group.interval, group.intervalCount);
  if (form.kind === "BUILD_A_BOX" && form.selectionCutoffDays >= days) {
    return {
      errors: {
        selectionCutoffDays: `The cutoff must be shorter than the plan's billing interval (${days} days at the shortest); picking would never open.`,
      },
    } as const;
  }
  let sizes: StoredSize[] = [];
  if (form.kind === "BUILD_A_BOX") {
    const currency = (await (port ?? (await platformFor(ctx.shopDomain))).getShop()).currencyCode;
    sizes = form.sizes.map((s) => ({ label: s.label, min: s.min, max: s.max, price_cents: parseDecimalToMinor(s.price, currency), currency }));
  }
  return { form, group, sizes } as const;
}

function columns(form: BundleForm, groupId: string, sizes: StoredSize[]) {
  const bounds = sizeBounds(sizes);
  return {
    title: form.title,
    kind: form.kind,
    groupId,
    selectionCutoffDays: form.selectionCutoffDays,
    sizes: sizes as unknown as object[],
    boxSizeMin: form.kind === "BUILD_A_BOX" ? bounds.min : null,
    boxSizeMax: form.kind === "BUILD_A_BOX" ? bounds.max : null,
  };
}

export async function createBundle(ctx: BundleContext, input: unknown, port?: ShopifyPort): Promise<BundleResult> {
  const c = await checked(ctx, input, port);
  if ("errors" in c) return { ok: false, errors: c.errors as FieldErrors };
  const row = await prisma.bundle.create({ data: { shopId: ctx.shopId, ...columns(c.form, c.group.id, c.sizes) } });
  return { ok: true, bundleId: row.id };
}

export async function updateBundle(ctx: BundleContext, bundleId: string, input: unknown, port?: ShopifyPort): Promise<BundleResult> {
  const existing = await prisma.bundle.findFirst({ where: { id: bundleId, shopId: ctx.shopId }, select: { id: true, kind: true } });
  if (!existing) return { ok: false, errors: { form: "No such bundle." } };
  const c = await checked(ctx, input, port);
  if ("errors" in c) return { ok: false, errors: c.errors as FieldErrors };
  // The kind decides what its menus mean (picked or fixed contents): changing it would reinterpret them.
  if (c.form.kind !== existing.kind) return { ok: false, errors: { kind: "A bundle's kind cannot change; create a new bundle instead." } };
  await prisma.bundle.update({ where: { id: existing.id }, data: columns(c.form, c.group.id, c.sizes) });
  return { ok: true, bundleId: existing.id };
}

// ---- reads for the page --------------------------------------------------------------------------

export interface BundleRow {
  id: string;
  title: string;
  kind: Bundle["kind"];
  groupName: string;
  sizes: string;
  periods: number;
  latestPeriod: string | null;
  latestPublished: boolean;
}

export async function listBundleRows(shopId: string): Promise<BundleRow[]> {
  const rows = await prisma.bundle.findMany({
    where: { shopId },
    include: { group: { select: { name: true } }, boxes: { select: { period: true, published: true }, orderBy: { period: "desc" } } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map((b) => ({
    id: b.id,
    title: b.title,
    kind: b.kind,
    groupName: b.group.name,
    sizes: storedSizes(b)
      .map((s) => s.label)
      .join(", "),
    periods: b.boxes.length,
    latestPeriod: b.boxes[0]?.period ?? null,
    latestPublished: b.boxes[0]?.published ?? false,
  }));
}

/** The plan groups a bundle can sell under: the shop's active groups. */
export async function bundleGroupOptions(shopId: string): Promise<{ label: string; value: string }[]> {
  const groups = await prisma.sellingPlanGroup.findMany({ where: { shopId, status: "ACTIVE" }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return groups.map((g) => ({ label: g.name, value: g.groupGid }));
}

/** The edit form of a bundle (prices back as decimals), or null when it is not the shop's. */
export async function bundleForm(shopId: string, bundleId: string): Promise<(BundleForm & { id: string }) | null> {
  const b = await prisma.bundle.findFirst({ where: { id: bundleId, shopId }, include: { group: { select: { groupGid: true } } } });
  if (!b) return null;
  return {
    id: b.id,
    title: b.title,
    kind: b.kind,
    groupGid: b.group.groupGid,
    selectionCutoffDays: b.selectionCutoffDays,
    sizes: storedSizes(b).map((s) => ({ label: s.label, min: s.min, max: s.max, price: formatMinor(s.price_cents, s.currency) })),
  };
}
