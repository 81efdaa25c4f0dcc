// Executes a GraphQL request against one of Shopify's schemas (schema.ts) with graphql-js, the
// way Shopify's GraphQL endpoints treat it: a document that does not parse or does not validate
// against the schema (unknown field, wrong argument name, missing required argument, bad
// variable) is answered with top-level `errors` and runs nothing; a valid one is executed by
// resolvers over the simulated store, so aliases, fragments, literal arguments, variables and
// selection sets behave as on Shopify (docs/decisions/030-schema-executed-simulator.md).
import {
  executeSync,
  getNamedType,
  getOperationAST,
  GraphQLError,
  isObjectType,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationRule,
} from "graphql";

/** Shopify's answer when a document is refused or a field fails: `{ errors: [...] }`. */
export interface ShopifyGraphqlError {
  message: string;
  locations?: { line: number; column: number }[];
  path?: (string | number)[];
  extensions: { code: string; [k: string]: unknown };
}

/**
 * The codes Shopify's GraphQL server gives validation failures, by the graphql-js rule that
 * finds them (messages stay graphql-js's wording; the codes are what callers branch on).
 */
const RULE_CODES = new Map<ValidationRule, string>();
const CODE_BY_RULE_NAME: Record<string, string> = {
  FieldsOnCorrectTypeRule: "undefinedField",
  KnownArgumentNamesRule: "argumentNotAccepted",
  ProvidedRequiredArgumentsRule: "missingRequiredArguments",
  KnownTypeNamesRule: "undefinedType",
  NoUndefinedVariablesRule: "variableNotDefined",
  NoUnusedVariablesRule: "variableNotUsed",
  VariablesInAllowedPositionRule: "variableMismatch",
  ScalarLeafsRule: "selectionMismatch",
  ValuesOfCorrectTypeRule: "argumentLiteralsIncompatible",
  KnownFragmentNamesRule: "undefinedFragment",
  NoUnusedFragmentsRule: "useAndDefineFragment",
  PossibleFragmentSpreadsRule: "cannotSpreadFragment",
  UniqueArgumentNamesRule: "argumentNotUnique",
  LoneAnonymousOperationRule: "anonymousOperationNotAlone",
  UniqueOperationNamesRule: "operationNotUnique",
  KnownDirectivesRule: "undefinedDirective",
  OverlappingFieldsCanBeMergedRule: "fieldConflict",
};
for (const rule of specifiedRules) RULE_CODES.set(rule, CODE_BY_RULE_NAME[rule.name] ?? "validationFailed");

const formatError = (err: GraphQLError, code: string): ShopifyGraphqlError => {
  const extensions = { ...(err.extensions as Record<string, unknown>) };
  return {
    message: err.message,
    ...(err.locations ? { locations: err.locations.map(({ line, column }) => ({ line, column })) } : {}),
    ...(err.path ? { path: [...err.path] } : {}),
    extensions: { ...extensions, code: typeof extensions.code === "string" ? extensions.code : code },
  };
};

/** Every validation error with its rule's code; only called once a document failed `validate`. */
function classifiedValidationErrors(schema: GraphQLSchema, doc: DocumentNode): ShopifyGraphqlError[] {
  const out: ShopifyGraphqlError[] = [];
  for (const rule of specifiedRules) {
    for (const err of validate(schema, doc, [rule])) out.push(formatError(err, RULE_CODES.get(rule) ?? "validationFailed"));
  }
  return out;
}

/** A document that parsed, validated and names one operation, ready to run. */
export interface PreparedRequest {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  rootType: GraphQLObjectType;
  /** The schema names (not aliases) of the root fields the operation selects, in order. */
  rootFields: string[];
}

export type Preparation = { ok: true; request: PreparedRequest } | { ok: false; errors: ShopifyGraphqlError[] };

/**
 * Prepared documents by schema and text. A client sends the same few documents over and over
 * (one per operation file), and validating one against Shopify's schema costs far more than
 * running it: each distinct document is parsed and validated once. Bounded, oldest first out.
 */
const PREPARED = new WeakMap<GraphQLSchema, Map<string, Preparation>>();
const PREPARED_MAX = 500;

