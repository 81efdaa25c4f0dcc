// A vaulted payment method by id, revoked ones included, with its customer: the migration
// import's dry run checks a row's "Payment method ID" before anything is created
// (docs/decisions/088-import-existing-payment-methods.md).
export const PAYMENT_METHOD_OWNER = /* GraphQL */ `
  query PaymentMethodOwner($id: ID!) {
    customerPaymentMethod(id: $id, showRevoked: true) {
      id
      revokedAt
      customer {
        id
        defaultEmailAddress {
          emailAddress
        }
      }
    }
  }
`;

export interface PaymentMethodOwnerResult {
  customerPaymentMethod: {
    id: string;
    revokedAt: string | null;
    customer: { id: string; defaultEmailAddress: { emailAddress: string | null } | null } | null;
  } | null;
}

export interface PaymentMethodOwner {
  id: string;
  revoked: boolean;
  customerId: string | null;
  email: string | null;
}

export function mapPaymentMethodOwner(r: PaymentMethodOwnerResult): PaymentMethodOwner | null {
  const m = r.customerPaymentMethod;
  if (!m) return null;
  return { id: m.id, revoked: m.revokedAt !== null, customerId: m.customer?.id ?? null, email: m.customer?.defaultEmailAddress?.emailAddress ?? null };
}
