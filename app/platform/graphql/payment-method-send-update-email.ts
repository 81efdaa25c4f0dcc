// customerPaymentMethodSendUpdateEmail: Shopify e-mails the customer a link to update the card.
import { assertNoUserErrors } from "../errors";
import type { GqlUserError } from "./contract-fields";

export const PAYMENT_METHOD_SEND_UPDATE_EMAIL = /* GraphQL */ `
  mutation PaymentMethodSendUpdateEmail($customerPaymentMethodId: ID!) {
    customerPaymentMethodSendUpdateEmail(customerPaymentMethodId: $customerPaymentMethodId) {
      customer {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
`;

export interface PaymentMethodSendUpdateEmailResult {
  customerPaymentMethodSendUpdateEmail: { customer: { id: string } | null; userErrors: GqlUserError[] };
}

export function mapPaymentMethodSendUpdateEmail(r: PaymentMethodSendUpdateEmailResult): void {
  assertNoUserErrors(r.customerPaymentMethodSendUpdateEmail.userErrors);
}
