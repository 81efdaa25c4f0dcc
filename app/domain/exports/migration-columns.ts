// The migration file's columns: the importer-shaped round-trip format (spec 2, Datasets:
// migration). The future CSV importer (issue 13) reads exactly these labels, so they are defined
// once, here; renaming one is a format change. One row per contract line, the contract's and the
// customer's columns repeated on each line of the same contract (rows of one contract are
// adjacent, grouped by "Contract ID"). docs/decisions/056-export-datasets.md.
import type { Column } from "./format";
import { formatMinor } from "../money.server";
import type { PlatformCustomer } from "../../platform/port";

export interface MigrationRow {
  contract: {
    contractGid: string;
    status: string;
    customerGid: string;
    currencyCode: string;
    nextBillingAt: Date | null;
    billingInterval: string | null;
    billingIntervalCount: number | null;
    sellingPlanGroupGid: string | null;
    sellingPlanGid: string | null;
    orderName: string | null;
    createdAt: Date;
  };
  /** Null when the platform no longer knows the customer (the cells stay empty). */
  customer: PlatformCustomer | null;
  line: {
    position: number;
    variantGid: string | null;
    productGid: string | null;
    title: string;
    variantTitle: string | null;
    quantity: number;
    priceCents: number;
    sellingPlanGid: string | null;
  } | null;
}

const addr = (r: MigrationRow) => r.customer?.shippingAddress ?? null;

export const MIGRATION_COLUMNS: readonly Column<MigrationRow>[] = [
  { label: "Contract ID", kind: "id", value: (r) => r.contract.contractGid },
  { label: "Status", kind: "enum", value: (r) => r.contract.status },
  { label: "Customer ID", kind: "id", value: (r) => r.contract.customerGid },
  { label: "Email", kind: "text", value: (r) => r.customer?.email ?? null },
  { label: "First name", kind: "text", value: (r) => r.customer?.firstName ?? null },
  { label: "Last name", kind: "text", value: (r) => r.customer?.lastName ?? null },
  { label: "Phone", kind: "text", value: (r) => r.customer?.phone ?? null },
  { label: "Shipping first name", kind: "text", value: (r) => addr(r)?.firstName ?? null },
  { label: "Shipping last name", kind: "text", value: (r) => addr(r)?.lastName ?? null },
  { label: "Shipping company", kind: "text", value: (r) => addr(r)?.company ?? null },
  { label: "Shipping address 1", kind: "text", value: (r) => addr(r)?.address1 ?? null },
  { label: "Shipping address 2", kind: "text", value: (r) => addr(r)?.address2 ?? null },
  { label: "Shipping city", kind: "text", value: (r) => addr(r)?.city ?? null },
  { label: "Shipping province", kind: "text", value: (r) => addr(r)?.province ?? null },
  { label: "Shipping province code", kind: "text", value: (r) => addr(r)?.provinceCode ?? null },
  { label: "Shipping zip", kind: "text", value: (r) => addr(r)?.zip ?? null },
  { label: "Shipping country", kind: "text", value: (r) => addr(r)?.country ?? null },
  { label: "Shipping country code", kind: "text", value: (r) => addr(r)?.countryCode ?? null },
  { label: "Shipping phone", kind: "text", value: (r) => addr(r)?.phone ?? null },
  { label: "Currency", kind: "enum", value: (r) => r.contract.currencyCode },
  { label: "Next billing at", kind: "date", value: (r) => r.contract.nextBillingAt?.toISOString() ?? null },
  { label: "Billing interval", kind: "enum", value: (r) => r.contract.billingInterval },
  { label: "Billing interval count", kind: "number", value: (r) => r.contract.billingIntervalCount },
  { label: "Plan group ID", kind: "id", value: (r) => r.contract.sellingPlanGroupGid },
  { label: "Selling plan ID", kind: "id", value: (r) => r.line?.sellingPlanGid ?? r.contract.sellingPlanGid },
  { label: "Line position", kind: "number", value: (r) => r.line?.position ?? null },
  { label: "Variant ID", kind: "id", value: (r) => r.line?.variantGid ?? null },
  { label: "Product ID", kind: "id", value: (r) => r.line?.productGid ?? null },
  { label: "Product", kind: "text", value: (r) => r.line?.title ?? null },
  { label: "Variant", kind: "text", value: (r) => r.line?.variantTitle ?? null },
  { label: "Quantity", kind: "number", value: (r) => r.line?.quantity ?? null },
  { label: "Line price", kind: "money", value: (r) => (r.line ? formatMinor(r.line.priceCents, r.contract.currencyCode) : null) },
  { label: "Order", kind: "text", value: (r) => r.contract.orderName },
  { label: "Created at", kind: "date", value: (r) => r.contract.createdAt.toISOString() },
];

/** The labels in order: what the importer will expect as the header row. */
export const MIGRATION_HEADER: readonly string[] = MIGRATION_COLUMNS.map((c) => c.label);
