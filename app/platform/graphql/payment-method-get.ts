// The contract's vaulted payment method (read_customer_payment_methods). Null when the contract
// has none, which is how manual / invoice-billed contracts look.
import type { PaymentMethodKind, PlatformPaymentMethod } from "../port";

export const PAYMENT_METHOD_GET = /* GraphQL */ `
  query PaymentMethodGet($id: ID!) {
    subscriptionContract(id: $id) {
      id
      customerPaymentMethod {
        id
        instrument {
          __typename
          ... on CustomerCreditCard {
            brand
            lastDigits
            expiryMonth
            expiryYear
          }
          ... on CustomerShopPayAgreement {
            lastDigits
            expiryMonth
            expiryYear
          }
          ... on CustomerPaypalBillingAgreement {
            paypalAccountEmail
          }
        }
      }
    }
  }
`;

type Instrument =
  | { __typename: "CustomerCreditCard"; brand: string; lastDigits: string; expiryMonth: number; expiryYear: number }
  | { __typename: "CustomerShopPayAgreement"; lastDigits: string; expiryMonth: number; expiryYear: number }
  | { __typename: "CustomerPaypalBillingAgreement"; paypalAccountEmail: string | null }
  | { __typename: string };

export interface PaymentMethodGetResult {
  subscriptionContract: { id: string; customerPaymentMethod: { id: string; instrument: Instrument | null } | null } | null;
}

export function mapPaymentMethodGet(r: PaymentMethodGetResult): PlatformPaymentMethod | null {
  const method = r.subscriptionContract?.customerPaymentMethod;
  if (!method) return null;
  const out: PlatformPaymentMethod = {
    id: method.id,
    kind: "other",
    brand: null,
    last4: null,
    expiryMonth: null,
    expiryYear: null,
    paypalEmail: null,
  };
  const i = method.instrument;
  if (!i) return out;
  if ("brand" in i) return { ...out, kind: "credit_card", brand: i.brand, last4: i.lastDigits, expiryMonth: i.expiryMonth, expiryYear: i.expiryYear };
  if (i.__typename === "CustomerShopPayAgreement" && "lastDigits" in i) {
    return { ...out, kind: "shop_pay" as PaymentMethodKind, brand: "shop_pay", last4: i.lastDigits, expiryMonth: i.expiryMonth, expiryYear: i.expiryYear };
  }
  if ("paypalAccountEmail" in i) return { ...out, kind: "paypal", paypalEmail: i.paypalAccountEmail };
  return out;
}
