// Every GraphQL document the app sends to Shopify is valid against Shopify's published schema of
// the version it targets (schemas/shopify/, docs/decisions/030-schema-executed-simulator.md):
// each string exported by app/platform/graphql/*.ts that is a GraphQL operation is validated
// with graphql-js against the Admin schema (the Customer Account call against its own).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { NoDeprecatedCustomRule, parse, validate, type DocumentNode } from "graphql";
import { describe, expect, it } from "vitest";
import { SHOPIFY_API_VERSION } from "../../../app/platform/api-version";
import { adminSchema, customerAccountSchema, SCHEMA_DIR, SCHEMA_SOURCE_FILE, type SchemaSource } from "../../../simulator/schema";
import { MUTATION, QUERY } from "../../../simulator/admin-resolvers";
import { CUSTOMERS_BY_EMAIL_MAX, customersByEmailDocument } from "../../../app/platform/graphql/customer-by-email";
import { CUSTOMER_SET_MAX, customerSetDocument } from "../../../app/platform/graphql/customer-set";

const GRAPHQL_DIR = join(import.meta.dirname, "../../../app/platform/graphql");
/** Files of the adapter that hold no document of their own (the client, the port, shared fields). */
const WITHOUT_DOCUMENT = new Set(["adapter.server.ts", "client.server.ts", "contract-fields.ts"]);
/** Documents sent to the Customer Account API rather than the Admin API. */
const CUSTOMER_ACCOUNT_FILES = new Set(["customer-id.ts"]);

interface Found {
  file: string;
  name: string;
  document: DocumentNode;
}

function asOperation(value: unknown): DocumentNode | null {
  if (typeof value !== "string" || !/^\s*(query|mutation)\b/.test(value)) return null;
  const document = parse(value);
  return document.definitions.some((d) => d.kind === "OperationDefinition") ? document : null;
}

async function adapterDocuments(): Promise<Found[]> {
  const found: Found[] = [];
  for (const file of readdirSync(GRAPHQL_DIR)
    .filter((f) => f.endsWith(".ts"))
    .sort()) {
    const mod = (await import(join(GRAPHQL_DIR, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      const document = asOperation(value);
      if (document) found.push({ file, name, document });
    }
  }
  return found;
}

describe("the adapter's GraphQL documents against Shopify's schema", () => {
  it(`every document validates against the ${SHOPIFY_API_VERSION} schema of the API it is sent to`, async () => {
    const docs = await adapterDocuments();
    // Every operation file contributes its document: the check cannot pass by finding nothing.
    const files = readdirSync(GRAPHQL_DIR).filter((f) => f.endsWith(".ts") && !WITHOUT_DOCUMENT.has(f));
    expect(new Set(docs.map((d) => d.file))).toEqual(new Set(files));
    const failures = docs.flatMap(({ file, name, document }) => {
      const schema = CUSTOMER_ACCOUNT_FILES.has(file) ? customerAccountSchema() : adminSchema();
      return validate(schema, document).map((e) => `${file} ${name}: ${e.message}`);
    });
    expect(failures).toEqual([]);
  });

  it("no document reads a deprecated field, argument or enum value (Shopify removes them in later versions)", async () => {
    const docs = await adapterDocuments();
    const deprecated = docs.flatMap(({ file, name, document }) => {
      const schema = CUSTOMER_ACCOUNT_FILES.has(file) ? customerAccountSchema() : adminSchema();
      return validate(schema, document, [NoDeprecatedCustomRule]).map((e) => `${file} ${name}: ${e.message}`);
    });
    expect(deprecated).toEqual([]);
  });

  it("the batched documents (one aliased root field per item) validate at every batch size, not only the largest", () => {
    const sizes = (max: number) => Array.from({ length: max }, (_, i) => i + 1);
    const failures = [
      ...sizes(CUSTOMERS_BY_EMAIL_MAX).map((n) => customersByEmailDocument(n)),
      ...sizes(CUSTOMER_SET_MAX).map((n) => customerSetDocument(n)),
    ].flatMap((doc) => validate(adminSchema(), parse(doc)).map((e) => e.message));
    expect(failures).toEqual([]);
    expect(parse(customerSetDocument(3)).definitions).toHaveLength(1);
  });

  it("the billing-cycle skip's argument is billingCycleInput (the old billingCycleSelector is refused)", () => {
    const old = parse(`mutation BillingCycleSkip($billingCycleSelector: SubscriptionBillingCycleInput!) {
      subscriptionBillingCycleSkip(billingCycleSelector: $billingCycleSelector) { billingCycle { cycleIndex } userErrors { field message code } }
    }`);
    const messages = validate(adminSchema(), old).map((e) => e.message);
    expect(messages.some((m) => m.startsWith('Unknown argument "billingCycleSelector" on field "Mutation.subscriptionBillingCycleSkip".'))).toBe(true);
    expect(messages.some((m) => m.includes('argument "billingCycleInput" of type "SubscriptionBillingCycleInput!" is required'))).toBe(true);
  });
});

describe("the vendored schemas and the version everywhere it is named", () => {
  const source = JSON.parse(readFileSync(join(SCHEMA_DIR, SCHEMA_SOURCE_FILE), "utf8")) as SchemaSource;

  it("schemas/shopify holds the targeted version's files, byte for byte as recorded by schema:refresh", () => {
    expect(source.apiVersion).toBe(SHOPIFY_API_VERSION);
    for (const api of ["admin", "customer"] as const) {
      const entry = source.files[api];
      expect(entry?.file).toBe(`${api}_${SHOPIFY_API_VERSION}.json.gz`);
      const digest = createHash("sha256")
        .update(readFileSync(join(SCHEMA_DIR, entry!.file)))
        .digest("hex");
      expect(digest).toBe(entry!.sha256);
    }
  });

  it("shopify.app.toml's webhooks and the theme extension name the same API version", () => {
    const app = parseToml(readFileSync("shopify.app.toml", "utf8")) as { webhooks: { api_version: string } };
    expect(app.webhooks.api_version).toBe(SHOPIFY_API_VERSION);
    const extensions = readdirSync("extensions");
    expect(extensions.length).toBeGreaterThan(0);
    for (const ext of extensions) {
      const toml = parseToml(readFileSync(join("extensions", ext, "shopify.extension.toml"), "utf8")) as { api_version: string };
      expect(toml.api_version, ext).toBe(SHOPIFY_API_VERSION);
    }
  });

  it("the schema is built once per process (later calls are the same object)", () => {
    expect(adminSchema()).toBe(adminSchema());
    expect(
      adminSchema()
        .getMutationType()
        ?.getFields()
        .subscriptionBillingCycleSkip.args.map((a) => a.name),
    ).toEqual(["billingCycleInput"]);
  });
});

describe("the simulator's resolvers", () => {
  it("are named after root fields of Shopify's schema (a misspelt resolver would never be reached)", () => {
    const schema = adminSchema();
    expect(Object.keys(QUERY).filter((name) => !schema.getQueryType()?.getFields()[name])).toEqual([]);
    expect(Object.keys(MUTATION).filter((name) => !schema.getMutationType()?.getFields()[name])).toEqual([]);
  });
});
