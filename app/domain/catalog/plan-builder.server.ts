// The plan builder's writes (docs/decisions/111-selling-plan-writes.md): a selling plan group
// created, edited and deleted at Shopify through the port, then mirrored with what Shopify has no
// field for (the months of an anchored plan, ship day, giftable, the form of each plan). The
// selling_plan_groups webhooks keep the mirror in step afterwards (storefront/sync.server.ts).
// Shopify's userErrors come back on the form field they name. Editing a plan changes new
// checkouts and the API; existing contracts keep their next billing dates.
import { auditResult, diffFields } from "../audit/audit.server";
import type { Prisma, SellingPlanGroup } from "@prisma/client";
import { prisma } from "../../db.server";
import { isPlatformError, platformFor, type ShopifyPort } from "../../platform/index.server";
import type { PlatformSellingPlanGroup } from "../../platform/port";
import {
  cadenceLabel,
  checkForm,
  formFieldOf,
  labelOf,
  planWriteOf,
  pricingLabel,
  type FieldErrors,
  type PlanGroupForm,
  type PlanOptionForm,
} from "./plan-form";

export interface BuilderContext {
  shopId: string;
  shopDomain: string;
}

export type BuilderResult = { ok: true; groupGid: string } | { ok: false; errors: FieldErrors };

/** Contract statuses that still bill: a group sold to them cannot be deleted from the app. */
const LIVE_STATUSES = ["ACTIVE", "PAUSED", "FAILED"] as const;

/** The summary columns GET /plans reads, from the first plan (the one a single-plan form offers). */
function groupColumns(form: PlanGroupForm) {
  const first = form.plans[0];
  const s = form.schedule;
  const anchored = s.mode === "anchored";
  return {
    name: form.name,
    merchantCode: form.merchantCode,
    cadenceLabel: cadenceLabel(first, s),
    interval: anchored ? "MONTH" : first.interval,
    intervalCount: first.intervalCount,
    billingLabel: anchored ? `Charged on the ${s.anchorDay} of the month` : `Billed every ${first.intervalCount} ${first.interval.toLowerCase()}(s)`,
    discountLabel: pricingLabel(first.pricing),
    giftable: first.giftable,
    scheduleMode: anchored ? ("ANCHORED" as const) : ("ROLLING" as const),
    anchorDay: anchored ? s.anchorDay : null,
    anchorMonths: anchored ? [...s.anchorMonths].sort((a, b) => a - b) : [],
    cutoffDays: anchored ? s.cutoffDays : null,
    preAnchorBehavior: anchored ? s.preAnchorBehavior : null,
    shipDay: anchored ? s.shipDay : null,
    scheduleLabel: anchored ? labelOf(first, s) : null,
    productGids: form.productIds,
    variantGids: form.variantIds,
    builtInApp: true,
    status: "ACTIVE" as const,
  };
}

/** Writes the mirror of a group after Shopify answered: the group row and one row per plan with its form. */
async function mirror(ctx: BuilderContext, live: PlatformSellingPlanGroup, form: PlanGroupForm, sentIds: (string | null)[]): Promise<void> {
  const columns = groupColumns(form);
  await prisma.$transaction(async (tx) => {
    const row = await tx.sellingPlanGroup.upsert({
      where: { shopId_groupGid: { shopId: ctx.shopId, groupGid: live.groupId } },
      create: { shopId: ctx.shopId, groupGid: live.groupId, ...columns },
      update: columns,
    });
    // Shopify answers the plans in position order: the i-th is the form's i-th.
    const keep = live.sellingPlans.map((p) => p.id);
    await tx.sellingPlan.deleteMany({ where: { groupId: row.id, sellingPlanGid: { notIn: keep } } });
    for (const [position, p] of live.sellingPlans.entries()) {
      const option = form.plans[sentIds.indexOf(p.id)] ?? form.plans[position];
      const settings = { ...option, id: p.id, label: option.label } as unknown as Prisma.InputJsonValue;
      await tx.sellingPlan.upsert({
        where: { groupId_sellingPlanGid: { groupId: row.id, sellingPlanGid: p.id } },
        create: { groupId: row.id, sellingPlanGid: p.id, name: p.name, position, settings },
        update: { name: p.name, position, settings },
      });
    }
  });
}

/** A refusal from Shopify on the form field it names; anything else is rethrown. */
function refusal(err: unknown, plansAt: { create: number[]; update: number[] }): BuilderResult {
  if (isPlatformError(err) && (err.kind === "invalid_request" || err.kind === "state_conflict")) {
    return { ok: false, errors: { [formFieldOf(err.field, plansAt)]: err.message } };
  }
  throw err;
}

// Every plan change leaves one audit row once Shopify has answered (docs/decisions/125-audit-log.md).
const formFields = (input: unknown) => {
  const f = checkForm(input).form;
  return f ? { name: f.name, merchant_code: f.merchantCode, plans: f.plans.map((p) => p.label), products: f.productIds, variants: f.variantIds } : null;
};