export function prepareRequest(schema: GraphQLSchema, query: string, operationName?: string | null): Preparation {
  let cache = PREPARED.get(schema);
  if (!cache) PREPARED.set(schema, (cache = new Map()));
  const key = `${operationName ?? ""}\u0000${query}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const prepared = prepareUncached(schema, query, operationName);
  if (cache.size >= PREPARED_MAX) cache.delete(cache.keys().next().value!);
  cache.set(key, prepared);
  return prepared;
}

function prepareUncached(schema: GraphQLSchema, query: string, operationName?: string | null): Preparation {
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (err) {
    if (err instanceof GraphQLError) return { ok: false, errors: [formatError(err, "parseError")] };
    throw err;
  }
  if (validate(schema, document).length > 0) return { ok: false, errors: classifiedValidationErrors(schema, document) };
  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation) {
    const message = operationName ? `No operation named "${operationName}"` : "An operation name is required when a document has several operations";
    return { ok: false, errors: [{ message, extensions: { code: "operationNotFound" } }] };
  }
  const rootType = schema.getRootType(operation.operation);
  if (!rootType) return { ok: false, errors: [{ message: `Schema is not configured for ${operation.operation}s`, extensions: { code: "missingRootType" } }] };
  return { ok: true, request: { document, operation, rootType, rootFields: rootFieldNames(document, operation.selectionSet) } };
}

function rootFieldNames(document: DocumentNode, selectionSet: SelectionSetNode): string[] {
  const names: string[] = [];
  for (const sel of selectionSet.selections) {
    if (sel.kind === "Field") {
      if (!sel.name.value.startsWith("__")) names.push(sel.name.value);
    } else if (sel.kind === "InlineFragment") {
      names.push(...rootFieldNames(document, sel.selectionSet));
    } else {
      const fragment = document.definitions.find((d) => d.kind === "FragmentDefinition" && d.name.value === sel.name.value);
      if (fragment?.kind === "FragmentDefinition") names.push(...rootFieldNames(document, fragment.selectionSet));
    }
  }
  return names;
}

/** Thrown by a resolver for an error Shopify reports at top level (it nulls the field). */
export const fieldError = (message: string, code: string) => new GraphQLError(message, { extensions: { code } });

/**
 * Resolves a field from the object its parent returned: a value, or a function of the field's
 * arguments for fields that take some (connections, `appliesToProductVariant(...)`). A field
 * the object lacks is one Shopify has and the simulator does not: an error that says so, never
 * a silent null (docs/simulator.md, "How to add an operation").
 */
const storeFieldResolver: GraphQLFieldResolver<unknown, unknown> = (source, args, context, info) => {
  if (source !== null && typeof source === "object" && Object.hasOwn(source, info.fieldName)) {
    const value = (source as Record<string, unknown>)[info.fieldName];
    return typeof value === "function" ? (value as (a: unknown, c: unknown, i: unknown) => unknown)(args, context, info) : value;
  }
  throw fieldError(
    `${info.parentType.name}.${info.fieldName} exists in Shopify's schema but is not simulated (docs/simulator.md#how-to-add-an-operation)`,
    "NOT_SIMULATED",
  );
};

/** Runs a prepared request. Resolvers are synchronous: the store is in memory. */
export function executeRequest(
  schema: GraphQLSchema,
  request: PreparedRequest,
  rootValue: Record<string, unknown>,
  contextValue: unknown,
  variables: Record<string, unknown>,
): { data?: Record<string, unknown> | null; errors?: ShopifyGraphqlError[] } {
  const result: ExecutionResult = executeSync({
    schema,
    document: request.document,
    operationName: request.operation.name?.value,
    rootValue,
    contextValue,
    variableValues: variables,
    fieldResolver: storeFieldResolver,
  });
  // Without `data`, the variables did not fit their declared types: nothing ran.
  const fallbackCode = result.data === undefined ? "INVALID_VARIABLE" : "INTERNAL_SERVER_ERROR";
  const errors = result.errors?.map((e) => formatError(e, fallbackCode));
  return { ...(result.data !== undefined ? { data: result.data as Record<string, unknown> | null } : {}), ...(errors?.length ? { errors } : {}) };
}

/**
 * What a mutation payload looks like when Shopify refuses it: every object field null and the
 * given userErrors. For a root field without a userErrors slot (a query), null.
 */
export function refusedPayload(rootType: GraphQLObjectType, field: string, userErrors: unknown[]): Record<string, unknown> | null {
  const payloadType = getNamedType(rootType.getFields()[field]?.type);
  if (!isObjectType(payloadType) || !payloadType.getFields().userErrors) return null;
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(payloadType.getFields())) out[name] = null;
  out.userErrors = userErrors;
  return out;
}

/** The `code` values a root field's userErrors may carry (null: its userErrors have no code). */
export function userErrorCodes(schema: GraphQLSchema, field: string): string[] | null {
  const rootField = schema.getMutationType()?.getFields()[field] ?? schema.getQueryType()?.getFields()[field];
  const payloadType = getNamedType(rootField?.type);
  if (!isObjectType(payloadType)) return null;
  const errorType = getNamedType(payloadType.getFields().userErrors?.type);
  if (!isObjectType(errorType)) return null;
  const codeType = getNamedType(errorType.getFields().code?.type);
  if (!codeType || !("getValues" in codeType)) return null;
  return codeType.getValues().map((v) => v.name);
}
