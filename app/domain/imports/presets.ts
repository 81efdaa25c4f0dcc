// Column mapping for another app's export (docs/decisions/151-import-presets.md): a CSV from
// Recharge, Skio, Loop or Appstle (or any CSV) is read with a mapping, source column → migration
// field, and rewritten as this app's own migration CSV, which the importer then checks and runs
// unchanged (docs/decisions/085-migration-import.md). Values are normalised on the way: numeric
// Shopify ids become gids, "month"/"monthly" becomes MONTH, "cancelled"/"canceled" CANCELLED,
// "$22.00" 22.00, dates without a zone are UTC. Pure: no database, no platform.
import { MIGRATION_COLUMNS, type MigrationField } from "../exports/migration-columns";
import { parseCsvRecords, REQUIRED_FIELDS } from "./file";

export type PresetId = "native" | "recharge" | "skio" | "loop" | "appstle";
export type ColumnMapping = Partial<Record<MigrationField, string>>;

export interface ImportPreset {
  id: PresetId;
  name: string;
  /** Candidate source headers per field, compared without case, spaces or punctuation; the first present wins. */
  columns: Partial<Record<MigrationField, string[]>>;
}

const own = Object.fromEntries(MIGRATION_COLUMNS.map((c) => [c.field, [c.label]])) as ImportPreset["columns"];

// Which of these names each app documents, and which are inferred, is said in decision 151. The
// other app's own subscription id becomes the import key (a second import of the same file
// creates nothing twice), never a contract id of this shop.
export const PRESETS: readonly ImportPreset[] = [
  { id: "native", name: "This app's migration export", columns: own },
  {
    id: "recharge",
    name: "Recharge",
    columns: {
      importKey: ["subscription_id", "purchase_item_id", "id"],
      status: ["status", "subscription_status"],
      email: ["customer_email", "email"],
      firstName: ["customer_first_name", "first_name"],
      lastName: ["customer_last_name", "last_name"],
      phone: ["customer_phone", "phone"],
      shipFirstName: ["shipping_first_name", "address_first_name"],
      shipLastName: ["shipping_last_name", "address_last_name"],
      shipCompany: ["company", "shipping_company"],
      shipAddress1: ["address_1", "address1", "shipping_address_1"],
      shipAddress2: ["address_2", "address2", "shipping_address_2"],
      shipCity: ["city", "shipping_city"],
      shipProvince: ["state", "province", "shipping_province"],
      shipZip: ["zip", "shipping_zip"],
      shipCountry: ["country", "shipping_country"],
      shipCountryCode: ["country_code", "shipping_country_code"],
      shipPhone: ["address_phone", "shipping_phone"],
      currency: ["presentment_currency", "currency"],
      nextBillingAt: ["next_charge_scheduled_at", "next_charge_date"],
      billingInterval: ["order_interval_unit", "charge_interval_unit"],
      billingIntervalCount: ["charge_interval_frequency", "order_interval_frequency"],
      variantId: ["shopify_variant_id", "external_variant_id", "external_variant_id_ecommerce"],
      productId: ["shopify_product_id", "external_product_id", "external_product_id_ecommerce"],
      product: ["product_title", "title"],
      variant: ["variant_title"],
      quantity: ["quantity"],
      linePrice: ["price", "recurring_price"],
      createdAt: ["created_at", "subscription_created_at"],
    },
  },
  {
    id: "skio",
    name: "Skio",
    columns: {
      importKey: ["subscription_id", "subscription id", "id"],
      status: ["status", "subscription status"],
      email: ["customer_email", "email", "customer email"],
      firstName: ["first_name", "customer first name"],
      lastName: ["last_name", "customer last name"],
      phone: ["phone", "customer phone"],
      shipAddress1: ["shipping_address1", "address1", "shipping address 1"],
      shipAddress2: ["shipping_address2", "address2", "shipping address 2"],
      shipCity: ["shipping_city", "city"],
      shipProvince: ["shipping_province", "province"],
      shipProvinceCode: ["shipping_province_code", "province_code"],
      shipZip: ["shipping_zip", "zip"],
      shipCountry: ["shipping_country", "country"],
      shipCountryCode: ["shipping_country_code", "country_code"],
      currency: ["currency_code", "currency"],
      nextBillingAt: ["next_billing_date", "next_order_date", "next billing date"],
      billingInterval: ["billing_interval", "interval"],
      billingIntervalCount: ["billing_interval_count", "interval_count"],
      variantId: ["variant_id", "shopify_variant_id", "product_variant_id"],
      productId: ["product_id", "shopify_product_id"],
      product: ["product_title", "product"],
      variant: ["variant_title", "variant"],
      quantity: ["quantity"],
      linePrice: ["price", "line_price"],
      createdAt: ["created_at"],
    },
  },
  {
    id: "loop",
    name: "Loop",
    columns: {
      importKey: ["subscription_id", "shopify_contract_id", "contract_id", "id"],
      status: ["status"],
      email: ["customer_email", "email"],
      firstName: ["customer_first_name", "first_name"],
      lastName: ["customer_last_name", "last_name"],
      phone: ["customer_phone", "phone"],
      shipAddress1: ["shipping_address_1", "address1", "address_line_1"],
      shipAddress2: ["shipping_address_2", "address2", "address_line_2"],
      shipCity: ["shipping_city", "city"],
      shipProvince: ["shipping_province", "province", "state"],
      shipProvinceCode: ["shipping_province_code", "province_code"],
      shipZip: ["shipping_zip", "zip", "postal_code"],
      shipCountry: ["shipping_country", "country"],
      shipCountryCode: ["shipping_country_code", "country_code"],
      currency: ["currency_code", "currency"],
      nextBillingAt: ["next_billing_date", "next_order_date"],
      billingInterval: ["billing_interval", "billing_policy_interval", "interval"],
      billingIntervalCount: ["billing_interval_count", "billing_policy_interval_count", "interval_count"],
      variantId: ["variant_id", "shopify_variant_id"],
      productId: ["product_id", "shopify_product_id"],
      product: ["product_title"],
      variant: ["variant_title"],
      quantity: ["quantity"],
      linePrice: ["price", "current_price", "line_price"],
      createdAt: ["created_at"],
    },
  },
  {
    id: "appstle",
    name: "Appstle",
    columns: {
      importKey: ["subscriptionContractId", "graphSubscriptionContractId", "contract id", "contract_id"],
      status: ["status"],
      email: ["customerEmail", "customer email", "email"],
      firstName: ["customerFirstName", "first name"],
      lastName: ["customerLastName", "last name"],
      phone: ["phone", "customerPhone"],
      shipFirstName: ["deliveryFirstName", "shipping first name"],
      shipLastName: ["deliveryLastName", "shipping last name"],
      shipAddress1: ["deliveryAddress1", "address1", "shipping address 1"],
      shipAddress2: ["deliveryAddress2", "address2", "shipping address 2"],
      shipCity: ["deliveryCity", "city"],
      shipProvince: ["deliveryProvince", "province"],
      shipProvinceCode: ["deliveryProvinceCode", "provinceCode"],
      shipZip: ["deliveryZip", "zip"],
      shipCountry: ["deliveryCountry", "country"],
      shipCountryCode: ["deliveryCountryCode", "countryCode"],
      currency: ["currencyCode", "currency"],
      nextBillingAt: ["nextBillingDate", "next billing date"],
      billingInterval: ["billingPolicyInterval", "billing interval"],
      billingIntervalCount: ["billingPolicyIntervalCount", "billing interval count"],
      variantId: ["variantId", "variant id"],
      productId: ["productId", "product id"],
      product: ["productTitle", "product title"],
      variant: ["variantTitle", "variant title"],
      quantity: ["quantity"],
      linePrice: ["currentPrice", "price"],
      sellingPlanId: ["sellingPlanId"],
      order: ["orderName"],
      createdAt: ["createdAt", "created at"],
    },
  },
];

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

