// npm run schema:show -- <Type | Type.field> [--api admin|customer|storefront]
//
// Prints what Shopify's schema of the targeted version (schemas/shopify/) says about a type or a
// field, in GraphQL SDL: for a field, its arguments and the types they and its result name (input
// objects followed recursively, the result one level deep). Write documents and simulator
// resolvers from this, not from memory (docs/simulator.md#how-to-add-an-operation).
import { parseArgs } from "node:util";
import {
  getNamedType,
  isInputObjectType,
  isObjectType,
  isInterfaceType,
  isUnionType,
  printType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
} from "graphql";
import { SHOPIFY_API_VERSION } from "../app/platform/api-version";
import { shopifySchema, type SchemaApi } from "../simulator/schema";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { api: { type: "string", default: "admin" }, help: { type: "boolean", short: "h" } },
});
const target = positionals[0];
if (values.help || !target || !["admin", "customer", "storefront"].includes(values.api ?? "")) {
  console.log(`Usage: npm run schema:show -- <Type | Type.field> [--api admin|customer|storefront]

Shopify's ${SHOPIFY_API_VERSION} schema, in SDL. Examples:
  npm run schema:show -- Mutation.subscriptionBillingCycleSkip
  npm run schema:show -- QueryRoot.subscriptionContract
  npm run schema:show -- SubscriptionLine
  npm run schema:show -- QueryRoot.customer --api customer`);
  process.exit(values.help ? 0 : 1);
}

const schema: GraphQLSchema = shopifySchema(values.api as SchemaApi);
const [typeName, fieldName] = target.split(".");
const type = schema.getType(typeName);
if (!type) {
  console.error(`No type ${typeName} in Shopify's ${values.api} schema ${SHOPIFY_API_VERSION}`);
  process.exit(1);
}

const printed = new Set<string>();
function print(t: GraphQLNamedType, followInputs: boolean): void {
  if (printed.has(t.name) || t.name.startsWith("__") || ["String", "Int", "Float", "Boolean", "ID"].includes(t.name)) return;
  printed.add(t.name);
  console.log(`${printType(t)}\n`);
  if (followInputs && isInputObjectType(t)) for (const f of Object.values(t.getFields())) print(getNamedType(f.type), true);
}

if (!fieldName) {
  print(type, false);
} else {
  const fields = isObjectType(type) || isInterfaceType(type) ? type.getFields() : {};
  const field = fields[fieldName] as GraphQLField<unknown, unknown> | undefined;
  if (!field) {
    console.error(`${typeName} has no field ${fieldName} in Shopify's ${values.api} schema ${SHOPIFY_API_VERSION}`);
    process.exit(1);
  }
  const args = field.args.map((a) => `${a.name}: ${a.type.toString()}${a.defaultValue !== undefined ? ` = ${JSON.stringify(a.defaultValue)}` : ""}`);
  const deprecated = field.deprecationReason ? `  # DEPRECATED: ${field.deprecationReason}` : "";
  console.log(`# ${typeName}.${fieldName}\n${fieldName}${args.length ? `(${args.join(", ")})` : ""}: ${field.type.toString()}${deprecated}\n`);
  for (const a of field.args) print(getNamedType(a.type), true);
  const result = getNamedType(field.type);
  print(result, false);
  // A payload's userErrors type, with its code enum: the codes a refusal may carry.
  if (isObjectType(result)) {
    for (const f of Object.values(result.getFields())) {
      const named = getNamedType(f.type);
      if (f.name === "userErrors" || isUnionType(named)) {
        print(named, false);
        if (isObjectType(named) && named.getFields().code) print(getNamedType(named.getFields().code.type), false);
      }
    }
  }
}
