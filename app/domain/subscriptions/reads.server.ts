// Subscription reads over the contract mirror (/docs#tag/Admin-API:-Subscriptions; the mirror row, GET
// /subscriptions, GET /subscriptions/{contract_gid}). Only contracts created by the service are
// visible; any other contract is the same 404 as an unknown id.
import type { Contract, ContractLine } from "@prisma/client";
import { copyBinary } from "../../infra/pg-copy.server";
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import type { EncodedPage, PageRequest } from "../shared/paging.server";
import { binaryRenderer, binarySelectList, type BinaryColumn } from "../shared/format-binary";
import { subscriptionPageQuery, type SubscriptionFilterOptions } from "./filters.server";
import { giftView, type GiftView } from "../gifts/gifts.server";

/** The Admin API list's filters are the shared ones (docs/decisions/055-subscription-filters.md). */
export type SubscriptionFilters = SubscriptionFilterOptions;

export interface ReadContext {
  shopId: string;
  /** The key holds read:customers (protected customer data may be returned). */
  canReadCustomers: boolean;
}

/** A subscription as the reads return it: the mirror's contract row (a Prisma row satisfies it). */
export type SubscriptionView = Pick<
  Contract,
  | "contractGid"
  | "status"
  | "nextBillingAt"
  | "sellingPlanGroupGid"
  | "sellingPlanGid"
  | "customerGid"
  | "currencyCode"
  | "chargeAmountCents"
  | "monthlyAmountCents"
  | "billingInterval"
  | "billingIntervalCount"
  | "productTitle"
  | "frequencyLabel"
  | "orderName"
  | "createdAt"
  | "updatedAt"
>;

/** One line of a subscription (a Prisma line row satisfies it); its price is in the contract's currency. */
export type LineView = Pick<ContractLine, "lineGid" | "productGid" | "variantGid" | "title" | "variantTitle" | "quantity" | "priceCents" | "sellingPlanGid">;

export interface SubscriptionDetailView extends SubscriptionView {
  /** In position order. */
  lines: LineView[];
  gift: GiftView | null;
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

/** A list row read as values (the binary list's reference, tests and benches): its view. */
export function contractRowView(r: ContractRow): SubscriptionView {
  const date = (v: string | null) => (v === null ? null : new Date(v));
  return {
    contractGid: r.contract_gid,
    status: r.status as Contract["status"],
    nextBillingAt: date(r.next_billing_at),
    sellingPlanGroupGid: r.selling_plan_group_gid,
    sellingPlanGid: r.selling_plan_gid,
    customerGid: r.customer_gid,
    currencyCode: r.currency_code,
    chargeAmountCents: r.charge_amount_cents,
    monthlyAmountCents: r.monthly_amount_cents,
    billingInterval: r.billing_interval as Contract["billingInterval"],
    billingIntervalCount: r.billing_interval_count,
    productTitle: r.product_title,
    frequencyLabel: r.frequency_label,
    orderName: r.order_name,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

/**
 * The Admin API's subscription objects as the binary renderer writes them (labels are the JSON
 * keys), in the schema's key order: the list's objects are written from a binary COPY of these
 * columns with no JavaScript object per row, byte for byte what JSON.stringify of the surface's
 * `subscriptionJson(contractRowView(row))` gives (tests/integration/exports/format-binary.test.ts;
 * docs/decisions/091-subscription-list-from-binary-copy.md). The one place the domain writes a
 * wire shape: the documented exception of docs/decisions/100-one-read-side.md.
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

/**
 * One keyset page of GET /subscriptions, its objects already JSON (the list the benches measure).
 * The bytes' type is the surface's to name (app/surfaces/admin/wire.ts `subscriptionPage`).
 */
export async function listSubscriptions(ctx: SubscriptionListRequest): Promise<EncodedPage> {
  const { limit, after } = ctx.page;
  const page = renderList(await copyBinary(subscriptionPageQuery(LIST_SELECT, ctx.shopId, ctx.filters, { after, now: ctx.now }, limit + 1)), limit);
  return { items: page.bytes, next: page.more && page.last ? { createdAt: page.last.at, id: page.last.id } : null };
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

export async function getSubscription(ctx: ReadContext & { contractGid: string }): Promise<SubscriptionDetailView> {
  const c = await findOwnedContract(ctx.shopId, ctx.contractGid);
  if (!c) throw contractNotFound(ctx.contractGid);
  const gift = await prisma.gift.findUnique({ where: { contractId: c.id } });
  return {
    ...c,
    gift: gift && gift.shopId === ctx.shopId ? giftView({ ...gift, contractGid: c.contractGid }, ctx.canReadCustomers) : null,
  };
}
