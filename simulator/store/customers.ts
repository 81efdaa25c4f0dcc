// Customers, their access tokens, addresses and payment methods: seeded by the control API, and
// created or looked up by e-mail by the migration import (docs/decisions/085-migration-import.md).
import {
  newGid,
  randomToken,
  numericIdOf,
  type Address,
  type Customer,
  type MarketingState,
  type PaymentInstrument,
  type PaymentMethod,
  type ShopState,
  type SimState,
  type Outcome,
  type PaymentBehavior,
} from "../state";

import { ok, refuse } from "./outcome";

export interface CustomerInput {
  firstName?: string;
  lastName?: string;
  email?: string | null;
  phone?: string | null;
  /** E-mail marketing consent; Shopify's default for a new customer is NOT_SUBSCRIBED. */
  marketingState?: MarketingState;
  address?: Customer["address"];
  /** Default: a Visa ending 4242; null for a customer without a vaulted method. */
  paymentMethod?: (PaymentInstrument & { billing?: PaymentBehavior }) | null;
}

export function createCustomer(state: SimState, shop: ShopState, input: CustomerInput): Customer {
  const id = newGid(state, "Customer");
  const n = numericIdOf(id);
  const instrument: (PaymentInstrument & { billing?: PaymentBehavior }) | null =
    input.paymentMethod === undefined
      ? { kind: "credit_card", brand: "visa", last4: "4242", expiryMonth: 12, expiryYear: new Date().getUTCFullYear() + 3 }
      : input.paymentMethod;
  const customer: Customer = {
    id,
    firstName: input.firstName ?? "Customer",
    lastName: input.lastName ?? String(n),
    email: input.email === undefined ? `customer${n}@example.com` : input.email,
    phone: input.phone ?? null,
    address: input.address ?? { address1: "1 Main Street", city: "Ottawa", province: "ON", country: "CA", zip: "K1A 0A1" },
    paymentMethods: instrument ? [{ ...instrument, id: newGid(state, "CustomerPaymentMethod"), revokedAt: null }] : [],
    marketingState: input.marketingState ?? "NOT_SUBSCRIBED",
  };
  shop.customers[id] = customer;
  indexEmail(shop, customer);
  return customer;
}

export function mintCustomerAccessToken(shop: ShopState, customerId: string, now: Date, ttlSeconds = 3600): string | null {
  if (!shop.customers[customerId]) return null;
  const token = randomToken("shcat_");
  shop.customerAccessTokens[token] = { customerId, expiresAt: new Date(now.getTime() + ttlSeconds * 1000).toISOString() };
  return token;
}

export function findPaymentMethod(shop: ShopState, id: unknown) {
  for (const customer of Object.values(shop.customers)) {
    const method = customer.paymentMethods.find((m) => m.id === id);
    if (method) return { customer, method };
  }
  return undefined;
}

