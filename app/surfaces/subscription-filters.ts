// The wire form of the subscription filters (docs/decisions/055-subscription-filters.md): snake_case names with string
// values from a query string (admin Subscriptions page, Export Center) or string/number values
// from JSON (POST /exports `filters`). One zod schema parses both into the domain's typed
// options (app/domain/subscriptions/filters.server.ts). docs/decisions/055-subscription-filters.md.
//
// Rules: an unknown filter name is refused (never ignored), and so is a bad value; every message
// names the offending name or value. An empty string means "not set" (an HTML form sends every
// field). Bounds the wrong way round (amount_min > amount_max, next_from > next_to) are refused.
import { z } from "zod";
import { SUBSCRIPTION_FILTER_STATUSES, SUBSCRIPTION_VIEWS, type SubscriptionFilterOptions } from "../domain/subscriptions/filters.server";
import { isGid } from "./fields";

/** The filter names, in the order the reference and the pages list them. */
export const SUBSCRIPTION_FILTER_NAMES = [
  "status",
  "plan",
  "customer_id",
  "product",
  "frequency",
  "amount_min",
  "amount_max",
  "next_from",
  "next_to",
  "q",
  "view",
] as const;
export type SubscriptionFilterName = (typeof SUBSCRIPTION_FILTER_NAMES)[number];

/** The wire form as a record of strings (what a page keeps in its URL). */
export type SubscriptionFilterQuery = Partial<Record<SubscriptionFilterName, string>>;

const MAX_TEXT = 200;

/** Strings and (for numeric filters) JSON numbers; "" is absent. */
const text = (desc: string) =>
  z
    .union([z.string(), z.number()])
    .optional()
    .transform((v) => (v === undefined || v === "" ? undefined : String(v)))
    .describe(desc);

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
function isDay(s: string): boolean {
  const m = DAY.exec(s);
  if (!m) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}
const DECIMAL = /^\d{1,12}(?:\.\d{1,3})?$/;
const CUSTOMER_NUMBER = /^\d{1,20}$/;

function fail(ctx: z.RefinementCtx, path: string, message: string): never {
  ctx.addIssue({ code: "custom", path: [path], message });
  return z.NEVER as never;
}

const shape = {
  status: text("ACTIVE, PAUSED, CANCELLED or EXPIRED (case-insensitive)"),
  plan: text("gid://shopify/SellingPlan/<n> (the plan a contract uses) or gid://shopify/SellingPlanGroup/<n> (its group)"),
  customer_id: text("gid://shopify/Customer/<n> or the bare number <n>"),
  product: text("case-insensitive substring of the product title"),
  frequency: text('exact frequency label, e.g. "Every month"'),
  amount_min: text("lowest charge amount, decimal in the contract's currency (inclusive)"),
  amount_max: text("highest charge amount, decimal in the contract's currency (inclusive)"),
  next_from: text("next charge on or after this day, YYYY-MM-DD (UTC)"),
  next_to: text("next charge on or before this day, YYYY-MM-DD (UTC)"),
  q: text("free text across product title, order name and the global ids (case-insensitive substring)"),
  view: text("renewals: ACTIVE contracts charging today or later"),
};

/**
 * The strict schema: `filters` in POST /exports, and the query of the list pages. Outputs
 * SubscriptionFilterOptions or a zod issue naming the filter and its value.
 */
