// Subscription reads over the contract mirror (/docs#tag/Admin-API:-Subscriptions; the mirror row, GET
// /subscriptions, GET /subscriptions/{contract_gid}). Only contracts created by the service are
// visible; any other contract is the same 404 as an unknown id.
import { copyBinary } from "../../infra/pg-copy.server";
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { money, iso, type Money } from "../shared/money.server";
import { decodedPage, type EncodedPage, type PageRequest, type PageResult } from "../shared/paging.server";
import { binaryRenderer, binarySelectList, type BinaryColumn } from "../shared/format-binary";
import { subscriptionPageQuery, type SubscriptionFilterOptions } from "./filters.server";
import { giftJson, type GiftJson } from "../gifts/gifts.server";

/** The Admin API list's filters are the shared ones (docs/decisions/055-subscription-filters.md). */
export type SubscriptionFilters = SubscriptionFilterOptions;

export interface ReadContext {
  shopId: string;
  /** The key holds read:customers (protected customer data may be returned). */
  canReadCustomers: boolean;
}

export interface SubscriptionJson {
  contract_id: string;
  status: string;
  next_billing_at: string | null;
  selling_plan_group_id: string | null;
  selling_plan_id: string | null;
  customer_id: string;
  currency_code: string;
  charge_amount: Money | null;
  monthly_amount: Money | null;
  billing_interval: string | null;
  billing_interval_count: number | null;
  product_title: string | null;
  frequency_label: string | null;
  order_name: string | null;
  created_at: string;
  updated_at: string;
}

export interface LineJson {
  line_id: string;
  product_id: string | null;
  variant_id: string | null;
  title: string;
  variant_title: string | null;
  quantity: number;
  price: Money;
  selling_plan_id: string | null;
}

export interface SubscriptionDetailJson extends SubscriptionJson {
  lines: LineJson[];
  gift: GiftJson | null;
}

/** The columns one list row needs, in SQL names (also what bench/admin.ts issues with pg). */
export const SUBSCRIPTION_COLUMNS =
  "id, contract_gid, status, next_billing_at, selling_plan_gid, selling_plan_group_gid, customer_gid, currency_code, " +
  "charge_amount_cents, monthly_amount_cents, billing_interval, billing_interval_count, product_title, " +
  "frequency_label, order_name, created_at, updated_at";

export interface ContractRow {
  id: string;
  contract_gid: string;
  status: string;
  /** ISO 8601 (the list's query reads timestamps as ISO strings: hotQuery's isoTimestamps). */
  next_billing_at: string | null;
  selling_plan_gid: string | null;
  selling_plan_group_gid: string | null;
  customer_gid: string;
  currency_code: string;
  charge_amount_cents: number | null;
  monthly_amount_cents: number | null;
  billing_interval: string | null;
  billing_interval_count: number | null;
  product_title: string | null;
  frequency_label: string | null;
  order_name: string | null;
  created_at: string;
  updated_at: string;
}

