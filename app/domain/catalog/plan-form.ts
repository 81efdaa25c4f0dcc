// The plan builder's form (docs/decisions/111-selling-plan-writes.md), its checks and its
// translation into Shopify's selling plan input. Pure: the page, the domain writes and the tests
// share it. A group has one schedule (the API's Plan object has one), and one or more plans (delivery
// options) that differ in cadence, pricing, cycles and giftable.
import { z } from "zod";
import type { PlanAnchor, PlanPricingPolicy, PlanWrite } from "../../platform/port";
import type { AnchoredSchedule, Interval } from "../shared/schedule";

export const INTERVALS = ["DAY", "WEEK", "MONTH", "YEAR"] as const;
export const PRICING_TYPES = ["PERCENTAGE", "FIXED_AMOUNT", "PRICE"] as const;

const int = (min: number, max: number) => z.number().int().min(min).max(max);
const decimal = z.string().regex(/^\d{1,9}(\.\d{1,2})?$/, "Enter an amount like 12.50");

export const PricingForm = z.object({
  type: z.enum(PRICING_TYPES),
  value: z.string(),
  /** From this cycle on, the second adjustment applies (Shopify's recurring pricing policy). */
  afterCycle: int(1, 999).nullable(),
  afterType: z.enum(PRICING_TYPES).nullable(),
  afterValue: z.string().nullable(),
});

export const PlanOptionForm = z.object({
  /** The Shopify selling plan this option edits; absent for a new one. */
  id: z.string().nullable(),
  interval: z.enum(INTERVALS),
  intervalCount: int(1, 36),
  pricing: PricingForm,
  minCycles: int(1, 999).nullable(),
  maxCycles: int(1, 999).nullable(),
  giftable: z.boolean(),
  /** The buyer-facing label; empty = the generated one. */
  label: z.string().max(255),
});

export const ScheduleForm = z.object({
  mode: z.enum(["rolling", "anchored"]),
  anchorDay: int(1, 31),
  anchorMonths: z.array(int(1, 12)).max(12),
  cutoffDays: int(0, 60),
  preAnchorBehavior: z.enum(["NEXT", "ASAP"]),
  shipDay: int(1, 31).nullable(),
});

export const PlanGroupForm = z.object({
  name: z.string().trim().min(1, "Enter a name").max(255),
  merchantCode: z.string().trim().min(1, "Enter a merchant code").max(255),
  productIds: z.array(z.string().regex(/^gid:\/\/shopify\/Product\/\d+$/)),
  variantIds: z.array(z.string().regex(/^gid:\/\/shopify\/ProductVariant\/\d+$/)),
  schedule: ScheduleForm,
  plans: z.array(PlanOptionForm).min(1, "Add at least one plan"),
});

export type PricingForm = z.infer<typeof PricingForm>;
export type PlanOptionForm = z.infer<typeof PlanOptionForm>;
export type ScheduleForm = z.infer<typeof ScheduleForm>;
export type PlanGroupForm = z.infer<typeof PlanGroupForm>;

/** Form field path -> message, e.g. "plans.0.pricing" -> "A selling plan can have at most 2 pricing policies". */
export type FieldErrors = Record<string, string>;

/** The form's own checks (before Shopify's): the first message per field. */
export function checkForm(input: unknown): { form: PlanGroupForm; errors: null } | { form: null; errors: FieldErrors } {
  const r = PlanGroupForm.safeParse(input);
  const errors: FieldErrors = {};
  if (!r.success) {
    for (const issue of r.error.issues) {
      const key = issue.path.join(".") || "form";
      errors[key] ??= issue.message;
    }
    return { form: null, errors };
  }
  const form = r.data;
  form.plans.forEach((p, i) => {
    const check = (value: string, type: string, key: string) => {
      if (type === "PERCENTAGE" ? !/^\d{1,3}(\.\d{1,2})?$/.test(value) || Number(value) > 100 : !decimal.safeParse(value).success) {
        errors[key] ??= type === "PERCENTAGE" ? "Enter a percentage from 0 to 100" : "Enter an amount like 12.50";
      }
    };
    check(p.pricing.value, p.pricing.type, `plans.${i}.pricing`);
    if (p.pricing.afterCycle !== null) check(p.pricing.afterValue ?? "", p.pricing.afterType ?? "PERCENTAGE", `plans.${i}.pricing.after`);
  });
  return Object.keys(errors).length ? { form: null, errors } : { form, errors: null };
}

const ordinal = (n: number) => `${n}${n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th"}`;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const every = (interval: string, count: number) => (count === 1 ? `every ${interval.toLowerCase()}` : `every ${count} ${interval.toLowerCase()}s`);

export function pricingLabel(p: PricingForm): string {
  const one = (type: string, value: string) => (type === "PERCENTAGE" ? `${value}% off` : type === "FIXED_AMOUNT" ? `${value} off` : `for ${value}`);
  const first = one(p.type, p.value);
  return p.afterCycle !== null && p.afterType && p.afterValue ? `${first}, then ${one(p.afterType, p.afterValue)} from order ${p.afterCycle}` : first;
}

