// subscriptionContractAtomicCreate: a whole contract in one call (customer, lines, policies,
// shipping address, payment method, status, next billing date). The migration import's key rides
// along as a contract custom attribute, so a crash between this call and the app's own record
// is settled by reading the customer's contracts (customer-contracts.ts).
import { assertNoUserErrors, PlatformError } from "../errors";
import type { NewContract } from "../port";
import type { GqlUserError } from "./contract-fields";
import { mailingAddressInput } from "./customer-set";

export const CONTRACT_ATOMIC_CREATE = /* GraphQL */ `
  mutation ContractAtomicCreate($input: SubscriptionContractAtomicCreateInput!) {
    subscriptionContractAtomicCreate(input: $input) {
      contract {
        id
        status
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export interface ContractAtomicCreateResult {
  subscriptionContractAtomicCreate: { contract: { id: string; status: string } | null; userErrors: GqlUserError[] };
}

export function contractAtomicCreateVariables(c: NewContract) {
  const policy = { interval: c.interval, intervalCount: c.intervalCount };
  return {
    input: {
      customerId: c.customerId,
      currencyCode: c.currencyCode,
      nextBillingDate: c.nextBillingDate,
      contract: {
        status: c.status,
        paymentMethodId: c.paymentMethodId,
        billingPolicy: policy,
        deliveryPolicy: policy,
        deliveryMethod: c.shippingAddress ? { shipping: { address: mailingAddressInput(c.shippingAddress) } } : null,
        customAttributes: Object.entries(c.attributes).map(([key, value]) => ({ key, value })),
      },
      lines: c.lines.map((l) => ({
        line: { productVariantId: l.variantId, quantity: l.quantity, currentPrice: l.priceAmount, sellingPlanId: l.sellingPlanId },
      })),
    },
  };
}

export function mapContractAtomicCreate(r: ContractAtomicCreateResult): { id: string } {
  const payload = r.subscriptionContractAtomicCreate;
  assertNoUserErrors(payload.userErrors);
  if (!payload.contract) throw new PlatformError("unavailable", "subscriptionContractAtomicCreate returned no contract");
  return { id: payload.contract.id };
}
