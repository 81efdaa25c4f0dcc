// The contract selection shared by every operation that reads a contract, and its mapper.
import { assertNoUserErrors, PlatformError } from "../errors";
import type { BillingInterval, ContractStatus, PlatformAddress, PlatformContract, PlatformLine } from "../port";

export const LINE_FIELDS = /* GraphQL */ `
  id
  productId
  variantId
  title
  variantTitle
  quantity
  currentPrice { amount currencyCode }
  sellingPlanId
  sellingPlanName
  customAttributes { key value }
`;

/** A contract's own fields, without its lines (the bulk read nests the lines its own way). */
export const CONTRACT_OWN_FIELDS = /* GraphQL */ `
  id
  status
  nextBillingDate
  createdAt
  updatedAt
  revisionId
  currencyCode
  customer { id }
  originOrder { id name }
  billingPolicy { interval intervalCount anchors { day month type } }
  customAttributes { key value }
  customerPaymentMethod {
    id
    instrument {
      __typename
      ... on CustomerCreditCard { expiryMonth expiryYear }
      ... on CustomerShopPayAgreement { expiryMonth expiryYear }
    }
  }
`;

export const CONTRACT_FIELDS = /* GraphQL */ `
  ${CONTRACT_OWN_FIELDS}
  lines(first: 50) { nodes { ${LINE_FIELDS} } }
`;

/** A MailingAddress as every read of an address selects it (a contract's delivery address, a customer's default). */
export const ADDRESS_FIELDS = /* GraphQL */ `
  firstName
  lastName
  company
  address1
  address2
  city
  province
  provinceCode
  zip
  country
  countryCodeV2
  phone
`;

/** A contract's shipping address, when it ships (deliveryMethod is a union: local delivery and pickup carry none here). */
export const DELIVERY_METHOD_FIELDS = /* GraphQL */ `
  deliveryMethod {
    __typename
    ... on SubscriptionDeliveryMethodShipping {
      address { ${ADDRESS_FIELDS} }
    }
  }
`;

export interface GqlAddress {
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  provinceCode: string | null;
  zip: string | null;
  country: string | null;
  countryCodeV2: string | null;
  phone: string | null;
}

export type GqlDeliveryMethod = { __typename: string; address?: GqlAddress | null } | null;

/** The one mapping of Shopify's MailingAddress: countryCodeV2 is the ISO code the app calls countryCode. */
export function mapAddress({ countryCodeV2, ...a }: GqlAddress): PlatformAddress {
  return { ...a, countryCode: countryCodeV2 };
}

export const mapDeliveryAddress = (m: GqlDeliveryMethod | undefined): PlatformAddress | null => (m?.address ? mapAddress(m.address) : null);

export interface GqlLine {
  id: string;
  productId: string | null;
  variantId: string | null;
  title: string;
  variantTitle: string | null;
  quantity: number;
  currentPrice: { amount: string; currencyCode: string };
  sellingPlanId: string | null;
  sellingPlanName: string | null;
  customAttributes?: { key: string; value: string | null }[];
}

export interface GqlContract {
  id: string;
  status: ContractStatus;
  nextBillingDate: string | null;
  createdAt: string;
  updatedAt: string;
  revisionId: string | number;
  currencyCode: string;
  customer: { id: string } | null;
  originOrder: { id: string; name: string } | null;
  billingPolicy: { interval: BillingInterval; intervalCount: number; anchors: { day: number; month: number | null; type: string }[] };
  customAttributes?: { key: string; value: string | null }[];
  /** Null when the contract has no vaulted method, or it was revoked (Shopify hides those). */
  customerPaymentMethod?: { id: string; instrument: { __typename: string; expiryMonth?: number; expiryYear?: number } | null } | null;
  lines: { nodes: GqlLine[] };
}

export interface GqlUserError {
  field: string[] | null;
  message: string;
  code?: string | null;
}

export function mapLine(line: GqlLine): PlatformLine {
  return {
    id: line.id,
    productId: line.productId,
    variantId: line.variantId,
    title: line.title,
    variantTitle: line.variantTitle,
    quantity: line.quantity,
    priceAmount: String(line.currentPrice.amount),
    sellingPlanId: line.sellingPlanId,
    sellingPlanName: line.sellingPlanName,
    customAttributes: (line.customAttributes ?? []).map((a) => ({ key: a.key, value: a.value ?? "" })),
  };
}

export function mapContract(c: GqlContract): PlatformContract {
  return {
    id: c.id,
    status: c.status,
    nextBillingDate: c.nextBillingDate,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    revisionId: String(c.revisionId),
    currencyCode: c.currencyCode,
    customerId: c.customer?.id ?? null,
    originOrderName: c.originOrder?.name ?? null,
    billingPolicy: {
      interval: c.billingPolicy.interval,
      intervalCount: c.billingPolicy.intervalCount,
      anchors: c.billingPolicy.anchors.map((a) => ({ day: a.day, month: a.month ?? null, type: a.type })),
    },
    lines: c.lines.nodes.map(mapLine),
    attributes: Object.fromEntries((c.customAttributes ?? []).map((a) => [a.key, a.value ?? ""])),
    cardExpiry: cardExpiryOf(c.customerPaymentMethod),
  };
}

/** The month a card or Shop Pay agreement expires; null for PayPal, a remote reference, or none. */
function cardExpiryOf(method: GqlContract["customerPaymentMethod"]): PlatformContract["cardExpiry"] {
  const i = method?.instrument;
  return i && typeof i.expiryMonth === "number" && typeof i.expiryYear === "number" ? { month: i.expiryMonth, year: i.expiryYear } : null;
}

/** The selection of every status change (pause, activate, cancel): the payload StatusChangePayload types. */
export const STATUS_CHANGE_FIELDS = /* GraphQL */ `
  contract { id status }
  userErrors { field message code }
`;

/** What each contract status mutation (pause, activate, cancel) returns. */
export interface StatusChangePayload {
  contract: { id: string; status: ContractStatus } | null;
  userErrors: GqlUserError[];
}

/** The contract's new status, or the userErrors as a PlatformError (see ../errors.ts). */
export function mapStatusChange(operation: string, payload: StatusChangePayload): { id: string; status: ContractStatus } {
  assertNoUserErrors(payload.userErrors);
  if (!payload.contract) throw new PlatformError("unavailable", `${operation} returned neither contract nor userErrors`);
  return { id: payload.contract.id, status: payload.contract.status };
}