export const subscriptionFiltersSchema = z
  .object(shape)
  .strict()
  .transform((w, ctx): SubscriptionFilterOptions => {
    const out: SubscriptionFilterOptions = {};
    if (w.status !== undefined) {
      const hit = SUBSCRIPTION_FILTER_STATUSES.find((s) => s === w.status!.toUpperCase());
      if (!hit) return fail(ctx, "status", `Unknown status "${w.status}": expected one of ${SUBSCRIPTION_FILTER_STATUSES.join(", ")}`);
      out.status = hit;
    }
    if (w.plan !== undefined) {
      if (isGid(w.plan, "SellingPlan")) out.sellingPlanGid = w.plan;
      else if (isGid(w.plan, "SellingPlanGroup")) out.sellingPlanGroupGid = w.plan;
      else return fail(ctx, "plan", `plan "${w.plan}" is not a selling plan id (gid://shopify/SellingPlan/<n> or gid://shopify/SellingPlanGroup/<n>)`);
    }
    if (w.customer_id !== undefined) {
      if (isGid(w.customer_id, "Customer")) out.customerGid = w.customer_id;
      else if (CUSTOMER_NUMBER.test(w.customer_id)) out.customerGid = `gid://shopify/Customer/${w.customer_id}`;
      else return fail(ctx, "customer_id", `customer_id "${w.customer_id}" is not a customer id (gid://shopify/Customer/<n> or <n>)`);
    }
    for (const name of ["product", "frequency", "q"] as const) {
      const v = w[name];
      if (v === undefined) continue;
      if (v.length > MAX_TEXT) return fail(ctx, name, `${name} is longer than ${MAX_TEXT} characters`);
      // No PostgreSQL text holds a NUL, so no row could match, and the page's COPY statement
      // (docs/decisions/090) cannot carry one: refused here, not failed later as a query.
      if (v.includes("\u0000")) return fail(ctx, name, `${name} contains a NUL character`);
      if (name === "q") out.q = v;
      else out[name] = v;
    }
    for (const [name, key] of [
      ["amount_min", "amountMin"],
      ["amount_max", "amountMax"],
    ] as const) {
      const v = w[name];
      if (v === undefined) continue;
      if (!DECIMAL.test(v)) return fail(ctx, name, `${name} "${v}" is not a non-negative decimal amount (e.g. 19.99)`);
      out[key] = v;
    }
    if (out.amountMin !== undefined && out.amountMax !== undefined && Number(out.amountMin) > Number(out.amountMax)) {
      return fail(ctx, "amount_min", `amount_min "${out.amountMin}" is greater than amount_max "${out.amountMax}"`);
    }
    for (const [name, key] of [
      ["next_from", "nextFrom"],
      ["next_to", "nextTo"],
    ] as const) {
      const v = w[name];
      if (v === undefined) continue;
      if (!isDay(v)) return fail(ctx, name, `${name} "${v}" is not a date (YYYY-MM-DD)`);
      out[key] = v;
    }
    if (out.nextFrom && out.nextTo && out.nextFrom > out.nextTo) {
      return fail(ctx, "next_from", `next_from "${out.nextFrom}" is after next_to "${out.nextTo}"`);
    }
    if (w.view !== undefined) {
      const hit = SUBSCRIPTION_VIEWS.find((v) => v === w.view!.toLowerCase());
      if (!hit) return fail(ctx, "view", `Unknown view "${w.view}": expected ${SUBSCRIPTION_VIEWS.join(", ")}`);
      out.view = hit;
    }
    return out;
  });

export type SubscriptionFilterParse = { ok: true; filters: SubscriptionFilterOptions } | { ok: false; message: string; field: string | null };

/**
 * For pages: the filters in a URL's query (other parameters such as `cursor` or `dataset` are the
 * page's own and are left out first). The message names the filter and the value.
 */
export function parseSubscriptionFilterQuery(params: URLSearchParams, ignore: readonly string[] = []): SubscriptionFilterParse {
  const raw: Record<string, string> = {};
  for (const [k, v] of params) if (!ignore.includes(k)) raw[k] = v;
  return parseSubscriptionFilterInput(raw);
}

/** Any input (JSON object or record of strings) to typed options, or the first issue's message. */
export function parseSubscriptionFilterInput(input: unknown): SubscriptionFilterParse {
  const r = subscriptionFiltersSchema.safeParse(input);
  if (r.success) return { ok: true, filters: r.data };
  const first = r.error.issues[0];
  return { ok: false, message: issueMessage(r.error), field: first.code === "unrecognized_keys" ? null : String(first.path[0] ?? "") || null };
}

/** "filters.plan: ..." style text for the first issue (unknown keys are named). */
export function issueMessage(error: z.ZodError, prefix = ""): string {
  const issue = error.issues[0];
  if (issue.code === "unrecognized_keys")
    return `Unknown filter ${issue.keys.map((k) => `"${k}"`).join(", ")}: expected ${SUBSCRIPTION_FILTER_NAMES.join(", ")}`;
  const field = [prefix, ...issue.path.map(String)].filter(Boolean).join(".");
  return field ? `${field}: ${issue.message}` : issue.message;
}

/** Typed options back to the wire form (links, the Export Center's download URL). */
export function filtersToQuery(f: SubscriptionFilterOptions): SubscriptionFilterQuery {
  const q: SubscriptionFilterQuery = {};
  if (f.status) q.status = f.status;
  if (f.sellingPlanGid) q.plan = f.sellingPlanGid;
  if (f.sellingPlanGroupGid) q.plan = f.sellingPlanGroupGid;
  if (f.customerGid) q.customer_id = f.customerGid;
  if (f.product) q.product = f.product;
  if (f.frequency) q.frequency = f.frequency;
  if (f.amountMin !== undefined) q.amount_min = f.amountMin;
  if (f.amountMax !== undefined) q.amount_max = f.amountMax;
  if (f.nextFrom) q.next_from = f.nextFrom;
  if (f.nextTo) q.next_to = f.nextTo;
  if (f.q) q.q = f.q;
  if (f.view) q.view = f.view;
  return q;
}
