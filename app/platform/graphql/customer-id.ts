// Customer Account API: which customer a customer access token belongs to. Not the Admin API:
// it lives on shopify.com, is addressed by the shop's numeric id, and takes the token as-is in
// the Authorization header.
import { PlatformError } from "../errors";
import { SHOPIFY_API_VERSION } from "../api-version";

export const CUSTOMER_ID = /* GraphQL */ `
  query CustomerId {
    customer {
      id
    }
  }
`;

export interface CustomerIdResult {
  customer: { id: string } | null;
}

export const customerAccountUrl = (shopNumericId: string) => `https://shopify.com/${shopNumericId}/account/customer/api/${SHOPIFY_API_VERSION}/graphql`;

/**
 * POSTs the query. Every refusal of the token (4xx, GraphQL error, no customer) is null. Shopify
 * being unreachable or failing (network, 5xx) is not a refusal: it throws `unavailable`, so a
 * Shopify outage never looks like "this customer is logged out".
 */
export async function fetchCustomerId(shopNumericId: string, customerAccessToken: string): Promise<string | null> {
  let response: Response;
  try {
    response = await fetch(customerAccountUrl(shopNumericId), {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", Authorization: customerAccessToken },
      body: JSON.stringify({ query: CUSTOMER_ID, variables: {} }),
    });
  } catch (cause) {
    throw new PlatformError("unavailable", "Customer Account API could not be reached", { cause });
  }
  if (response.status >= 500) {
    await response.body?.cancel();
    throw new PlatformError("unavailable", `Customer Account API answered HTTP ${response.status}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    return null;
  }
  try {
    const body = (await response.json()) as { data?: CustomerIdResult | null; errors?: unknown[] };
    if (body.errors?.length) return null;
    return body.data?.customer?.id ?? null;
  } catch {
    return null;
  }
}