// customer_id is a pseudonymous platform id, not protected customer data (names, e-mails, gift
// messages): it is returned at read:subscriptions, as on notification rows and as the
// customer_id filter already implies (docs/decisions/020-admin-api-read-shapes.md).
export function subscriptionJson(r: ContractRow): SubscriptionJson {
  return {
    contract_id: r.contract_gid,
    status: r.status,
    next_billing_at: r.next_billing_at,
    selling_plan_group_id: r.selling_plan_group_gid,
    selling_plan_id: r.selling_plan_gid,
    customer_id: r.customer_gid,
    currency_code: r.currency_code,
    charge_amount: money(r.charge_amount_cents, r.currency_code),
    monthly_amount: money(r.monthly_amount_cents, r.currency_code),
    billing_interval: r.billing_interval,
    billing_interval_count: r.billing_interval_count,
    product_title: r.product_title,
    frequency_label: r.frequency_label,
    order_name: r.order_name,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/**
 * `subscriptionJson`'s fields as the binary renderer writes them (labels are the JSON keys), in
 * its key order: the list's objects are written from a binary COPY of these columns with no
 * JavaScript object per row, byte for byte what JSON.stringify(subscriptionJson(row)) gives
 * (tests/integration/exports/format-binary.test.ts; docs/decisions/091-subscription-list-from-binary-copy.md).
 */
export const SUBSCRIPTION_LIST_COLUMNS: readonly BinaryColumn[] = [
  { label: "contract_id", kind: "id", source: "contract_gid" },
  { label: "status", kind: "enum", source: "status" },
  { label: "next_billing_at", kind: "date", source: "next_billing_at" },
  { label: "selling_plan_group_id", kind: "id", source: "selling_plan_group_gid" },
  { label: "selling_plan_id", kind: "id", source: "selling_plan_gid" },
  { label: "customer_id", kind: "id", source: "customer_gid" },
  { label: "currency_code", kind: "enum", source: "currency_code" },
  { label: "charge_amount", kind: "money", source: "charge_amount_cents", currency: "currency_code" },
  { label: "monthly_amount", kind: "money", source: "monthly_amount_cents", currency: "currency_code" },
  { label: "billing_interval", kind: "enum", source: "billing_interval" },
  { label: "billing_interval_count", kind: "number", source: "billing_interval_count" },
  { label: "product_title", kind: "text", source: "product_title" },
  { label: "frequency_label", kind: "text", source: "frequency_label" },
  { label: "order_name", kind: "text", source: "order_name" },
  { label: "created_at", kind: "date", source: "created_at" },
  { label: "updated_at", kind: "date", source: "updated_at" },
];
const LIST_SELECT = binarySelectList(SUBSCRIPTION_LIST_COLUMNS);
const renderList = binaryRenderer("json", SUBSCRIPTION_LIST_COLUMNS);

interface SubscriptionListRequest {
  shopId: string;
  filters: SubscriptionFilters;
  page: PageRequest;
  now?: Date;
}

/** One keyset page of GET /subscriptions, its objects already JSON (the list the benches measure). */
export async function listSubscriptions(ctx: SubscriptionListRequest): Promise<EncodedPage<SubscriptionJson>> {
  const { limit, after } = ctx.page;
  const page = renderList(await copyBinary(subscriptionPageQuery(LIST_SELECT, ctx.shopId, ctx.filters, { after, now: ctx.now }, limit + 1)), limit);
  return { items: page.bytes, next: page.more && page.last ? { createdAt: page.last.at, id: page.last.id } : null };
}

/** The same page as values (the Subscriptions page of the admin). */
export async function listSubscriptionRows(ctx: SubscriptionListRequest): Promise<PageResult<SubscriptionJson>> {
  return decodedPage(await listSubscriptions(ctx));
}

/** The mirror row of a service-created contract of this shop, or null (the 404 case). */
export async function findOwnedContract(shopId: string, contractGid: string) {
  return prisma.contract.findFirst({
    where: { shopId, contractGid, createdByService: true },
    include: { lines: { orderBy: [{ position: "asc" }, { id: "asc" }] } },
  });
}

export type OwnedContract = NonNullable<Awaited<ReturnType<typeof findOwnedContract>>>;

export function contractNotFound(contractGid: string): ApiError {
  return new ApiError("not_found", `No subscription ${contractGid}`);
}

export function lineJson(
  l: {
    lineGid: string;
    productGid: string | null;
    variantGid: string | null;
    title: string;
    variantTitle: string | null;
    quantity: number;
    priceCents: number;
    sellingPlanGid: string | null;
  },
  currencyCode: string,
): LineJson {
  return {
    line_id: l.lineGid,
    product_id: l.productGid,
    variant_id: l.variantGid,
    title: l.title,
    variant_title: l.variantTitle,
    quantity: l.quantity,
    price: money(l.priceCents, currencyCode)!,
    selling_plan_id: l.sellingPlanGid,
  };
}

export function contractToRow(c: OwnedContract): ContractRow {
  return {
    id: c.id,
    contract_gid: c.contractGid,
    status: c.status,
    next_billing_at: iso(c.nextBillingAt),
    selling_plan_gid: c.sellingPlanGid,
    selling_plan_group_gid: c.sellingPlanGroupGid,
    customer_gid: c.customerGid,
    currency_code: c.currencyCode,
    charge_amount_cents: c.chargeAmountCents,
    monthly_amount_cents: c.monthlyAmountCents,
    billing_interval: c.billingInterval,
    billing_interval_count: c.billingIntervalCount,
    product_title: c.productTitle,
    frequency_label: c.frequencyLabel,
    order_name: c.orderName,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

export async function getSubscription(ctx: ReadContext & { contractGid: string }): Promise<SubscriptionDetailJson> {
  const c = await findOwnedContract(ctx.shopId, ctx.contractGid);
  if (!c) throw contractNotFound(ctx.contractGid);
  const gift = await prisma.gift.findUnique({ where: { contractId: c.id } });
  return {
    ...subscriptionJson(contractToRow(c)),
    lines: c.lines.map((l) => lineJson(l, c.currencyCode)),
    gift: gift && gift.shopId === ctx.shopId ? giftJson({ ...gift, contractGid: c.contractGid }, ctx.canReadCustomers) : null,
  };
}