export function sendPaymentMethodUpdateEmail(state: SimState, shop: ShopState, paymentMethodId: unknown, now: Date): Outcome<Customer> {
  const found = findPaymentMethod(shop, paymentMethodId);
  if (!found) return refuse("Customer payment method does not exist", ["customerPaymentMethodId"], "PAYMENT_METHOD_DOES_NOT_EXIST");
  if (found.method.revokedAt) return refuse("Customer payment method is revoked", null, "PAYMENT_METHOD_REVOKED");
  if (!found.customer.email) return refuse("Customer has no e-mail address", null, "CUSTOMER_DOES_NOT_HAVE_EMAIL");
  shop.emails.push({
    id: newGid(state, "Email"),
    kind: "payment_method_update",
    to: found.customer.email,
    customerId: found.customer.id,
    paymentMethodId: found.method.id,
    sentAt: now.toISOString(),
  });
  return ok(found.customer);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Customers by lowercased e-mail, per shop object (a reset or a reload makes new ones): built on
 * first use, then kept by every function here that gives a customer an e-mail (indexEmail). A
 * lookup among thousands of customers is then one map read, not a scan.
 */
const EMAIL_INDEX = new WeakMap<ShopState, Map<string, string>>();

function emailIndex(shop: ShopState): Map<string, string> {
  let index = EMAIL_INDEX.get(shop);
  if (!index) {
    index = new Map();
    for (const c of Object.values(shop.customers)) if (c.email && !index.has(c.email.toLowerCase())) index.set(c.email.toLowerCase(), c.id);
    EMAIL_INDEX.set(shop, index);
  }
  return index;
}

export function indexEmail(shop: ShopState, customer: Customer, previous: string | null = null): void {
  // A changed e-mail (rare) drops the index, rebuilt at the next lookup: another customer may
  // share the old one (seeded shops may hold duplicates; the first one holds the entry).
  if (previous && previous.toLowerCase() !== customer.email?.toLowerCase()) return void EMAIL_INDEX.delete(shop);
  if (!customer.email) return;
  const index = emailIndex(shop);
  const key = customer.email.toLowerCase();
  const holder = index.has(key) ? shop.customers[index.get(key)!] : undefined;
  if (holder?.email?.toLowerCase() !== key) index.set(key, customer.id);
}

/**
 * The `customers(query:)` search, as far as the app uses it: `email:<address>` matches the whole
 * address, `first_name:` / `last_name:` a name, and a bare term any word of the name or the
 * e-mail address by its start (Shopify's default search is prefix-matched on words). Every term
 * must match. Newest customers last, as ids ascend.
 */
export function searchCustomers(shop: ShopState, query: string): Customer[] {
  const terms = (query.toLowerCase().match(/(?:[a-z_]+:)?"[^"]*"|\S+/g) ?? []).map((t) => t.replace(/"/g, ""));
  const words = (c: Customer) => [c.firstName, c.lastName, c.email ?? "", ...(c.email ?? "").split(/[@.+_-]/)].map((w) => w.toLowerCase()).filter(Boolean);
  const matches = (c: Customer, term: string) => {
    const [field, value] = term.includes(":") ? [term.slice(0, term.indexOf(":")), term.slice(term.indexOf(":") + 1)] : [null, term];
    if (field === "email") return (c.email ?? "").toLowerCase() === value;
    if (field === "first_name") return c.firstName.toLowerCase().startsWith(value);
    if (field === "last_name") return c.lastName.toLowerCase().startsWith(value);
    return words(c).some((w) => w.startsWith(value));
  };
  return Object.values(shop.customers)
    .filter((c) => terms.every((t) => matches(c, t)))
    .sort((a, b) => numericIdOf(a.id) - numericIdOf(b.id));
}

export const customerByEmail = (shop: ShopState, email: unknown): Customer | undefined => {
  if (typeof email !== "string") return undefined;
  const wanted = email.trim().toLowerCase();
  const id = emailIndex(shop).get(wanted);
  const found = id ? shop.customers[id] : undefined;
  return found?.email?.toLowerCase() === wanted ? found : undefined;
};

export interface CustomerCreateRaw {
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
}

/** customerCreate: e-mail and phone are unique per shop, as on Shopify. No payment method is vaulted. */
export function createCustomerViaApi(state: SimState, shop: ShopState, input: CustomerCreateRaw): Outcome<Customer> {
  const email = input.email?.trim() || null;
  const phone = input.phone?.trim() || null;
  if (!email && !phone && !input.firstName && !input.lastName) {
    return refuse("A name, phone number, or email address must be present", null, null);
  }
  if (email && !EMAIL.test(email)) return refuse("Email is invalid", ["email"], null);
  if (email && customerByEmail(shop, email)) return refuse("Email has already been taken", ["email"], null);
  if (phone && !/^\+?[0-9 ()-]{5,20}$/.test(phone)) return refuse("Phone is invalid", ["phone"], null);
  if (phone && Object.values(shop.customers).some((c) => c.phone === phone)) return refuse("Phone has already been taken", ["phone"], null);
  const id = newGid(state, "Customer");
  const customer: Customer = {
    id,
    firstName: input.firstName ?? "",
    lastName: input.lastName ?? "",
    email,
    phone,
    address: null,
    paymentMethods: [],
  };
  shop.customers[id] = customer;
  indexEmail(shop, customer);
  return ok(customer);
}