export function createPlanGroup(ctx: BuilderContext, input: unknown, port?: ShopifyPort): Promise<BuilderResult> {
  return auditResult(
    { shopId: ctx.shopId, action: "plan.create", target: { type: "plan", id: "new" } },
    () => createPlanGroupAtShopify(ctx, input, port),
    (r) => ({
      ok: r.ok,
      targetId: r.ok ? r.groupGid : undefined,
      changes: r.ok ? diffFields(null, formFields(input), ["name", "merchant_code", "plans", "products", "variants"]) : {},
    }),
  );
}

async function createPlanGroupAtShopify(ctx: BuilderContext, input: unknown, port?: ShopifyPort): Promise<BuilderResult> {
  const checked = checkForm(input);
  if (!checked.form) return { ok: false, errors: checked.errors };
  const form = checked.form;
  const p = port ?? (await platformFor(ctx.shopDomain));
  const plansAt = { create: form.plans.map((_, i) => i), update: [] };
  let live: PlatformSellingPlanGroup;
  try {
    live = await p.createSellingPlanGroup(
      {
        name: form.name,
        merchantCode: form.merchantCode,
        options: ["Delivery"],
        plansToCreate: form.plans.map((o, i) => planWriteOf({ ...o, id: null }, form.schedule, i)),
      },
      { productIds: form.productIds, variantIds: form.variantIds },
    );
  } catch (err) {
    return refusal(err, plansAt);
  }
  await mirror(
    ctx,
    live,
    form,
    form.plans.map(() => null),
  );
  return { ok: true, groupGid: live.groupId };
}

async function ownGroup(shopId: string, groupGid: string) {
  return prisma.sellingPlanGroup.findUnique({ where: { shopId_groupGid: { shopId, groupGid } }, include: { sellingPlans: { orderBy: { position: "asc" } } } });
}

const added = (now: string[], before: string[]) => now.filter((x) => !before.includes(x));

/**
 * Edits a group: plans with an id are updated, new ones created, missing ones deleted; products
 * and variants follow the form. Contracts already sold keep their next billing dates.
 */
export async function updatePlanGroup(ctx: BuilderContext, groupGid: string, input: unknown, port?: ShopifyPort): Promise<BuilderResult> {
  const row = await ownGroup(ctx.shopId, groupGid);
  const before = row && {
    name: row.name,
    merchant_code: row.merchantCode,
    plans: row.sellingPlans.map((p) => p.name),
    products: row.productGids,
    variants: row.variantGids,
  };
  return auditResult(
    { shopId: ctx.shopId, action: "plan.update", target: { type: "plan", id: groupGid } },
    () => updatePlanGroupAtShopify(ctx, groupGid, input, port),
    (r) => ({ ok: r.ok, changes: r.ok ? diffFields(before, formFields(input), ["name", "merchant_code", "products", "variants"]) : {} }),
  );
}

async function updatePlanGroupAtShopify(ctx: BuilderContext, groupGid: string, input: unknown, port?: ShopifyPort): Promise<BuilderResult> {
  const checked = checkForm(input);
  if (!checked.form) return { ok: false, errors: checked.errors };
  const form = checked.form;
  const row = await ownGroup(ctx.shopId, groupGid);
  if (!row) return { ok: false, errors: { form: "This plan no longer exists." } };
  const p = port ?? (await platformFor(ctx.shopDomain));
  const existing = row.sellingPlans.map((s) => s.sellingPlanGid);
  const plansAt = { create: [] as number[], update: [] as number[] };
  const toCreate = [];
  const toUpdate = [];
  for (const [i, o] of form.plans.entries()) {
    if (o.id && existing.includes(o.id)) {
      plansAt.update.push(i);
      toUpdate.push(planWriteOf(o, form.schedule, i));
    } else {
      plansAt.create.push(i);
      toCreate.push(planWriteOf({ ...o, id: null }, form.schedule, i));
    }
  }
  const toDelete = existing.filter((id) => !form.plans.some((o) => o.id === id));
  let live: PlatformSellingPlanGroup;
  try {
    live = await p.updateSellingPlanGroup(groupGid, {
      name: form.name,
      merchantCode: form.merchantCode,
      plansToCreate: toCreate,
      plansToUpdate: toUpdate,
      plansToDelete: toDelete,
    });
    const changes = [
      ["addProducts", added(form.productIds, row.productGids)],
      ["removeProducts", added(row.productGids, form.productIds)],
      ["addVariants", added(form.variantIds, row.variantGids)],
      ["removeVariants", added(row.variantGids, form.variantIds)],
    ] as const;
    for (const [change, ids] of changes) if (ids.length) await p.changeSellingPlanGroupResources(groupGid, change, [...ids]);
    if (changes.some(([, ids]) => ids.length)) live = (await p.resolveSellingPlans(groupGid)) ?? live;
  } catch (err) {
    return refusal(err, plansAt);
  }
  await mirror(
    ctx,
    live,
    form,
    form.plans.map((o) => o.id),
  );
  return { ok: true, groupGid };
}

