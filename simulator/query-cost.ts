// Shopify's calculated query cost (docs/decisions/095-simulated-query-cost.md): the cost the
// Admin GraphQL API charges a request before running it (requestedQueryCost) and what it keeps
// once it knows how much the answer holds (actualQueryCost). The rules, as Shopify documents them:
//   - a scalar or an enum costs 0; an object costs 1 plus what is selected in it;
//   - an interface or a union costs the most expensive of its possible selections;
//   - a connection costs 2 plus, for each of the `first`/`last` objects asked for, what one of
//     them costs (nested connections multiply);
//   - a mutation's root field costs 10 (its payload object and plain fields are included; a
//     connection it returns is charged on top);
//   - a request may cost at most 1,000 points (MAX_COST_EXCEEDED).
// The actual cost applies the same rules to what came back: a connection is charged for the
// items it returned, a null object for nothing.
import {
  getNamedType,
  isAbstractType,
  isLeafType,
  isObjectType,
  Kind,
  valueFromASTUntyped,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
} from "graphql";
import type { PreparedRequest } from "./graphql-exec";

export const MAX_QUERY_COST = 1000;
export const MUTATION_COST = 10;
const CONNECTION_BASE = 2;

interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

type Rec = Record<string, unknown>;
const asRec = (v: unknown): Rec | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Rec) : null);

/** A type is a connection when it has Shopify's connection shape (edges or nodes + pageInfo). */
function isConnection(type: GraphQLNamedType): type is GraphQLObjectType {
  if (!isObjectType(type) || !type.name.endsWith("Connection")) return false;
  const fields = type.getFields();
  return "pageInfo" in fields && ("edges" in fields || "nodes" in fields);
}

function applies(w: Walk, condition: string | undefined, type: GraphQLObjectType): boolean {
  if (!condition || condition === type.name) return true;
  const cond = w.schema.getType(condition);
  return !!cond && isAbstractType(cond) && w.schema.isSubType(cond, type);
}

