// Shopify's published GraphQL schemas of the targeted API version, vendored in schemas/shopify/
// (refreshed by `npm run schema:refresh`), built once per process. The simulator executes every
// request against them and a test validates every document the adapter sends
// (docs/decisions/030-schema-executed-simulator.md).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";
import { SHOPIFY_API_VERSION } from "../app/platform/api-version";

/** admin = Admin GraphQL API; customer = Customer Account API; storefront = Storefront API (headless storefronts). */
export type SchemaApi = "admin" | "customer" | "storefront";

export interface SchemaSource {
  apiVersion: string;
  package: string;
  devMcpVersion: string;
  files: Partial<Record<SchemaApi, { file: string; sha256: string }>>;
}

export const SCHEMA_DIR = fileURLToPath(new URL("../schemas/shopify/", import.meta.url));
export const SCHEMA_SOURCE_FILE = "source.json";
export const schemaFileName = (api: SchemaApi, version: string) => `${api === "storefront" ? "storefront-graphql" : api}_${version}.json.gz`;

const cache = new Map<SchemaApi, GraphQLSchema>();

/**
 * The schema of `api` at SHOPIFY_API_VERSION. The first call reads and builds it (the Admin
 * schema is ~11 MB of JSON: a few hundred ms); later calls return the same object.
 */
export function shopifySchema(api: SchemaApi): GraphQLSchema {
  let schema = cache.get(api);
  if (!schema) {
    const raw = gunzipSync(readFileSync(`${SCHEMA_DIR}${schemaFileName(api, SHOPIFY_API_VERSION)}`)).toString("utf8");
    const introspection = (JSON.parse(raw) as { data: IntrospectionQuery }).data;
    // Shopify's own schema: skip graphql-js's schema self-check (it costs as much as the build).
    schema = buildClientSchema(introspection, { assumeValid: true });
    cache.set(api, schema);
  }
  return schema;
}

export const adminSchema = () => shopifySchema("admin");
export const customerAccountSchema = () => shopifySchema("customer");
export const storefrontSchema = () => shopifySchema("storefront");
