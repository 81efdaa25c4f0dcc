// sellingPlanGroupDelete. Shopify keeps the contracts sold on the group; the app refuses to
// delete a group with active subscribers before it gets here (docs/decisions/111-selling-plan-writes.md).
import { assertNoUserErrors, PlatformError } from "../errors";
import type { GqlUserError } from "./contract-fields";

export const SELLING_PLAN_GROUP_DELETE = /* GraphQL */ `
  mutation SellingPlanGroupDelete($id: ID!) {
    sellingPlanGroupDelete(id: $id) {
      deletedSellingPlanGroupId
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export interface SellingPlanGroupDeleteResult {
  sellingPlanGroupDelete: { deletedSellingPlanGroupId: string | null; userErrors: GqlUserError[] };
}

export function mapSellingPlanGroupDelete(r: SellingPlanGroupDeleteResult): string {
  const payload = r.sellingPlanGroupDelete;
  assertNoUserErrors(payload.userErrors);
  if (!payload.deletedSellingPlanGroupId) throw new PlatformError("unavailable", "sellingPlanGroupDelete returned no id");
  return payload.deletedSellingPlanGroupId;
}
