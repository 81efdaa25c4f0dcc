// From file rows to the contracts an import would create, every problem named with its row and
// column. Pure (no database, no platform): the dry run and the worker plan the same way, so a
// dry run's report is what the import then does. docs/decisions/085-migration-import.md.
import { createHash } from "node:crypto";
import { formatMinor, minorUnitExponent, parseDecimalToMinor } from "../shared/money.server";
import { MIGRATION_COLUMNS, type MigrationField } from "../exports/migration-columns";
import type { BillingInterval, NewContract, PlatformAddress, RemotePaymentReference } from "../../platform/port";
import type { FileRow } from "./file";

export interface RowError {
  row: number;
  /** The column's label as in the file header (null: the row as a whole). */
  column: string | null;
  message: string;
}

export type PaymentChoice = { kind: "none" } | { kind: "existing"; id: string } | { kind: "remote"; reference: RemotePaymentReference };

export interface PlannedContract {
  key: string;
  rows: number[];
  email: string;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  address: PlatformAddress | null;
  payment: PaymentChoice;
  contract: Omit<NewContract, "customerId" | "paymentMethodId" | "attributes">;
  /** Problems of this contract's rows; a contract with any is not created. */
  errors: RowError[];
}

export const labelOf = (field: MigrationField): string => MIGRATION_COLUMNS.find((c) => c.field === field)!.label;

const STATUSES = ["ACTIVE", "PAUSED", "CANCELLED", "EXPIRED", "FAILED"] as const;
const INTERVALS = ["DAY", "WEEK", "MONTH", "YEAR"] as const;
const GATEWAYS = ["stripe", "braintree", "authorize_net"] as const;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const gidOf = (type: string) => new RegExp(`^gid://shopify/${type}/\\d+$`);

/** Columns that describe the contract (or its customer) and so must agree on every row of it. */
const CONTRACT_FIELDS: MigrationField[] = [
  "status",
  "email",
  "firstName",
  "lastName",
  "phone",
  "shipFirstName",
  "shipLastName",
  "shipCompany",
  "shipAddress1",
  "shipAddress2",
  "shipCity",
  "shipProvinceCode",
  "shipZip",
  "shipCountryCode",
  "shipPhone",
  "currency",
  "nextBillingAt",
  "billingInterval",
  "billingIntervalCount",
  "paymentMethodId",
  "remoteGateway",
  "remoteCustomerId",
  "remotePaymentMethodId",
];

/**
 * The stable import key of a row: its "Import key", else the source "Contract ID" (the same file
 * gives the same keys, so a second import creates nothing twice), else a digest of the row.
 */
export function importKeyOf(row: FileRow): string {
  if (row.cells.importKey) return `key:${row.cells.importKey}`;
  if (row.cells.contractId) return row.cells.contractId;
  const cells = Object.entries(row.cells).sort(([a], [b]) => a.localeCompare(b));
  return `row:${createHash("sha256").update(JSON.stringify(cells)).digest("hex").slice(0, 32)}`;
}

/** Groups rows into contracts (rows sharing a key, in file order) and checks every cell. */
export function planContracts(rows: FileRow[]): PlannedContract[] {
  const groups = new Map<string, FileRow[]>();
  for (const row of rows) {
    const key = importKeyOf(row);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.entries()].map(([key, group]) => planOne(key, group));
}