/** The cadence a plan bills on: the months of an anchored plan, or its interval. */
export function cadenceLabel(p: PlanOptionForm, s: ScheduleForm): string {
  if (s.mode === "anchored" && s.anchorMonths.length)
    return `On the ${ordinal(s.anchorDay)} of ${[...s.anchorMonths]
      .sort((a, b) => a - b)
      .map((m) => MONTHS[m - 1])
      .join(", ")}`;
  if (s.mode === "anchored") return `Charged on the ${ordinal(s.anchorDay)}, ${every("month", p.intervalCount)}`;
  return `Delivered ${every(p.interval, p.intervalCount)}`;
}

/** The generated buyer-facing label of one plan (the merchant may replace it). */
export function generatedLabel(p: PlanOptionForm, s: ScheduleForm): string {
  return `${cadenceLabel(p, s)}, ${pricingLabel(p.pricing)}`;
}

export const labelOf = (p: PlanOptionForm, s: ScheduleForm) => p.label.trim() || generatedLabel(p, s);

/** The engine's anchored schedule of the form (null when rolling). */
export function anchoredOf(s: ScheduleForm, intervalCount = 1): AnchoredSchedule | null {
  if (s.mode !== "anchored") return null;
  return {
    mode: "anchored",
    anchorDay: s.anchorDay,
    anchorMonths: s.anchorMonths,
    intervalCount,
    cutoffDays: s.cutoffDays,
    preAnchorBehavior: s.preAnchorBehavior,
    shipDay: s.shipDay,
  };
}

/**
 * Shopify's anchors for the schedule: one MONTHDAY anchor, or (months listed) one YEARDAY anchor
 * per month with a one-year interval (how /docs#tag/Admin-API:-Plans says a multi-month plan is sent).
 */
export function anchorsOf(s: ScheduleForm): PlanAnchor[] {
  if (s.mode !== "anchored") return [];
  if (!s.anchorMonths.length) return [{ type: "MONTHDAY", day: s.anchorDay }];
  return [...s.anchorMonths].sort((a, b) => a - b).map((month) => ({ type: "YEARDAY" as const, day: s.anchorDay, month }));
}

function pricingPolicies(p: PricingForm): PlanPricingPolicy[] {
  const fixed: PlanPricingPolicy = { kind: "fixed", adjustmentType: p.type, value: p.value };
  if (p.afterCycle === null || !p.afterType || p.afterValue === null) return [fixed];
  return [fixed, { kind: "recurring", adjustmentType: p.afterType, value: p.afterValue, afterCycle: p.afterCycle }];
}

/** SellingPlanInput of one option: an anchored plan is MONTH (or one YEAR with listed months). */
export function planWriteOf(p: PlanOptionForm, s: ScheduleForm, position: number): PlanWrite {
  const anchors = anchorsOf(s);
  const yearly = s.mode === "anchored" && s.anchorMonths.length > 0;
  const interval: Interval = s.mode === "anchored" ? (yearly ? "YEAR" : "MONTH") : p.interval;
  const label = labelOf(p, s);
  return {
    ...(p.id ? { id: p.id } : {}),
    name: label,
    options: [label],
    description: label,
    position,
    interval,
    intervalCount: yearly ? 1 : p.intervalCount,
    minCycles: p.minCycles,
    maxCycles: p.maxCycles,
    billingAnchors: anchors,
    deliveryAnchors: anchors,
    cutoff: s.mode === "anchored" ? s.cutoffDays : null,
    ...(s.mode === "anchored" ? { preAnchorBehavior: s.preAnchorBehavior } : {}),
    pricingPolicies: pricingPolicies(p.pricing),
  };
}

/**
 * The form field a Shopify userError names. `plansAt` maps the index of sellingPlansToCreate /
 * sellingPlansToUpdate in the call to the form's plan index.
 */
export function formFieldOf(field: string[] | undefined, plansAt: { create: number[]; update: number[] }): string {
  if (!field?.length) return "form";
  const [root, list, index, ...rest] = field;
  if (root === "resources" || root === "productIds" || root === "productVariantIds") return "products";
  if (root === "id") return "form";
  if (root !== "input") return "form";
  if (list === "name") return "name";
  if (list === "merchantCode") return "merchantCode";
  if (list !== "sellingPlansToCreate" && list !== "sellingPlansToUpdate" && list !== "sellingPlansToDelete") return "form";
  if (index === undefined || list === "sellingPlansToDelete") return "plans";
  const planIndex = (list === "sellingPlansToCreate" ? plansAt.create : plansAt.update)[Number(index)];
  if (planIndex === undefined) return "plans";
  const path = rest.join(".");
  if (/anchors\.\d+\.cutoffDay|\.cutoff$/.test(path) || path.endsWith("cutoff")) return "schedule.cutoffDays";
  if (path.includes("anchors")) return "schedule.anchorDay";
  if (path.includes("pricingPolicies")) return `plans.${planIndex}.pricing`;
  if (path.includes("maxCycles")) return `plans.${planIndex}.maxCycles`;
  if (path.includes("minCycles")) return `plans.${planIndex}.minCycles`;
  if (path.includes("intervalCount") || path.includes("interval")) return `plans.${planIndex}.intervalCount`;
  if (path.startsWith("name") || path.startsWith("options")) return `plans.${planIndex}.label`;
  return `plans.${planIndex}`;
}
