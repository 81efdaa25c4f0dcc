// The checks Shopify makes on sellingPlanGroupCreate/Update input, with its userError codes
// (SellingPlanGroupUserErrorCode of the targeted schema) and field paths into the input. Only
// recurring plans are simulated (subscriptions); a fixed (pre-order, try-before-you-buy) policy is
// refused as INVALID with a message saying so. docs/simulator.md#selling-plan-groups.
import type { Anchor, Interval, PricingPolicy, SellingPlanPolicies, UserError } from "../state";

export const MAX_PLANS_PER_GROUP = 31;
export const MAX_PRICING_POLICIES = 2;

/* eslint-disable @typescript-eslint/no-explicit-any -- input arrives as the schema's coerced input objects */
type In = Record<string, any>;

export interface ParsedPlan {
  id: string | null;
  name: string;
  interval: Interval;
  intervalCount: number;
  policies: SellingPlanPolicies;
}

const err = (field: string[], message: string, code: string): UserError => ({ field, message, code });

function anchorErrors(anchors: In[], at: string[], deliveryCutoff: number | null): UserError[] {
  const out: UserError[] = [];
  anchors.forEach((a, i) => {
    const here = [...at, String(i)];
    const type = a.type ?? "MONTHDAY";
    const day = a.day;
    if (typeof day !== "number") out.push(err([...here, "day"], "Day can't be blank", "BLANK"));
    else if (type === "WEEKDAY" ? day < 1 || day > 7 : day < 1 || day > 31)
      out.push(err([...here, "day"], `Day must be between 1 and ${type === "WEEKDAY" ? 7 : 31}`, "INCLUSION"));
    if (type === "YEARDAY" && (typeof a.month !== "number" || a.month < 1 || a.month > 12))
      out.push(err([...here, "month"], "Month must be between 1 and 12", "INCLUSION"));
    if (type !== "YEARDAY" && a.month != null) out.push(err([...here, "month"], "Month must be blank unless the anchor type is YEARDAY", "PRESENT"));
    if (a.cutoffDay != null && (type === "YEARDAY" || deliveryCutoff != null)) {
      out.push(err([...here, "cutoffDay"], "Cutoff day must be blank for a YEARDAY anchor or when the delivery policy has a cutoff", "PRESENT"));
    }
  });
  return out;
}

const sameAnchors = (a: In[], b: In[]) =>
  a.length === b.length &&
  a.every((x, i) => (x.type ?? "MONTHDAY") === (b[i].type ?? "MONTHDAY") && x.day === b[i].day && (x.month ?? null) === (b[i].month ?? null));

function pricingErrors(policies: In[], at: string[]): UserError[] {
  if (policies.length > MAX_PRICING_POLICIES)
    return [err(at, `A selling plan can have at most ${MAX_PRICING_POLICIES} pricing policies`, "SELLING_PLAN_PRICING_POLICIES_LIMIT")];
  const fixed = policies.filter((p) => p.fixed);
  if (fixed.length > 1) return [err(at, "A selling plan can have at most one fixed pricing policy", "SELLING_PLAN_FIXED_PRICING_POLICIES_LIMIT")];
  if (policies.length > 1 && fixed.length === 0)
    return [err(at, "Pricing policies must contain a fixed pricing policy", "SELLING_PLAN_PRICING_POLICIES_MUST_CONTAIN_A_FIXED_PRICING_POLICY")];
  const out: UserError[] = [];
  policies.forEach((p, i) => {
    const here = [...at, String(i)];
    if (p.fixed && p.recurring) return out.push(err(here, "Only one pricing policy type can be defined", "ONLY_NEED_ONE_PRICING_POLICY_TYPE"));
    const body: In = p.fixed ?? p.recurring ?? {};
    const v: In = body.adjustmentValue ?? {};
    const where = [...here, p.fixed ? "fixed" : "recurring", "adjustmentValue"];
    if (v.percentage != null && v.fixedValue != null)
      return out.push(err(where, "Only one adjustment value type can be defined", "ONLY_NEED_ONE_PRICING_POLICY_VALUE"));
    const percent = body.adjustmentType === "PERCENTAGE";
    if (percent ? v.percentage == null : v.fixedValue == null) {
      return out.push(err(where, "Pricing policy's adjustment value and adjustment type must match", "PRICING_POLICY_ADJUSTMENT_VALUE_AND_TYPE_MUST_MATCH"));
    }
    if (percent && (v.percentage < 0 || v.percentage > 100)) out.push(err([...where, "percentage"], "Percentage must be between 0 and 100", "INCLUSION"));
    if (!percent && !(Number(v.fixedValue) >= 0))
      out.push(err([...where, "fixedValue"], "Fixed value must be greater than or equal to 0", "GREATER_THAN_OR_EQUAL_TO"));
    if (p.recurring && !(body.afterCycle >= 1)) out.push(err([...here, "recurring", "afterCycle"], "After cycle must be greater than 0", "GREATER_THAN"));
    return out.length;
  });
  return out;
}

function parsePricing(policies: In[]): PricingPolicy[] {
  return policies.map((p) => {
    const body: In = p.fixed ?? p.recurring;
    const v: In = body.adjustmentValue ?? {};
    return {
      kind: p.fixed ? "fixed" : "recurring",
      adjustmentType: body.adjustmentType ?? "PERCENTAGE",
      value: body.adjustmentType === "PERCENTAGE" ? String(v.percentage) : String(v.fixedValue),
      afterCycle: p.recurring ? body.afterCycle : null,
    };
  });
}

/**
 * One SellingPlanInput checked: errors (field paths under `at`) or the plan as stored. `existing`
 * is the stored plan an update starts from (its omitted policies are kept).
 */
