// A `migration` file as the importer reads it (UTF-8 with a BOM, CRLF, every field quoted, inner
// quotes doubled), from rows keyed by the column labels; a label a row leaves out is empty.
import { MIGRATION_HEADER } from "../../app/domain/exports/migration-columns";

export function migrationCsv(rows: readonly Record<string, string>[]): string {
  const line = (cells: readonly string[]) => cells.map((c) => `"${c.replace(/"/g, '""')}"`).join(",") + "\r\n";
  return "\uFEFF" + line(MIGRATION_HEADER) + rows.map((r) => line(MIGRATION_HEADER.map((h) => r[h] ?? ""))).join("");
}

/** Row `n` of a file of one-line monthly subscriptions to `variantId` in Toronto (one per customer). */
export function migrationRow(n: number, line: { variantId: string; quantity?: string }): Record<string, string> {
  return {
    "Contract ID": `gid://shopify/SubscriptionContract/${900 + n}`,
    Status: "ACTIVE",
    Email: `buyer${n}@example.com`,
    "First name": "Ada",
    "Last name": `Buyer${n}`,
    "Shipping address 1": `${n} Harbor Street`,
    "Shipping city": "Toronto",
    "Shipping province code": "ON",
    "Shipping zip": "M5V 2T6",
    "Shipping country code": "CA",
    Currency: "USD",
    "Next billing at": "2031-01-01T12:00:00.000Z",
    "Billing interval": "MONTH",
    "Billing interval count": "1",
    "Line position": "1",
    "Variant ID": line.variantId,
    Quantity: line.quantity ?? "1",
    "Line price": "27.00",
  };
}