export type DeleteResult = { ok: true } | { ok: false; message: string; liveContracts: number };

/**
 * Deletes a group at Shopify and archives its mirror. Refused while contracts sold on it still
 * bill: Shopify would keep them, and the merchant must move them to another plan first.
 */
export function deletePlanGroup(ctx: BuilderContext, groupGid: string, port?: ShopifyPort): Promise<DeleteResult> {
  return auditResult(
    { shopId: ctx.shopId, action: "plan.delete", target: { type: "plan", id: groupGid } },
    () => deletePlanGroupAtShopify(ctx, groupGid, port),
    (r) => ({ ok: r.ok, errorCode: "state_conflict", changes: r.ok ? diffFields({ status: "ACTIVE" }, { status: "ARCHIVED" }, ["status"]) : {} }),
  );
}

async function deletePlanGroupAtShopify(ctx: BuilderContext, groupGid: string, port?: ShopifyPort): Promise<DeleteResult> {
  const row = await ownGroup(ctx.shopId, groupGid);
  if (!row) return { ok: false, message: "This plan no longer exists.", liveContracts: 0 };
  const liveContracts = await prisma.contract.count({ where: { shopId: ctx.shopId, sellingPlanGroupGid: groupGid, status: { in: [...LIVE_STATUSES] } } });
  if (liveContracts > 0) {
    return {
      ok: false,
      liveContracts,
      message: `${liveContracts} active subscriber${liveContracts === 1 ? " is" : "s are"} on “${row.name}”. Shopify keeps their contracts after a plan is deleted, so move them to another plan (or cancel them) first.`,
    };
  }
  const p = port ?? (await platformFor(ctx.shopDomain));
  try {
    await p.deleteSellingPlanGroup(groupGid);
  } catch (err) {
    // Already gone at Shopify: archive the mirror all the same.
    if (!(isPlatformError(err) && err.code === "GROUP_DOES_NOT_EXIST")) throw err;
  }
  await prisma.$transaction([
    prisma.sellingPlan.deleteMany({ where: { groupId: row.id } }),
    prisma.sellingPlanGroup.update({ where: { id: row.id }, data: { status: "ARCHIVED" } }),
  ]);
  return { ok: true };
}

// ---- reads for the page --------------------------------------------------------------------------

export interface PlanGroupRow {
  groupGid: string;
  name: string;
  merchantCode: string | null;
  status: "ACTIVE" | "ARCHIVED";
  plans: number;
  products: number;
  schedule: string;
  builtInApp: boolean;
}

export async function listPlanGroups(shopId: string): Promise<PlanGroupRow[]> {
  const rows = await prisma.sellingPlanGroup.findMany({
    where: { shopId, status: "ACTIVE" },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    include: { _count: { select: { sellingPlans: true } } },
  });
  return rows.map((g) => ({
    groupGid: g.groupGid,
    name: g.name,
    merchantCode: g.merchantCode,
    status: g.status,
    plans: g._count.sellingPlans,
    products: g.productGids.length + g.variantGids.length,
    schedule: g.scheduleMode === "ANCHORED" ? (g.scheduleLabel ?? g.cadenceLabel) : g.cadenceLabel,
    builtInApp: g.builtInApp,
  }));
}

function optionFromRow(g: SellingPlanGroup, plan: { sellingPlanGid: string; name: string; settings: Prisma.JsonValue }): PlanOptionForm {
  const saved = (plan.settings ?? null) as Partial<PlanOptionForm> | null;
  return {
    id: plan.sellingPlanGid,
    interval: saved?.interval ?? (["DAY", "WEEK", "MONTH", "YEAR"].includes(g.interval) ? (g.interval as PlanOptionForm["interval"]) : "MONTH"),
    intervalCount: saved?.intervalCount ?? g.intervalCount,
    pricing: saved?.pricing ?? { type: "PERCENTAGE", value: "0", afterCycle: null, afterType: null, afterValue: null },
    minCycles: saved?.minCycles ?? null,
    maxCycles: saved?.maxCycles ?? null,
    giftable: saved?.giftable ?? g.giftable,
    label: saved?.label ?? plan.name,
  };
}

/** The edit form of a mirrored group (app-only fields from the mirror). */
export async function planGroupForm(shopId: string, groupGid: string): Promise<PlanGroupForm | null> {
  const g = await ownGroup(shopId, groupGid);
  if (!g || g.status !== "ACTIVE") return null;
  return {
    name: g.name,
    merchantCode: g.merchantCode ?? "",
    productIds: g.productGids,
    variantIds: g.variantGids,
    schedule: {
      mode: g.scheduleMode === "ANCHORED" ? "anchored" : "rolling",
      anchorDay: g.anchorDay ?? 1,
      anchorMonths: g.anchorMonths,
      cutoffDays: g.cutoffDays ?? 0,
      preAnchorBehavior: g.preAnchorBehavior ?? "NEXT",
      shipDay: g.shipDay,
    },
    plans: g.sellingPlans.map((p) => optionFromRow(g, p)),
  };
}
