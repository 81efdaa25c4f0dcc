// The subscription filters, one definition for every list of contracts: the admin's Subscriptions
// page, the Export Center, the `subscriptions` export dataset (docs/decisions/055-subscription-filters.md) and the Admin
// API's GET /subscriptions. The domain takes typed options; the wire form (snake_case names,
// strings from a query string or JSON) is parsed by the zod schema in
// app/surfaces/subscription-filters.ts. docs/decisions/055-subscription-filters.md.
import { Prisma } from "@prisma/client";
import { afterSql, type Keyset } from "../shared/paging.server";
import { currenciesByExponent } from "../shared/money.server";

/** The status filter of the API and the exports: the four values its reference lists. */
export const SUBSCRIPTION_FILTER_STATUSES = ["ACTIVE", "PAUSED", "CANCELLED", "EXPIRED"] as const;
/** The admin's Subscriptions page adds FAILED (payments exhausted), which the merchant must find. */
export type SubscriptionFilterStatus = (typeof SUBSCRIPTION_FILTER_STATUSES)[number] | "FAILED";

export const SUBSCRIPTION_VIEWS = ["renewals"] as const;
export type SubscriptionView = (typeof SUBSCRIPTION_VIEWS)[number];

/** A calendar day, YYYY-MM-DD (UTC). */
export type IsoDay = string;

/** Every field optional; all given fields must hold (AND). */
export interface SubscriptionFilterOptions {
  status?: SubscriptionFilterStatus;
  /** gid://shopify/SellingPlan/<n>: the plan a contract uses. */
  sellingPlanGid?: string;
  /** gid://shopify/SellingPlanGroup/<n>: the API's plan_id, the CSV's Plan group ID. */
  sellingPlanGroupGid?: string;
  /** gid://shopify/Customer/<n> (the surface turns a bare number into the gid). */
  customerGid?: string;
  /** Case-insensitive substring of the cached product title. */
  product?: string;
  /** Exact cached frequency label, e.g. "Every 2 weeks". */
  frequency?: string;
  /** Inclusive bounds on the per-charge amount, decimal text in the contract's own currency. */
  amountMin?: string;
  amountMax?: string;
  /** Inclusive next-charge day range (UTC days). */
  nextFrom?: IsoDay;
  nextTo?: IsoDay;
  /** Case-insensitive substring across product title, order name and the global ids. */
  q?: string;
  /** Contracts of these customers match `q` too (the admin's search by name or e-mail, read from Shopify). */
  qCustomerGids?: string[];
  /** renewals: ACTIVE contracts whose next charge is today (UTC) or later. */
  view?: SubscriptionView;
  /** Admin API list only: rows updated strictly after this instant. */
  updatedAfter?: Date;
}

export interface FilterSqlOptions {
  /** Continue strictly after this row in (created_at desc, id desc) order. */
  after?: Keyset | null;
  /** "Today" for view=renewals; tests and sweeps pass a fixed clock. */
  now?: Date;
}

/** `\`, `%` and `_` taken literally inside ILIKE (the default escape character is `\`). */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const dayStart = (day: IsoDay) => new Date(`${day}T00:00:00.000Z`);
const nextDayStart = (day: IsoDay) => new Date(dayStart(day).getTime() + 86_400_000);

/**
 * A decimal bound compared with minor units in the contract's own currency: the bound is scaled
 * by 10^exponent of each row's currency (ISO 4217, app/domain/shared/money.server.ts), so "5" means
 * 500 cents of USD and 5 yen, exactly (numeric, no float).
 */
function scaledBound(decimal: string): Prisma.Sql {
  const arms = currenciesByExponent()
    .filter(([exp]) => exp !== 2)
    .map(([exp, codes]) => Prisma.sql`WHEN currency_code = ANY(${codes}::text[]) THEN ${10 ** exp}::numeric`);
  return Prisma.sql`(${decimal}::numeric * (CASE ${Prisma.join(arms, " ")} ELSE 100::numeric END))`;
}

