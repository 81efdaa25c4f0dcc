// The template variables of a contract's message, from the mirror's columns (catalogue.ts lists
// them per kind). Dates are written in English in UTC, the day the platform bills on.
import { money } from "../shared/money.server";

export interface ContractFacts {
  contractGid: string;
  productTitle: string | null;
  nextBillingAt: Date | null;
  chargeAmountCents: number | null;
  currencyCode: string;
}

export const longDate = (d: Date | null) => (d ? new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(d) : "");

export function contractVars(shopDomain: string, c: ContractFacts): Record<string, string> {
  const m = money(c.chargeAmountCents, c.currencyCode);
  return {
    shop_name: shopDomain.replace(/\.myshopify\.com$/, ""),
    contract_number: c.contractGid.split("/").pop() ?? c.contractGid,
    product_title: c.productTitle ?? "your subscription",
    next_billing_date: longDate(c.nextBillingAt),
    amount: m ? `${m.amount} ${m.currency_code}` : "",
    manage_url: `https://${shopDomain}/account`,
  };
}