export interface CustomerSetRaw extends CustomerCreateRaw {
  addresses?: MailingAddressRaw[] | null;
}

/** customerSet's identifier (@oneOf: graphql-js has already refused zero or several). */
export interface CustomerSetIdentifierRaw {
  id?: string | null;
  email?: string | null;
  phone?: string | null;
}

/**
 * customerSet: the customer named by `identifier` updated (fields given replace theirs, the
 * addresses list replaces theirs), or created when there is no identifier or it matches nobody.
 * E-mail and phone stay unique in the shop (TAKEN); an identifier e-mail or phone that differs
 * from the input's is INPUT_MISMATCH. The simulator keeps one address, the first given.
 */
export function setCustomerViaApi(state: SimState, shop: ShopState, input: CustomerSetRaw, identifier: CustomerSetIdentifierRaw | null): Outcome<Customer> {
  const at = (f: string) => ["input", f];
  const email = input.email === undefined ? undefined : input.email?.trim() || null;
  const phone = input.phone === undefined ? undefined : input.phone?.trim() || null;
  if (identifier?.email && email && identifier.email.toLowerCase() !== email.toLowerCase()) {
    return refuse("The identifier value does not match the value of the corresponding field in the input", at("email"), "INPUT_MISMATCH");
  }
  if (identifier?.phone && phone && identifier.phone !== phone) {
    return refuse("The identifier value does not match the value of the corresponding field in the input", at("phone"), "INPUT_MISMATCH");
  }
  const existing = identifier?.id
    ? shop.customers[identifier.id]
    : identifier?.email
      ? customerByEmail(shop, identifier.email)
      : identifier?.phone
        ? Object.values(shop.customers).find((c) => c.phone === identifier.phone)
        : undefined;
  if (identifier?.id && !existing) return refuse("Customer does not exist", ["identifier", "id"], "NOT_FOUND");
  if (!existing && !email && !phone && !input.firstName && !input.lastName && !identifier?.email && !identifier?.phone) {
    return refuse("A name, phone number, or email address must be present", null, "BLANK");
  }
  if (email && !EMAIL.test(email)) return refuse("Email is invalid", at("email"), "INVALID");
  const holder = email ? customerByEmail(shop, email) : undefined;
  if (holder && holder !== existing) return refuse("Email has already been taken", at("email"), "TAKEN");
  if (phone && !/^\+?[0-9 ()-]{5,20}$/.test(phone)) return refuse("Phone is invalid", at("phone"), "INVALID");
  if (phone && Object.values(shop.customers).some((c) => c.phone === phone && c !== existing))
    return refuse("Phone has already been taken", at("phone"), "TAKEN");
  const addresses = input.addresses ?? undefined;
  if (addresses?.some((a) => !a.address1 && !a.city && !a.countryCode)) return refuse("Address is blank", at("addresses"), "BLANK");
  const customer: Customer = existing ?? {
    id: newGid(state, "Customer"),
    firstName: "",
    lastName: "",
    email: identifier?.email ?? null,
    phone: identifier?.phone ?? null,
    address: null,
    paymentMethods: [],
  };
  const previousEmail = customer.email;
  if (input.firstName !== undefined) customer.firstName = input.firstName ?? "";
  if (input.lastName !== undefined) customer.lastName = input.lastName ?? "";
  if (email !== undefined) customer.email = email;
  if (phone !== undefined) customer.phone = phone;
  if (addresses !== undefined) customer.address = addresses.length ? toAddress(addresses[0]) : null;
  shop.customers[customer.id] = customer;
  indexEmail(shop, customer, previousEmail);
  return ok(customer);
}

