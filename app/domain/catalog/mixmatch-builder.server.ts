// The Mix & Match editor's writes (docs/decisions/107-mix-match-editor.md): categories with their
// entries (variants), the bounds of one selection and the plan group it sells under. Entries are
// checked at Shopify (the shop's variant, sold on the plan's group) and snapshotted from its answer;
// saving refreshes the price_cents snapshot (the live price still wins at checkout). The page saves
// through storefront/mixmatch-save.server.ts, which then rewrites the app.mix_match metafields.
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { prisma } from "../../db.server";
import { platformFor, type ShopifyPort } from "../../platform/index.server";
import { parseDecimalToMinor } from "../shared/money.server";
import { zodErrors, type FieldErrors } from "./bundle-form";
import type { BundleContext } from "./bundle-builder.server";

export const MixMatchForm = z.object({
  title: z.string().trim().min(1, "Give the selection a title").max(120),
  groupGid: z.string().min(1, "Choose the plan it sells under"),
  minItems: z.number().int("Whole items only").min(1, "At least 1 item"),
  maxItems: z.number().int("Whole items only").min(1, "At least 1 item").max(100, "At most 100 items"),
  categories: z
    .array(
      z.object({
        title: z.string().trim().min(1, "Name the category").max(120),
        entries: z.array(z.object({ variantId: z.string().min(1), title: z.string().optional() })).max(100),
      }),
    )
    .max(20, "At most 20 categories"),
});
export type MixMatchForm = z.infer<typeof MixMatchForm>;

export type MixMatchResult = { ok: true; id: string } | { ok: false; errors: FieldErrors };

/**
 * The snapshot price of one selection: the cheapest entry times the minimum count ("from" this
 * price). A display hint only: the cart charges each line's live price under the plan.
 */
export const fromPriceCents = (prices: number[], minItems: number) => (prices.length ? Math.min(...prices) * minItems : 0);

/** Creates (id null) or replaces a Mix & Match plan; nothing is written when any check fails. */
export async function saveMixMatch(ctx: BundleContext, id: string | null, input: unknown, port?: ShopifyPort): Promise<MixMatchResult> {
  const r = MixMatchForm.safeParse(input);
  if (!r.success) return { ok: false, errors: zodErrors(r.error.issues) };
  const form = r.data;
  const existing = id ? await prisma.mixMatchPlan.findFirst({ where: { id, shopId: ctx.shopId }, select: { id: true, cartGroupId: true } }) : null;
  if (id && !existing) return { ok: false, errors: { form: "No such Mix & Match selection." } };
  const errors: FieldErrors = {};
  if (form.maxItems < form.minItems) errors.maxItems = "The maximum is below the minimum";
  if (!form.categories.length) errors.categories = "Add at least one category";
  const group = await prisma.sellingPlanGroup.findFirst({ where: { shopId: ctx.shopId, groupGid: form.groupGid, status: "ACTIVE" } });
  if (!group) errors.groupGid = "Choose one of your shop's plans";
  const ids = form.categories.flatMap((c) => c.entries.map((e) => e.variantId));
  const seen = new Set<string>();
  form.categories.forEach((c, ci) => {
    if (!c.entries.length) errors[`categories.${ci}.entries`] ??= "Add at least one product to the category";
    c.entries.forEach((e, ei) => {
      if (seen.has(e.variantId)) errors[`categories.${ci}.entries.${ei}`] ??= "This variant is already in the selection";
      seen.add(e.variantId);
    });
  });
  if (Object.keys(errors).length) return { ok: false, errors };
  const p = port ?? (await platformFor(ctx.shopDomain));
  const found = new Map((await p.getVariants([...seen])).map((v) => [v.id, v]));
  const sold = new Set((await p.resolveSellingPlans(group!.groupGid))?.variantIds ?? []);
  form.categories.forEach((c, ci) =>
    c.entries.forEach((e, ei) => {
      if (!found.has(e.variantId)) errors[`categories.${ci}.entries.${ei}`] ??= "This variant is not in your shop's catalogue";
      else if (!sold.has(e.variantId)) errors[`categories.${ci}.entries.${ei}`] ??= "This variant is not sold on the chosen plan: add it to the plan first";
    }),
  );
  if (ids.length < form.minItems && !Object.keys(errors).length)
    errors.minItems = `The selection needs ${form.minItems} items but offers ${ids.length} products`;
  if (Object.keys(errors).length) return { ok: false, errors };
  const currency = (await p.getShop()).currencyCode;
  const price = (variantId: string) => parseDecimalToMinor(found.get(variantId)!.price, currency);
  const columns = {
    title: form.title,
    groupId: group!.id,
    minItems: form.minItems,
    maxItems: form.maxItems,
    priceCents: fromPriceCents(ids.map(price), form.minItems),
  };
  const saved = await prisma.$transaction(async (tx) => {
    const plan = existing
      ? await tx.mixMatchPlan.update({ where: { id: existing.id }, data: columns })
      : await tx.mixMatchPlan.create({ data: { shopId: ctx.shopId, cartGroupId: `mm-${randomBytes(6).toString("hex")}`, ...columns } });
    await tx.mixMatchCategory.deleteMany({ where: { planId: plan.id } });
    for (const [position, c] of form.categories.entries()) {
      await tx.mixMatchCategory.create({
        data: {
          planId: plan.id,
          title: c.title,
          position,
          entries: {
            create: c.entries.map((e, i) => {
              const v = found.get(e.variantId)!;
              return {
                variantGid: v.id,
                productTitle: v.productTitle,
                variantTitle: v.title === "Default Title" ? null : v.title,
                imageUrl: v.imageUrl,
                priceCents: price(v.id),
                position: i,
              };
            }),
          },
        },
      });
    }
    return plan;
  });
  return { ok: true, id: saved.id };
}

/** The edit form of a Mix & Match plan, or null when it is not the shop's. */
export async function mixMatchForm(shopId: string, id: string): Promise<MixMatchForm | null> {
  const m = await prisma.mixMatchPlan.findFirst({
    where: { id, shopId },
    include: {
      group: { select: { groupGid: true } },
      categories: { include: { entries: { orderBy: [{ position: "asc" }, { id: "asc" }] } }, orderBy: [{ position: "asc" }, { id: "asc" }] },
    },
  });
  if (!m) return null;
  return {
    title: m.title,
    groupGid: m.group.groupGid,
    minItems: m.minItems,
    maxItems: m.maxItems,
    categories: m.categories.map((c) => ({
      title: c.title,
      entries: c.entries.map((e) => ({ variantId: e.variantGid, title: e.variantTitle ? `${e.productTitle} – ${e.variantTitle}` : e.productTitle })),
    })),
  };
}

/** The shop's Mix & Match plans for the page. */
export async function listMixMatchRows(shopId: string) {
  const rows = await prisma.mixMatchPlan.findMany({
    where: { shopId },
    include: { group: { select: { name: true } }, _count: { select: { categories: true } } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map((m) => ({ id: m.id, title: m.title, groupName: m.group.name, categories: m._count.categories, minItems: m.minItems, maxItems: m.maxItems }));
}