/**
 * The WHERE conditions (without the word WHERE) of a keyset query over `contracts` for one shop:
 * tenancy and created_by_service first, then each filter, then the keyset continuation. The one
 * function the list page, the export dataset and the Admin API share.
 */
export function subscriptionFilterSql(shopId: string, f: SubscriptionFilterOptions, opts: FilterSqlOptions = {}): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`shop_id = ${shopId} AND created_by_service`];
  if (f.status) parts.push(Prisma.sql`status = ${f.status}::"ContractStatus"`);
  if (f.sellingPlanGid) parts.push(Prisma.sql`selling_plan_gid = ${f.sellingPlanGid}`);
  if (f.sellingPlanGroupGid) parts.push(Prisma.sql`selling_plan_group_gid = ${f.sellingPlanGroupGid}`);
  if (f.customerGid) parts.push(Prisma.sql`customer_gid = ${f.customerGid}`);
  if (f.product) parts.push(Prisma.sql`product_title ILIKE ${likePattern(f.product)}`);
  if (f.frequency) parts.push(Prisma.sql`frequency_label = ${f.frequency}`);
  if (f.amountMin !== undefined) parts.push(Prisma.sql`charge_amount_cents >= ${scaledBound(f.amountMin)}`);
  if (f.amountMax !== undefined) parts.push(Prisma.sql`charge_amount_cents <= ${scaledBound(f.amountMax)}`);
  if (f.nextFrom) parts.push(Prisma.sql`next_billing_at >= ${dayStart(f.nextFrom)}`);
  if (f.nextTo) parts.push(Prisma.sql`next_billing_at < ${nextDayStart(f.nextTo)}`);
  if (f.q) {
    const p = likePattern(f.q);
    const byCustomer = f.qCustomerGids?.length ? Prisma.sql` OR customer_gid = ANY(${f.qCustomerGids}::text[])` : Prisma.empty;
    parts.push(Prisma.sql`(product_title ILIKE ${p} OR order_name ILIKE ${p} OR contract_gid ILIKE ${p} OR customer_gid ILIKE ${p}
      OR selling_plan_gid ILIKE ${p} OR selling_plan_group_gid ILIKE ${p}${byCustomer})`);
  }
  if (f.view === "renewals") {
    const today = (opts.now ?? new Date()).toISOString().slice(0, 10);
    parts.push(Prisma.sql`status = 'ACTIVE'::"ContractStatus" AND next_billing_at >= ${dayStart(today)}`);
  }
  if (f.updatedAfter) parts.push(Prisma.sql`updated_at > ${f.updatedAfter}`);
  return Prisma.sql`${Prisma.join(parts, " AND ")}${afterSql(opts.after ?? null)}`;
}

/**
 * A keyset page of the shop's filtered contracts, newest first (created_at desc, id desc): the
 * `select` list of at most `limit` rows (every row when null) after `opts.after` and, when `upto`
 * is given, down to that row (inclusive). The one page query of the Admin API list, the export
 * dataset's ranges and its JavaScript reference.
 */
export function subscriptionPageQuery(
  select: string,
  shopId: string,
  f: SubscriptionFilterOptions,
  opts: FilterSqlOptions & { upto?: Keyset | null },
  limit: number | null,
): Prisma.Sql {
  const upto = opts.upto ? Prisma.sql` AND (created_at, id) >= (${opts.upto.createdAt}, ${opts.upto.id})` : Prisma.empty;
  return Prisma.sql`SELECT ${Prisma.raw(select)} FROM contracts
    WHERE ${subscriptionFilterSql(shopId, f, opts)}${upto}
    ORDER BY created_at DESC, id DESC${limit === null ? Prisma.empty : Prisma.sql` LIMIT ${limit}`}`;
}

/** True when no filter is set (the page shows "all subscriptions"). */
export function isUnfiltered(f: SubscriptionFilterOptions): boolean {
  return Object.values(f).every((v) => v === undefined);
}