function planOne(key: string, group: FileRow[]): PlannedContract {
  const errors: RowError[] = [];
  const first = group[0];
  const c = first.cells;
  const err = (row: number, field: MigrationField | null, message: string) => errors.push({ row, column: field ? labelOf(field) : null, message });

  for (const row of group.slice(1)) {
    for (const f of CONTRACT_FIELDS) {
      if ((row.cells[f] ?? "") !== (c[f] ?? "")) err(row.row, f, `Differs from row ${first.row} of the same contract`);
    }
  }

  const email = c.email?.trim() ?? "";
  if (!email) err(first.row, "email", "An e-mail address is required (the customer is found by it, or created with it)");
  else if (!EMAIL.test(email)) err(first.row, "email", `"${email}" is not an e-mail address`);

  const status = (c.status ?? "").toUpperCase();
  if (!(STATUSES as readonly string[]).includes(status)) err(first.row, "status", `Status must be one of ${STATUSES.join(", ")}`);

  const currency = (c.currency ?? "").toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) err(first.row, "currency", "Currency must be an ISO 4217 code such as USD");

  const next = c.nextBillingAt ? new Date(c.nextBillingAt) : null;
  if (!next || Number.isNaN(next.getTime())) err(first.row, "nextBillingAt", "Next billing at must be an ISO 8601 date");

  const interval = (c.billingInterval ?? "").toUpperCase();
  if (!(INTERVALS as readonly string[]).includes(interval)) err(first.row, "billingInterval", `Billing interval must be one of ${INTERVALS.join(", ")}`);
  const intervalCount = Number(c.billingIntervalCount);
  if (!Number.isInteger(intervalCount) || intervalCount < 1)
    err(first.row, "billingIntervalCount", "Billing interval count must be a whole number of at least 1");

  if (!c.shipAddress1) err(first.row, "shipAddress1", "A shipping address is required (subscriptions ship)");
  if (c.shipAddress1 && !/^[A-Z]{2}$/.test(c.shipCountryCode ?? ""))
    err(first.row, "shipCountryCode", "Shipping country code must be a two-letter ISO 3166 code");

  let payment: PaymentChoice = { kind: "none" };
  if (c.paymentMethodId && c.remoteGateway) err(first.row, "paymentMethodId", "Give a payment method ID or a remote reference, not both");
  else if (c.paymentMethodId) {
    if (!gidOf("CustomerPaymentMethod").test(c.paymentMethodId))
      err(first.row, "paymentMethodId", "Payment method ID must be gid://shopify/CustomerPaymentMethod/…");
    else payment = { kind: "existing", id: c.paymentMethodId };
  } else if (c.remoteGateway || c.remoteCustomerId || c.remotePaymentMethodId) {
    const gateway = (c.remoteGateway ?? "").toLowerCase();
    if (!(GATEWAYS as readonly string[]).includes(gateway)) err(first.row, "remoteGateway", `Remote gateway must be one of ${GATEWAYS.join(", ")}`);
    else if (!c.remoteCustomerId) err(first.row, "remoteCustomerId", "The processor's customer id is required with a remote gateway");
    else if (!c.remotePaymentMethodId) err(first.row, "remotePaymentMethodId", "The processor's payment method id is required with a remote gateway");
    else
      payment = {
        kind: "remote",
        reference: { gateway: gateway as RemotePaymentReference["gateway"], customerId: c.remoteCustomerId, paymentMethodId: c.remotePaymentMethodId },
      };
  }

  const lines: NewContract["lines"] = [];
  for (const row of group) {
    const l = row.cells;
    if (!l.variantId) err(row.row, "variantId", "Variant ID is required");
    else if (!gidOf("ProductVariant").test(l.variantId)) err(row.row, "variantId", "Variant ID must be gid://shopify/ProductVariant/…");
    if (l.sellingPlanId && !gidOf("SellingPlan").test(l.sellingPlanId)) err(row.row, "sellingPlanId", "Selling plan ID must be gid://shopify/SellingPlan/…");
    const quantity = Number(l.quantity);
    if (!Number.isInteger(quantity) || quantity < 1) err(row.row, "quantity", "Quantity must be a whole number of at least 1");
    let priceAmount: string | null = null;
    if (/^[A-Z]{3}$/.test(currency)) {
      const m = /^\d+(?:\.(\d+))?$/.exec((l.linePrice ?? "").trim());
      if (!m) err(row.row, "linePrice", "Line price must be a decimal amount such as 12.50");
      else if ((m[1]?.length ?? 0) > minorUnitExponent(currency))
        err(row.row, "linePrice", `${currency} has ${minorUnitExponent(currency)} decimals; "${l.linePrice}" has more`);
      else priceAmount = formatMinor(parseDecimalToMinor(l.linePrice!, currency), currency);
    }
    if (l.variantId && priceAmount !== null && Number.isInteger(quantity) && quantity >= 1) {
      lines.push({ variantId: l.variantId, quantity, priceAmount, sellingPlanId: l.sellingPlanId ?? null });
    }
  }

  const address: PlatformAddress | null = c.shipAddress1
    ? {
        firstName: c.shipFirstName ?? null,
        lastName: c.shipLastName ?? null,
        company: c.shipCompany ?? null,
        address1: c.shipAddress1,
        address2: c.shipAddress2 ?? null,
        city: c.shipCity ?? null,
        province: c.shipProvince ?? null,
        provinceCode: c.shipProvinceCode ?? null,
        zip: c.shipZip ?? null,
        country: c.shipCountry ?? null,
        countryCode: c.shipCountryCode ?? null,
        phone: c.shipPhone ?? null,
      }
    : null;

  return {
    key,
    rows: group.map((r) => r.row),
    email,
    firstName: c.firstName ?? null,
    lastName: c.lastName ?? null,
    phone: c.phone ?? null,
    address,
    payment,
    contract: {
      currencyCode: currency,
      status: status as NewContract["status"],
      nextBillingDate: next && !Number.isNaN(next.getTime()) ? next.toISOString() : "",
      interval: interval as BillingInterval,
      intervalCount,
      shippingAddress: address,
      lines,
    },
    errors,
  };
}

/** The file column a platform userError's field path points at (null when it names none we know). */
export function columnForPlatformField(field: string[] | undefined): string | null {
  const last = field?.[field.length - 1];
  const map: Record<string, MigrationField> = {
    productVariantId: "variantId",
    quantity: "quantity",
    currentPrice: "linePrice",
    sellingPlanId: "sellingPlanId",
    email: "email",
    phone: "phone",
    paymentMethodId: "paymentMethodId",
    remoteReference: "remoteGateway",
    nextBillingDate: "nextBillingAt",
    currencyCode: "currency",
    deliveryMethod: "shipAddress1",
    address: "shipAddress1",
    intervalCount: "billingIntervalCount",
  };
  return last && map[last] ? labelOf(map[last]) : null;
}
