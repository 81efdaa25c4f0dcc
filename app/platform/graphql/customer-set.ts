// customerSet without an identifier: creates customers (e-mail, name, phone and their address)
// in one mutation each, several to a request (docs/decisions/087-import-throughput.md). It replaces
// customerCreate + customerAddressCreate (CustomerInput.addresses is deprecated; customerSet's
// CustomerSetInput.addresses is not). E-mail and phone must be unique in the shop: a taken one is
// refused with code TAKEN. Each customer is its own aliased root field (c0, c1, ...), refused or
// created on its own; the document for n customers is the first n fields of the largest one,
// which is the exported constant the schema test validates.
import { fromUserErrors, PlatformError } from "../errors";
import type { NewCustomer, PlatformAddress } from "../port";
import type { GqlUserError } from "./contract-fields";

/** Customers per request (each customerSet costs Shopify ten query points). */
export const CUSTOMER_SET_MAX = 25;

export function customerSetDocument(n: number): string {
  const count = Math.max(1, Math.min(n, CUSTOMER_SET_MAX));
  const vars = Array.from({ length: count }, (_, i) => `$i${i}: CustomerSetInput!`).join(", ");
  const fields = Array.from({ length: count }, (_, i) => `c${i}: customerSet(input: $i${i}) { customer { id } userErrors { field message code } }`).join(
    "\n    ",
  );
  return `mutation CustomerSet(${vars}) {\n    ${fields}\n  }`;
}

export const CUSTOMER_SET = customerSetDocument(CUSTOMER_SET_MAX);

export type CustomerSetResult = Record<string, { customer: { id: string } | null; userErrors: GqlUserError[] } | null>;

/** MailingAddressInput from an address: codes only (province and country names are deprecated inputs). */
export function mailingAddressInput(a: PlatformAddress) {
  return {
    firstName: a.firstName,
    lastName: a.lastName,
    company: a.company,
    address1: a.address1,
    address2: a.address2,
    city: a.city,
    provinceCode: a.provinceCode,
    zip: a.zip,
    countryCode: a.countryCode,
    phone: a.phone,
  };
}

export function customerSetVariables(customers: NewCustomer[]) {
  return Object.fromEntries(
    customers.map((c, i) => [
      `i${i}`,
      { email: c.email, firstName: c.firstName, lastName: c.lastName, phone: c.phone, addresses: c.address ? [mailingAddressInput(c.address)] : [] },
    ]),
  );
}

export type CustomerCreated = { id: string } | { error: PlatformError };

/** Each customer's id, or the platform's refusal of it (userErrors mapped as everywhere). */
export function mapCustomerSet(r: CustomerSetResult, count: number): CustomerCreated[] {
  return Array.from({ length: count }, (_, i) => {
    const payload = r[`c${i}`];
    if (payload?.userErrors.length) return { error: fromUserErrors(payload.userErrors) };
    if (!payload?.customer) return { error: new PlatformError("unavailable", "customerSet returned no customer") };
    return { id: payload.customer.id };
  });
}
