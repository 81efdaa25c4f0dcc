// POST /shopify.com/<shop numeric id>/account/customer/api/<version>/graphql — the Customer
// Account API. Documents are executed against Shopify's Customer Account schema
// (graphql-exec.ts); the one field simulated is `customer { id }`: which customer a customer
// access token belongs to. Any other field of the schema answers NOT_SIMULATED.
import { SHOPIFY_API_VERSION } from "../app/platform/api-version";
import type { SimCore } from "./core";
import type { HttpAnswer } from "./admin-graphql";
import { executeRequest, prepareRequest } from "./graphql-exec";
import { customerAccountSchema } from "./schema";

const UNAUTHORIZED: HttpAnswer = { status: 401, body: { errors: [{ message: "Unauthorized", extensions: { code: "UNAUTHORIZED" } }] } };

export function handleCustomerAccount(core: SimCore, shopNumericId: number, version: string, authorization: string | undefined, body: unknown): HttpAnswer {
  const shop = Object.values(core.state.shops).find((s) => s.numericId === shopNumericId);
  if (!shop) return { status: 404, body: { errors: [{ message: "Shop not found" }] } };
  if (version !== SHOPIFY_API_VERSION) {
    return { status: 404, body: { errors: [{ message: `API version ${version} is not simulated: the simulator serves ${SHOPIFY_API_VERSION}` }] } };
  }
  const token = authorization?.replace(/^Bearer\s+/i, "").trim();
  const entry = token ? shop.customerAccessTokens[token] : undefined;
  const valid = entry && new Date(entry.expiresAt).getTime() > core.now().getTime() && shop.customers[entry.customerId];
  core.record(shop, { api: "customer_account", operation: "customer", variables: {}, outcome: valid ? "ok" : "unauthorized" });
  if (!valid || !entry) return UNAUTHORIZED;

  const { query, variables, operationName } = (body ?? {}) as { query?: unknown; variables?: unknown; operationName?: unknown };
  if (typeof query !== "string") return { status: 400, body: { errors: [{ message: "query is required", extensions: { code: "BAD_REQUEST" } }] } };
  const schema = customerAccountSchema();
  const prepared = prepareRequest(schema, query, typeof operationName === "string" ? operationName : null);
  if (!prepared.ok) return { status: 200, body: { errors: prepared.errors } };
  const vars = variables && typeof variables === "object" && !Array.isArray(variables) ? (variables as Record<string, unknown>) : {};
  const root = { customer: () => ({ __typename: "Customer", id: entry.customerId }) };
  return { status: 200, body: executeRequest(schema, prepared.request, root, {}, vars) };
}