export function checkPlan(p: In, at: string[], existing: ParsedPlan | null): { errors: UserError[]; plan: ParsedPlan | null } {
  const errors: UserError[] = [];
  const name = p.name ?? existing?.name;
  if (!name || !String(name).trim()) errors.push(err([...at, "name"], "Name can't be blank", "BLANK"));
  const billing: In | undefined = p.billingPolicy;
  const delivery: In | undefined = p.deliveryPolicy;
  if (!existing && !billing) errors.push(err([...at, "billingPolicy"], "Selling plan billing policy is missing", "SELLING_PLAN_BILLING_POLICY_MISSING"));
  if (!existing && !delivery) errors.push(err([...at, "deliveryPolicy"], "Selling plan delivery policy is missing", "SELLING_PLAN_DELIVERY_POLICY_MISSING"));
  if (billing?.fixed && billing?.recurring)
    errors.push(err([...at, "billingPolicy"], "A selling plan can't have both fixed and recurring billing policies", "ONLY_ONE_OF_FIXED_OR_RECURRING_BILLING"));
  if (delivery?.fixed && delivery?.recurring)
    errors.push(
      err([...at, "deliveryPolicy"], "A selling plan can't have both fixed and recurring delivery policies", "ONLY_ONE_OF_FIXED_OR_RECURRING_DELIVERY"),
    );
  if (billing && delivery && !!billing.fixed !== !!delivery.fixed) {
    errors.push(err([...at, "deliveryPolicy"], "Billing and delivery policy types must be the same", "BILLING_AND_DELIVERY_POLICY_TYPES_MUST_BE_THE_SAME"));
  }
  if (billing?.fixed || delivery?.fixed) errors.push(err([...at, "billingPolicy", "fixed"], "Fixed (pre-order) selling plans are not simulated", "INVALID"));
  if (errors.length) return { errors, plan: null };

  const b: In = billing?.recurring ?? {};
  const d: In = delivery?.recurring ?? {};
  const prev = existing?.policies;
  const interval: Interval = b.interval ?? existing?.interval ?? "MONTH";
  const intervalCount: number = b.intervalCount ?? existing?.intervalCount ?? 1;
  if (intervalCount < 1) errors.push(err([...at, "billingPolicy", "recurring", "intervalCount"], "Interval count must be greater than 0", "GREATER_THAN"));
  if ((d.interval ?? interval) !== interval || (d.intervalCount ?? intervalCount) % intervalCount !== 0) {
    errors.push(
      err(
        [...at, "billingPolicy", "recurring", "intervalCount"],
        "Billing cycle must be a multiple of the delivery cycle",
        "SELLING_PLAN_BILLING_CYCLE_MUST_BE_A_MULTIPLE_OF_DELIVERY_CYCLE",
      ),
    );
  }
  const minCycles = b.minCycles !== undefined ? b.minCycles : (prev?.minCycles ?? null);
  const maxCycles = b.maxCycles !== undefined ? b.maxCycles : (prev?.maxCycles ?? null);
  if (minCycles != null && maxCycles != null && maxCycles < minCycles) {
    errors.push(
      err(
        [...at, "billingPolicy", "recurring", "maxCycles"],
        "Max cycles must be greater than min cycles",
        "SELLING_PLAN_MAX_CYCLES_MUST_BE_GREATER_THAN_MIN_CYCLES",
      ),
    );
  }
  const cutoff = d.cutoff !== undefined ? d.cutoff : (prev?.cutoff ?? null);
  const billingAnchors: In[] = b.anchors ?? prev?.anchors ?? [];
  const deliveryAnchors: In[] = d.anchors ?? prev?.anchors ?? [];
  errors.push(...anchorErrors(billingAnchors, [...at, "billingPolicy", "recurring", "anchors"], null));
  errors.push(...anchorErrors(deliveryAnchors, [...at, "deliveryPolicy", "recurring", "anchors"], cutoff));
  if (!sameAnchors(billingAnchors, deliveryAnchors)) {
    errors.push(
      err(
        [...at, "billingPolicy", "recurring", "anchors"],
        "Billing and delivery policy anchors must be equal",
        "SELLING_PLAN_BILLING_AND_DELIVERY_POLICY_ANCHORS_MUST_BE_EQUAL",
      ),
    );
  }
  const pricing: In[] | undefined = p.pricingPolicies;
  if (pricing) errors.push(...pricingErrors(pricing, [...at, "pricingPolicies"]));
  if (errors.length) return { errors, plan: null };
  const anchors = deliveryAnchors.map((a) => ({
    type: (a.type ?? "MONTHDAY") as Anchor["type"],
    day: a.day as number,
    month: a.month ?? null,
    cutoffDay: a.cutoffDay ?? null,
  }));
  return {
    errors,
    plan: {
      id: existing?.id ?? null,
      name: String(name),
      interval,
      intervalCount,
      policies: {
        options: p.options ?? prev?.options ?? [String(name)],
        description: p.description !== undefined ? p.description : (prev?.description ?? null),
        position: p.position !== undefined ? p.position : (prev?.position ?? null),
        minCycles,
        maxCycles,
        anchors,
        cutoff,
        preAnchorBehavior: d.preAnchorBehavior ?? prev?.preAnchorBehavior ?? "ASAP",
        pricingPolicies: pricing ? parsePricing(pricing) : (prev?.pricingPolicies ?? []),
      },
    },
  };
}

/** Plans of one group must have distinct names. */
export function duplicateNameErrors(names: string[], at: string[]): UserError[] {
  const seen = new Set<string>();
  for (const n of names) {
    const key = n.trim().toLowerCase();
    if (seen.has(key)) return [err(at, `Selling plan name "${n}" is already taken in this group`, "SELLING_PLAN_DUPLICATE_NAME")];
    seen.add(key);
  }
  return [];
}
