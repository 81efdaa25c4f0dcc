// customerPaymentMethodRemoteCreate: vaults a reference into the previous processor (Stripe,
// Braintree, Authorize.net) as the customer's payment method, so an imported contract keeps
// charging the card the subscriber already gave.
import { assertNoUserErrors, PlatformError } from "../errors";
import type { RemotePaymentReference } from "../port";
import type { GqlUserError } from "./contract-fields";

export const PAYMENT_METHOD_REMOTE_CREATE = /* GraphQL */ `
  mutation PaymentMethodRemoteCreate($customerId: ID!, $remoteReference: CustomerPaymentMethodRemoteInput!) {
    customerPaymentMethodRemoteCreate(customerId: $customerId, remoteReference: $remoteReference) {
      customerPaymentMethod {
        id
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export interface PaymentMethodRemoteCreateResult {
  customerPaymentMethodRemoteCreate: { customerPaymentMethod: { id: string } | null; userErrors: GqlUserError[] };
}

export function remoteReferenceInput(ref: RemotePaymentReference) {
  switch (ref.gateway) {
    case "stripe":
      return { stripePaymentMethod: { customerId: ref.customerId, paymentMethodId: ref.paymentMethodId } };
    case "braintree":
      return { braintreePaymentMethod: { customerId: ref.customerId, paymentMethodToken: ref.paymentMethodId } };
    case "authorize_net":
      return { authorizeNetCustomerPaymentProfile: { customerProfileId: ref.customerId, customerPaymentProfileId: ref.paymentMethodId } };
  }
}

export function mapPaymentMethodRemoteCreate(r: PaymentMethodRemoteCreateResult): string {
  const payload = r.customerPaymentMethodRemoteCreate;
  assertNoUserErrors(payload.userErrors);
  if (!payload.customerPaymentMethod) throw new PlatformError("unavailable", "customerPaymentMethodRemoteCreate returned no payment method");
  return payload.customerPaymentMethod.id;
}