/** The header row of a CSV (the first record), trimmed. */
export function csvHeader(text: string): string[] {
  return (parseCsvRecords(text.slice(0, 64 * 1024).split(/\r?\n/)[0] ?? "")[0] ?? []).map((h) => h.trim());
}

/** The preset's mapping for these headers: each field to the first of its candidates the file has. */
export function presetMapping(presetId: PresetId, header: string[]): ColumnMapping {
  const preset = PRESETS.find((p) => p.id === presetId) ?? PRESETS[0];
  const byNorm = new Map(header.map((h) => [norm(h), h]));
  const mapping: ColumnMapping = {};
  for (const [field, candidates] of Object.entries(preset.columns) as [MigrationField, string[]][]) {
    const hit = candidates.map((c) => byNorm.get(norm(c))).find(Boolean);
    if (hit) mapping[field] = hit;
  }
  return mapping;
}

/** Which preset fits these headers best: this app's own format when every required label is there. */
export function detectPreset(header: string[]): PresetId {
  const scored = PRESETS.map((p) => {
    const m = presetMapping(p.id, header);
    return { id: p.id, required: REQUIRED_FIELDS.filter((f) => m[f]).length, all: Object.keys(m).length };
  });
  if (scored[0].required === REQUIRED_FIELDS.length) return "native";
  scored.sort((a, b) => b.required - a.required || b.all - a.all);
  return scored[0].id;
}

