// metafieldDefinitionCreate, and metafieldDefinitionUpdate for a definition that already exists
// (TAKEN): the definition decides who may read the metafields under it; `access.storefront:
// PUBLIC_READ` makes them readable on the Storefront API (docs/decisions/123-storefront-metafield-definitions.md).
import { assertNoUserErrors } from "../errors";
import type { GqlUserError } from "./contract-fields";

export const METAFIELD_DEFINITION_CREATE = /* GraphQL */ `
  mutation MetafieldDefinitionCreate($definition: MetafieldDefinitionInput!) {
    metafieldDefinitionCreate(definition: $definition) {
      createdDefinition {
        id
        namespace
        key
        access {
          storefront
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

export const METAFIELD_DEFINITION_UPDATE = /* GraphQL */ `
  mutation MetafieldDefinitionUpdate($definition: MetafieldDefinitionUpdateInput!) {
    metafieldDefinitionUpdate(definition: $definition) {
      updatedDefinition {
        id
        namespace
        key
        access {
          storefront
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

type Definition = { id: string; namespace: string; key: string; access: { storefront: "NONE" | "PUBLIC_READ" | null } };

export interface MetafieldDefinitionCreateResult {
  metafieldDefinitionCreate: { createdDefinition: Definition | null; userErrors: GqlUserError[] };
}
export interface MetafieldDefinitionUpdateResult {
  metafieldDefinitionUpdate: { updatedDefinition: Definition | null; userErrors: GqlUserError[] };
}

/** The created definition, or null when one with that owner type, namespace and key exists already (TAKEN). */
export function mapMetafieldDefinitionCreate(r: MetafieldDefinitionCreateResult): Definition | null {
  const { createdDefinition, userErrors } = r.metafieldDefinitionCreate;
  if (userErrors.length > 0 && userErrors.every((e) => e.code === "TAKEN")) return null;
  assertNoUserErrors(userErrors);
  return createdDefinition;
}

export function mapMetafieldDefinitionUpdate(r: MetafieldDefinitionUpdateResult): Definition | null {
  assertNoUserErrors(r.metafieldDefinitionUpdate.userErrors);
  return r.metafieldDefinitionUpdate.updatedDefinition;
}
