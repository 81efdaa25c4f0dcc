// The migration file's columns: the importer-shaped round-trip format (docs/decisions/056-export-datasets.md,
// migration). The exporter writes these columns and the importer (app/domain/imports/) reads
// exactly these labels, so they are defined once, here; renaming one is a format change. One row
// per contract line, the contract's and the customer's columns repeated on each line of the same
// contract (rows of one contract are adjacent, grouped by "Contract ID").
// docs/decisions/056-export-datasets.md, docs/decisions/085-migration-import.md.
//
// Each column also names the importer's `field` for it. The last five columns are the importer's
// own: the exporter leaves them empty (a vaulted payment method id means nothing in another shop,
// and a previous processor's references are not readable from Shopify); a merchant fills them.
import type { Column } from "../shared/format";
import { formatMinor } from "../shared/money.server";
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

export type MigrationField =
  | "contractId"
  | "status"
  | "customerId"
  | "email"
  | "firstName"
  | "lastName"
  | "phone"
  | "shipFirstName"
  | "shipLastName"
  | "shipCompany"
  | "shipAddress1"
  | "shipAddress2"
  | "shipCity"
  | "shipProvince"
  | "shipProvinceCode"
  | "shipZip"
  | "shipCountry"
  | "shipCountryCode"
  | "shipPhone"
  | "currency"
  | "nextBillingAt"
  | "billingInterval"
  | "billingIntervalCount"
  | "planGroupId"
  | "sellingPlanId"
  | "linePosition"
  | "variantId"
  | "productId"
  | "product"
  | "variant"
  | "quantity"
  | "linePrice"
  | "order"
  | "createdAt"
  | "paymentMethodId"
  | "remoteGateway"
  | "remoteCustomerId"
  | "remotePaymentMethodId"
  | "importKey";

export interface MigrationColumn extends Column<MigrationRow> {
  /** The importer's name for the column (app/domain/imports/). */
  field: MigrationField;
}

const c = (field: MigrationField, column: Column<MigrationRow>): MigrationColumn => ({ ...column, field });

const DEFINITIONS: readonly (readonly [MigrationField, Column<MigrationRow>])[] = [
  ["contractId", { label: "Contract ID", kind: "id", value: (r) => r.contract.contractGid }],
  ["status", { label: "Status", kind: "enum", value: (r) => r.contract.status }],
  ["customerId", { label: "Customer ID", kind: "id", value: (r) => r.contract.customerGid }],
  ["email", { label: "Email", kind: "text", value: (r) => r.customer?.email ?? null }],
  ["firstName", { label: "First name", kind: "text", value: (r) => r.customer?.firstName ?? null }],
  ["lastName", { label: "Last name", kind: "text", value: (r) => r.customer?.lastName ?? null }],
  ["phone", { label: "Phone", kind: "text", value: (r) => r.customer?.phone ?? null }],
  ["shipFirstName", { label: "Shipping first name", kind: "text", value: (r) => addr(r)?.firstName ?? null }],
  ["shipLastName", { label: "Shipping last name", kind: "text", value: (r) => addr(r)?.lastName ?? null }],
  ["shipCompany", { label: "Shipping company", kind: "text", value: (r) => addr(r)?.company ?? null }],
  ["shipAddress1", { label: "Shipping address 1", kind: "text", value: (r) => addr(r)?.address1 ?? null }],
  ["shipAddress2", { label: "Shipping address 2", kind: "text", value: (r) => addr(r)?.address2 ?? null }],
  ["shipCity", { label: "Shipping city", kind: "text", value: (r) => addr(r)?.city ?? null }],
  ["shipProvince", { label: "Shipping province", kind: "text", value: (r) => addr(r)?.province ?? null }],
  ["shipProvinceCode", { label: "Shipping province code", kind: "text", value: (r) => addr(r)?.provinceCode ?? null }],
  ["shipZip", { label: "Shipping zip", kind: "text", value: (r) => addr(r)?.zip ?? null }],
  ["shipCountry", { label: "Shipping country", kind: "text", value: (r) => addr(r)?.country ?? null }],
  ["shipCountryCode", { label: "Shipping country code", kind: "text", value: (r) => addr(r)?.countryCode ?? null }],
  ["shipPhone", { label: "Shipping phone", kind: "text", value: (r) => addr(r)?.phone ?? null }],
  ["currency", { label: "Currency", kind: "enum", value: (r) => r.contract.currencyCode }],
  ["nextBillingAt", { label: "Next billing at", kind: "date", value: (r) => r.contract.nextBillingAt?.toISOString() ?? null }],
  ["billingInterval", { label: "Billing interval", kind: "enum", value: (r) => r.contract.billingInterval }],
  ["billingIntervalCount", { label: "Billing interval count", kind: "number", value: (r) => r.contract.billingIntervalCount }],
  ["planGroupId", { label: "Plan group ID", kind: "id", value: (r) => r.contract.sellingPlanGroupGid }],
  ["sellingPlanId", { label: "Selling plan ID", kind: "id", value: (r) => r.line?.sellingPlanGid ?? r.contract.sellingPlanGid }],
  ["linePosition", { label: "Line position", kind: "number", value: (r) => r.line?.position ?? null }],
  ["variantId", { label: "Variant ID", kind: "id", value: (r) => r.line?.variantGid ?? null }],
  ["productId", { label: "Product ID", kind: "id", value: (r) => r.line?.productGid ?? null }],
  ["product", { label: "Product", kind: "text", value: (r) => r.line?.title ?? null }],
  ["variant", { label: "Variant", kind: "text", value: (r) => r.line?.variantTitle ?? null }],
  ["quantity", { label: "Quantity", kind: "number", value: (r) => r.line?.quantity ?? null }],
  ["linePrice", { label: "Line price", kind: "money", value: (r) => (r.line ? formatMinor(r.line.priceCents, r.contract.currencyCode) : null) }],
  ["order", { label: "Order", kind: "text", value: (r) => r.contract.orderName }],
  ["createdAt", { label: "Created at", kind: "date", value: (r) => r.contract.createdAt.toISOString() }],
  ["paymentMethodId", { label: "Payment method ID", kind: "id", value: () => null }],
  ["remoteGateway", { label: "Remote gateway", kind: "enum", value: () => null }],
  ["remoteCustomerId", { label: "Remote customer ID", kind: "text", value: () => null }],
  ["remotePaymentMethodId", { label: "Remote payment method ID", kind: "text", value: () => null }],
  ["importKey", { label: "Import key", kind: "text", value: () => null }],
];

export const MIGRATION_COLUMNS: readonly MigrationColumn[] = DEFINITIONS.map(([field, column]) => c(field, column));

/** The labels in order: the header row the exporter writes and the importer reads. */
export const MIGRATION_HEADER: readonly string[] = MIGRATION_COLUMNS.map((c) => c.label);
