// metafieldsSet: up to 25 metafields per call, all-or-nothing on Shopify's side.
import { assertNoUserErrors } from "../errors";
import type { GqlUserError } from "./contract-fields";

export const METAFIELDS_SET = /* GraphQL */ `
  mutation MetafieldsSet($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) {
      metafields {
        id
        namespace
        key
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export const METAFIELDS_SET_MAX = 25;

export interface MetafieldsSetResult {
  metafieldsSet: { metafields: { id: string; namespace: string; key: string }[] | null; userErrors: GqlUserError[] };
}

export function mapMetafieldsSet(r: MetafieldsSetResult): void {
  assertNoUserErrors(r.metafieldsSet.userErrors);
}