/** The fields a selection set selects on one concrete type, fragments expanded. */
function fieldsOn(w: Walk, set: SelectionSetNode, type: GraphQLObjectType, out: FieldNode[] = []): FieldNode[] {
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) out.push(sel);
    else if (sel.kind === Kind.INLINE_FRAGMENT) {
      if (applies(w, sel.typeCondition?.name.value, type)) fieldsOn(w, sel.selectionSet, type, out);
    } else {
      const fragment = w.fragments.get(sel.name.value);
      if (fragment && applies(w, fragment.typeCondition.name.value, type)) fieldsOn(w, fragment.selectionSet, type, out);
    }
  }
  // One response key is one field, however many fragments repeat it.
  const seen = new Set<string>();
  return out.filter((f) => {
    const key = f.alias?.value ?? f.name.value;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/** The type conditions a selection set names, fragments expanded one level at a time. */
function conditions(w: Walk, set: SelectionSetNode, out = new Set<string>()): Set<string> {
  for (const sel of set.selections) {
    if (sel.kind === Kind.INLINE_FRAGMENT) {
      if (sel.typeCondition) out.add(sel.typeCondition.name.value);
      conditions(w, sel.selectionSet, out);
    } else if (sel.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = w.fragments.get(sel.name.value);
      if (fragment) {
        out.add(fragment.typeCondition.name.value);
        conditions(w, fragment.selectionSet, out);
      }
    }
  }
  return out;
}

/**
 * The concrete types worth costing a selection on: an object type itself; for an interface or
 * union, the possible types some fragment picks out (the others select only the shared fields,
 * all alike, so one of them stands for all). Keeps \`node\`/\`nodes\` from walking every type.
 */
function concreteTypes(w: Walk, type: GraphQLCompositeType, set: SelectionSetNode): readonly GraphQLObjectType[] {
  if (!isAbstractType(type)) return [type];
  const possible = w.schema.getPossibleTypes(type);
  const named = conditions(w, set);
  const picked = possible.filter((t) => [...named].some((c) => c !== type.name && applies(w, c, t)));
  const rest = possible.find((t) => !picked.includes(t));
  return rest ? [...picked, rest] : picked;
}

function pageSize(w: Walk, field: FieldNode): number {
  for (const name of ["first", "last"]) {
    const arg = field.arguments?.find((a) => a.name.value === name);
    if (!arg) continue;
    const value = valueFromASTUntyped(arg.value, w.variables);
    if (typeof value === "number") return value;
  }
  return 0;
}

// ---- requested cost -------------------------------------------------------------------------

/** What the selection set costs on `type`: for an abstract type, its most expensive possibility. */
function selectionCost(w: Walk, set: SelectionSetNode | undefined, type: GraphQLCompositeType): number {
  if (!set) return 0;
  let most = 0;
  for (const concrete of concreteTypes(w, type, set)) {
    let sum = 0;
    for (const field of fieldsOn(w, set, concrete)) sum += fieldCost(w, field, concrete.getFields()[field.name.value]);
    most = Math.max(most, sum);
  }
  return most;
}

/** One item of a connection: an edge's selection (its node an object) or a `nodes` entry. */
function itemCost(w: Walk, connection: GraphQLObjectType, field: FieldNode): number {
  let most = 0;
  for (const sub of fieldsOn(w, field.selectionSet!, connection)) {
    const def = connection.getFields()[sub.name.value];
    if (!def) continue;
    const named = getNamedType(def.type);
    if (sub.name.value === "edges" && isObjectType(named)) most = Math.max(most, selectionCost(w, sub.selectionSet, named));
    else if (sub.name.value === "nodes") most = Math.max(most, fieldCost(w, sub, def));
  }
  return most;
}

function fieldCost(w: Walk, field: FieldNode, def: GraphQLField<unknown, unknown> | undefined): number {
  if (!def || field.name.value.startsWith("__")) return 0;
  const named = getNamedType(def.type);
  if (isLeafType(named)) return 0;
  if (isConnection(named)) return CONNECTION_BASE + pageSize(w, field) * itemCost(w, named, field);
  return 1 + selectionCost(w, field.selectionSet, named as GraphQLCompositeType);
}

/** Only the connections under a mutation's payload are charged beyond its 10 points. */
function connectionsCost(w: Walk, set: SelectionSetNode | undefined, type: GraphQLCompositeType): number {
  if (!set) return 0;
  let most = 0;
  for (const concrete of concreteTypes(w, type, set)) {
    let sum = 0;
    for (const field of fieldsOn(w, set, concrete)) {
      const def = concrete.getFields()[field.name.value];
      if (!def) continue;
      const named = getNamedType(def.type);
      if (isConnection(named)) sum += fieldCost(w, field, def);
      else if (!isLeafType(named)) sum += connectionsCost(w, field.selectionSet, named as GraphQLCompositeType);
    }
    most = Math.max(most, sum);
  }
  return most;
}

// ---- actual cost ----------------------------------------------------------------------------

function actualSelection(w: Walk, set: SelectionSetNode | undefined, type: GraphQLCompositeType, value: Rec): number {
  if (!set) return 0;
  // An abstract value: the concrete type is the one whose selection best matches what came back.
  let most = 0;
  for (const concrete of concreteTypes(w, type, set)) {
    let sum = 0;
    for (const field of fieldsOn(w, set, concrete))
      sum += actualField(w, field, concrete.getFields()[field.name.value], value[field.alias?.value ?? field.name.value]);
    most = Math.max(most, sum);
  }
  return most;
}

function actualObject(w: Walk, field: FieldNode, type: GraphQLCompositeType, value: unknown): number {
  const items = Array.isArray(value) ? value : [value];
  let most = 0;
  let any = false;
  for (const item of items) {
    const rec = asRec(item);
    if (!rec) continue;
    any = true;
    most = Math.max(most, actualSelection(w, field.selectionSet, type, rec));
  }
  return any ? 1 + most : 0;
}

function actualField(w: Walk, field: FieldNode, def: GraphQLField<unknown, unknown> | undefined, value: unknown): number {
  if (!def || value == null || field.name.value.startsWith("__")) return 0;
  const named = getNamedType(def.type);
  if (isLeafType(named)) return 0;
  if (!isConnection(named)) return actualObject(w, field, named as GraphQLCompositeType, value);
  const rec = asRec(value) ?? {};
  let most = 0;
  for (const sub of fieldsOn(w, field.selectionSet!, named)) {
    const subDef = named.getFields()[sub.name.value];
    const list = rec[sub.alias?.value ?? sub.name.value];
    if (!subDef || !Array.isArray(list)) continue;
    const subNamed = getNamedType(subDef.type);
    let sum = 0;
    for (const item of list) {
      const itemRec = asRec(item);
      if (!itemRec) continue;
      if (sub.name.value === "edges" && isObjectType(subNamed)) sum += actualSelection(w, sub.selectionSet, subNamed, itemRec);
      else if (sub.name.value === "nodes") sum += 1 + actualSelection(w, sub.selectionSet, subNamed as GraphQLCompositeType, itemRec);
    }
    most = Math.max(most, sum);
  }
  return CONNECTION_BASE + most;
}

function actualConnections(w: Walk, set: SelectionSetNode | undefined, type: GraphQLCompositeType, value: Rec): number {
  if (!set) return 0;
  let most = 0;
  for (const concrete of concreteTypes(w, type, set)) {
    let sum = 0;
    for (const field of fieldsOn(w, set, concrete)) {
      const def = concrete.getFields()[field.name.value];
      const v = value[field.alias?.value ?? field.name.value];
      if (!def || v == null) continue;
      const named = getNamedType(def.type);
      if (isConnection(named)) sum += actualField(w, field, def, v);
      else if (!isLeafType(named))
        for (const item of Array.isArray(v) ? v : [v]) sum += actualConnections(w, field.selectionSet, named as GraphQLCompositeType, asRec(item) ?? {});
    }
    most = Math.max(most, sum);
  }
  return most;
}

// ---- entry points ---------------------------------------------------------------------------

function walkFor(schema: GraphQLSchema, request: PreparedRequest, variables: Record<string, unknown>): Walk {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of request.document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  return { schema, fragments, variables };
}

const isMutation = (request: PreparedRequest) => request.operation.operation === "mutation";

/** requestedQueryCost: what Shopify charges before running the request. */
export function requestedCost(schema: GraphQLSchema, request: PreparedRequest, variables: Record<string, unknown>): number {
  const w = walkFor(schema, request, variables);
  let sum = 0;
  for (const field of fieldsOn(w, request.operation.selectionSet, request.rootType)) {
    const def = request.rootType.getFields()[field.name.value];
    if (!def) continue;
    if (isMutation(request)) {
      const named = getNamedType(def.type);
      sum += MUTATION_COST + (isLeafType(named) ? 0 : connectionsCost(w, field.selectionSet, named as GraphQLCompositeType));
    } else sum += fieldCost(w, field, def);
  }
  return sum;
}

/** actualQueryCost: the same rules applied to the answer's data. */
export function actualCost(schema: GraphQLSchema, request: PreparedRequest, variables: Record<string, unknown>, data: Rec | null | undefined): number {
  const w = walkFor(schema, request, variables);
  const root = data ?? {};
  let sum = 0;
  for (const field of fieldsOn(w, request.operation.selectionSet, request.rootType)) {
    const def = request.rootType.getFields()[field.name.value];
    if (!def) continue;
    const value = root[field.alias?.value ?? field.name.value];
    if (isMutation(request)) {
      const named = getNamedType(def.type);
      sum +=
        MUTATION_COST + (isLeafType(named) || value == null ? 0 : actualConnections(w, field.selectionSet, named as GraphQLCompositeType, asRec(value) ?? {}));
    } else sum += actualField(w, field, def, value);
  }
  return sum;
}
