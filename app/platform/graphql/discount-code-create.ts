// discountCodeBasicCreate: the win-back incentive, a percentage-off code for one customer, used once,
// on one-time purchases and subscriptions, with an end date (docs/decisions/117-winback-campaign-job.md).
// Refusals are DiscountUserError { field message code } and map like every other userError.
import { assertNoUserErrors, PlatformError } from "../errors";
import type { NewCodeDiscount } from "../port";
import type { GqlUserError } from "./contract-fields";

export const DISCOUNT_CODE_BASIC_CREATE = /* GraphQL */ `
  mutation DiscountCodeBasicCreate($basicCodeDiscount: DiscountCodeBasicInput!) {
    discountCodeBasicCreate(basicCodeDiscount: $basicCodeDiscount) {
      codeDiscountNode {
        id
        codeDiscount {
          __typename
          ... on DiscountCodeBasic {
            codes(first: 1) {
              nodes {
                code
              }
            }
          }
        }
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export interface DiscountCodeBasicCreateResult {
  discountCodeBasicCreate: {
    codeDiscountNode: { id: string; codeDiscount: { __typename: string; codes?: { nodes: { code: string }[] } } } | null;
    userErrors: GqlUserError[];
  };
}

export function discountCodeBasicCreateVariables(d: NewCodeDiscount) {
  return {
    basicCodeDiscount: {
      title: d.title,
      code: d.code,
      startsAt: d.startsAt,
      endsAt: d.endsAt,
      usageLimit: 1,
      appliesOncePerCustomer: true,
      context: { customers: { add: [d.customerId] } },
      customerGets: { value: { percentage: d.percent / 100 }, items: { all: true }, appliesOnOneTimePurchase: true, appliesOnSubscription: true },
    },
  };
}

export function mapDiscountCodeBasicCreate(r: DiscountCodeBasicCreateResult): { id: string; code: string } {
  const payload = r.discountCodeBasicCreate;
  assertNoUserErrors(payload.userErrors);
  const node = payload.codeDiscountNode;
  const code = node?.codeDiscount.codes?.nodes[0]?.code;
  if (!node || !code) throw new PlatformError("unavailable", "discountCodeBasicCreate returned no code");
  return { id: node.id, code };
}