export interface MailingAddressRaw {
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  company?: string | null;
  countryCode?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
  provinceCode?: string | null;
  zip?: string | null;
}

/**
 * The simulator keeps codes where Shopify keeps both a name and a code (it has no table of
 * country and province names): province and country read back as the codes given.
 */
export const toAddress = (a: MailingAddressRaw): Address => ({
  address1: a.address1 ?? "",
  address2: a.address2 ?? null,
  city: a.city ?? "",
  company: a.company ?? null,
  country: a.countryCode ?? "",
  province: a.provinceCode ?? null,
  zip: a.zip ?? "",
  firstName: a.firstName ?? null,
  lastName: a.lastName ?? null,
  phone: a.phone ?? null,
});

/** customerAddressCreate: the simulator keeps one address per customer, the default one. */
export function addCustomerAddress(shop: ShopState, customerId: unknown, address: MailingAddressRaw): Outcome<{ customer: Customer; address: Address }> {
  const customer = typeof customerId === "string" ? shop.customers[customerId] : undefined;
  if (!customer) return refuse("Customer does not exist", ["customerId"], null);
  if (!address.address1 && !address.city && !address.countryCode) return refuse("Address is blank", ["address"], null);
  customer.address = toAddress(address);
  return ok({ customer, address: customer.address });
}

export interface RemoteReferenceRaw {
  stripePaymentMethod?: { customerId: string; paymentMethodId: string } | null;
  braintreePaymentMethod?: { customerId: string; paymentMethodToken: string } | null;
  authorizeNetCustomerPaymentProfile?: { customerProfileId: string; customerPaymentProfileId: string } | null;
}

/** customerPaymentMethodRemoteCreate: exactly one remote reference, for a customer of the shop. */
export function createRemotePaymentMethod(state: SimState, shop: ShopState, customerId: unknown, ref: RemoteReferenceRaw) {
  type R = Outcome<{ customer: Customer; method: PaymentMethod }>;
  const customer = typeof customerId === "string" ? shop.customers[customerId] : undefined;
  if (!customer) return refuse("Customer does not exist", ["customerId"], "INVALID") as R;
  const given = [ref.stripePaymentMethod, ref.braintreePaymentMethod, ref.authorizeNetCustomerPaymentProfile].filter(Boolean);
  if (given.length !== 1) return refuse("Exactly one remote reference is required", ["remoteReference"], "EXACTLY_ONE_REMOTE_REFERENCE_REQUIRED") as R;
  const instrument: PaymentInstrument = ref.stripePaymentMethod
    ? {
        kind: "remote",
        gateway: "stripe",
        remoteCustomerId: ref.stripePaymentMethod.customerId,
        remotePaymentMethodId: ref.stripePaymentMethod.paymentMethodId,
      }
    : ref.braintreePaymentMethod
      ? {
          kind: "remote",
          gateway: "braintree",
          remoteCustomerId: ref.braintreePaymentMethod.customerId,
          remotePaymentMethodId: ref.braintreePaymentMethod.paymentMethodToken,
        }
      : {
          kind: "remote",
          gateway: "authorize_net",
          remoteCustomerId: ref.authorizeNetCustomerPaymentProfile!.customerProfileId,
          remotePaymentMethodId: ref.authorizeNetCustomerPaymentProfile!.customerPaymentProfileId,
        };
  if (!instrument.remoteCustomerId || !instrument.remotePaymentMethodId) {
    return refuse("Remote reference is blank", ["remoteReference"], "INVALID") as R;
  }
  const method: PaymentMethod = { ...instrument, id: newGid(state, "CustomerPaymentMethod"), revokedAt: null };
  customer.paymentMethods.push(method);
  return ok({ customer, method }) as R;
}
