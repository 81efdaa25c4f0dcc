// POST /shopify.com/<shop numeric id>/account/customer/api/<version>/graphql — the Customer
// Account API, only `customer { id }`: which customer a customer access token belongs to.
import type { SimCore } from "./core";
import type { HttpAnswer } from "./admin-graphql";
import { parseDocument } from "./graphql-document";

const UNAUTHORIZED: HttpAnswer = { status: 401, body: { errors: [{ message: "Unauthorized", extensions: { code: "UNAUTHORIZED" } }] } };

export function handleCustomerAccount(core: SimCore, shopNumericId: number, authorization: string | undefined, body: unknown): HttpAnswer {
  const shop = Object.values(core.state.shops).find((s) => s.numericId === shopNumericId);
  if (!shop) return { status: 404, body: { errors: [{ message: "Shop not found" }] } };
  const token = authorization?.replace(/^Bearer\s+/i, "").trim();
  const entry = token ? shop.customerAccessTokens[token] : undefined;
  const valid = entry && new Date(entry.expiresAt).getTime() > core.now().getTime() && shop.customers[entry.customerId];
  core.record(shop, { api: "customer_account", operation: "customer", variables: {}, outcome: valid ? "ok" : "unauthorized" });
  if (!valid || !entry) return UNAUTHORIZED;
  const query = (body as { query?: unknown } | null)?.query;
  let fields: string[] = [];
  try {
    fields = typeof query === "string" ? parseDocument(query).rootFields : [];
  } catch {
    fields = [];
  }
  if (fields.length !== 1 || fields[0] !== "customer") {
    return { status: 200, body: { errors: [{ message: "Only `customer { id }` is simulated", extensions: { code: "undefinedField" } }] } };
  }
  return { status: 200, body: { data: { customer: { id: entry.customerId } } } };
}
