// sellingPlanGroupUpdate: the group's fields and its plans (sellingPlansToCreate/Update/Delete).
import { assertNoUserErrors, PlatformError } from "../errors";
import type { PlatformSellingPlanGroup } from "../port";
import type { GqlUserError } from "./contract-fields";
import { mapGroupFields, type GroupFields } from "./selling-plan-group-create";

export const SELLING_PLAN_GROUP_UPDATE = /* GraphQL */ `
  mutation SellingPlanGroupUpdate($id: ID!, $input: SellingPlanGroupInput!) {
    sellingPlanGroupUpdate(id: $id, input: $input) {
      deletedSellingPlanIds
      sellingPlanGroup {
        id
        sellingPlans(first: 50) {
          nodes {
            id
            name
          }
        }
        productVariants(first: 250) {
          nodes {
            id
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

export interface SellingPlanGroupUpdateResult {
  sellingPlanGroupUpdate: { deletedSellingPlanIds: string[] | null; sellingPlanGroup: GroupFields | null; userErrors: GqlUserError[] };
}

export function mapSellingPlanGroupUpdate(r: SellingPlanGroupUpdateResult): PlatformSellingPlanGroup & { deletedSellingPlanIds: string[] } {
  const payload = r.sellingPlanGroupUpdate;
  assertNoUserErrors(payload.userErrors);
  if (!payload.sellingPlanGroup) throw new PlatformError("unavailable", "sellingPlanGroupUpdate returned no group");
  return { ...mapGroupFields(payload.sellingPlanGroup), deletedSellingPlanIds: payload.deletedSellingPlanIds ?? [] };
}