const GID_TYPES: Partial<Record<MigrationField, string>> = {
  contractId: "SubscriptionContract",
  customerId: "Customer",
  variantId: "ProductVariant",
  productId: "Product",
  sellingPlanId: "SellingPlan",
  planGroupId: "SellingPlanGroup",
  paymentMethodId: "CustomerPaymentMethod",
};
const STATUS: Record<string, string> = {
  active: "ACTIVE",
  paused: "PAUSED",
  cancelled: "CANCELLED",
  canceled: "CANCELLED",
  expired: "EXPIRED",
  failed: "FAILED",
};
const UNITS: Record<string, string> = {
  day: "DAY",
  days: "DAY",
  daily: "DAY",
  week: "WEEK",
  weeks: "WEEK",
  weekly: "WEEK",
  month: "MONTH",
  months: "MONTH",
  monthly: "MONTH",
  year: "YEAR",
  years: "YEAR",
  yearly: "YEAR",
  annual: "YEAR",
  annually: "YEAR",
};
const COUNTRIES: Record<string, string> = {
  "united states": "US",
  usa: "US",
  "united states of america": "US",
  canada: "CA",
  "united kingdom": "GB",
  uk: "GB",
  australia: "AU",
  "new zealand": "NZ",
  ireland: "IE",
  germany: "DE",
  france: "FR",
  netherlands: "NL",
  spain: "ES",
  italy: "IT",
};

/** One cell as the migration format wants it; unknown shapes pass through for the importer to name. */
function normalise(field: MigrationField, raw: string): string {
  const v = raw.trim();
  if (!v) return "";
  const gidType = GID_TYPES[field];
  if (gidType && /^\d+$/.test(v)) return `gid://shopify/${gidType}/${v}`;
  switch (field) {
    case "status":
      return STATUS[v.toLowerCase()] ?? v.toUpperCase();
    case "billingInterval": {
      const unit = /^(?:every\s+)?(?:\d+\s*)?([a-z]+)$/i.exec(v)?.[1]?.toLowerCase() ?? "";
      return UNITS[unit] ?? v.toUpperCase();
    }
    case "currency":
      return v.toUpperCase();
    case "linePrice":
      return v.replace(/^[^\d]+/, "").replace(/,(?=\d{3}\b)/g, "");
    case "nextBillingAt":
    case "createdAt": {
      const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?(Z|[+-]\d{2}:?\d{2})?$/.exec(v);
      if (!m) return v;
      const d = new Date(`${m[1]}T${m[2] ?? "00:00:00"}${m[3] ?? "Z"}`);
      return Number.isNaN(d.getTime()) ? v : d.toISOString();
    }
    case "shipCountryCode":
      return /^[a-z]{2}$/i.test(v) ? v.toUpperCase() : (COUNTRIES[v.toLowerCase()] ?? v);
    default:
      return v;
  }
}

const csvCell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

export interface MappedFile {
  text: string;
  rows: number;
}

/**
 * Rewrites a CSV in another app's layout as this app's migration CSV. A field the mapping leaves
 * out stays empty, except: an interval given as "2 weeks" also fills the count; a country name
 * fills the country code; `defaults.currency` fills an unmapped currency.
 */
export function applyMapping(text: string, mapping: ColumnMapping, defaults: { currency?: string } = {}): MappedFile {
  const records = parseCsvRecords(text);
  const header = (records[0] ?? []).map((h) => h.trim());
  const index = new Map(header.map((h, i) => [h, i]));
  const fields = MIGRATION_COLUMNS.map((c) => c.field);
  const out = [MIGRATION_COLUMNS.map((c) => csvCell(c.label)).join(",")];
  for (const record of records.slice(1)) {
    const cells: Partial<Record<MigrationField, string>> = {};
    for (const f of fields) {
      const source = mapping[f];
      const i = source === undefined ? undefined : index.get(source);
      if (i !== undefined) cells[f] = normalise(f, record[i] ?? "");
    }
    const intervalSource = mapping.billingInterval !== undefined ? index.get(mapping.billingInterval) : undefined;
    const count = intervalSource !== undefined ? /^(?:every\s+)?(\d+)\s*[a-z]+$/i.exec((record[intervalSource] ?? "").trim())?.[1] : undefined;
    if (!cells.billingIntervalCount && count) cells.billingIntervalCount = count;
    if (!cells.shipCountryCode && cells.shipCountry) {
      const code = normalise("shipCountryCode", cells.shipCountry);
      if (/^[A-Z]{2}$/.test(code)) cells.shipCountryCode = code;
    }
    if (!cells.shipProvinceCode && /^[A-Za-z]{2}$/.test(cells.shipProvince ?? "")) cells.shipProvinceCode = cells.shipProvince!.toUpperCase();
    if (!cells.currency && defaults.currency) cells.currency = defaults.currency.trim().toUpperCase();
    out.push(fields.map((f) => csvCell(cells[f] ?? "")).join(","));
  }
  return { text: `${out.join("\n")}\n`, rows: records.length - 1 };
}
