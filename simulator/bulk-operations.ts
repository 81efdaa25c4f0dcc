// Bulk query operations as Shopify runs them (docs/simulator.md#bulk-operations):
// `bulkOperationRunQuery(query:, groupObjects:)` checks the inner query against the Admin schema
// and Shopify's bulk rules (at least one connection, at most five, nested at most two deep, one
// running bulk query per shop and app), answers a BulkOperation in CREATED, runs it in the
// background (RUNNING), then writes the result as JSONL (one line per object of every connection,
// a nested connection's objects carrying `__parentId`), serves it at the operation's `url`, marks
// it COMPLETED and sends `bulk_operations/finish`. The query costs the bucket nothing: only the
// mutation's own 10 points are charged (admin-graphql.ts). Held in memory, like the buckets.
import {
  getNamedType,
  isObjectType,
  isInterfaceType,
  parse,
  validate,
  type DocumentNode,
  type FieldNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type SelectionSetNode,
} from "graphql";
import { randomBytes } from "node:crypto";
import { executeRequest, type PreparedRequest } from "./graphql-exec";
import { withUnpagedConnections } from "./serialize";
import type { ShopState, UserError } from "./state";

export type BulkStatus = "CREATED" | "RUNNING" | "COMPLETED" | "FAILED" | "CANCELING" | "CANCELED" | "EXPIRED";

export interface BulkOperation {
  id: string;
  /** shop domain + API key: one running bulk query per shop and app. */
  bucketKey: string;
  shopDomain: string;
  query: string;
  groupObjects: boolean;
  status: BulkStatus;
  errorCode: string | null;
  createdAt: string;
  completedAt: string | null;
  objectCount: number;
  rootObjectCount: number;
  fileSize: number | null;
  /** Token of the JSONL file once COMPLETED (its url is /bulk-results/<token>.jsonl). */
  token: string | null;
}

/** What a test sets: hold operations RUNNING until released, and how long one runs. */
export interface BulkSettings {
  hold: boolean;
  runningMs: number;
}

const MAX_CONNECTIONS = 5;
const MAX_DEPTH = 2;
const invalid = (message: string): UserError => ({ field: ["query"], message, code: "INVALID" });

interface FieldAt {
  node: FieldNode;
  type: GraphQLCompositeType;
}

/** The fields a selection set selects on `type`, through fragments and inline fragments. */
function fieldsOf(doc: DocumentNode, sel: SelectionSetNode, schema: GraphQLSchema, type: GraphQLCompositeType, out: FieldAt[] = []): FieldAt[] {
  for (const s of sel.selections) {
    if (s.kind === "Field") out.push({ node: s, type });
    else if (s.kind === "InlineFragment") {
      const on = s.typeCondition ? (schema.getType(s.typeCondition.name.value) as GraphQLCompositeType) : type;
      fieldsOf(doc, s.selectionSet, schema, on, out);
    } else {
      const frag = doc.definitions.find((d) => d.kind === "FragmentDefinition" && d.name.value === s.name.value);
      if (frag?.kind === "FragmentDefinition")
        fieldsOf(doc, frag.selectionSet, schema, schema.getType(frag.typeCondition.name.value) as GraphQLCompositeType, out);
    }
  }
  return out;
}

const fieldType = (schema: GraphQLSchema, parent: GraphQLCompositeType, name: string) => {
  if (!isObjectType(parent) && !isInterfaceType(parent)) return undefined;
  const t = getNamedType(parent.getFields()[name]?.type);
  return t && (isObjectType(t) || isInterfaceType(t)) ? (t as GraphQLCompositeType) : undefined;
};
const isConnection = (t: GraphQLCompositeType | undefined) => !!t && t.name.endsWith("Connection") && isObjectType(t) && !!t.getFields().pageInfo;

/** The item selection of a connection field: `nodes { … }` or `edges { node { … } }`. */
function itemSelection(
  doc: DocumentNode,
  schema: GraphQLSchema,
  conn: FieldAt,
): { key: "nodes" | "edges"; responseKey: string; nodeKey: string; sel: SelectionSetNode; type: GraphQLCompositeType }[] {
  const connType = fieldType(schema, conn.type, conn.node.name.value)!;
  const out: ReturnType<typeof itemSelection> = [];
  for (const f of fieldsOf(doc, conn.node.selectionSet!, schema, connType)) {
    const name = f.node.name.value;
    const responseKey = f.node.alias?.value ?? name;
    const t = fieldType(schema, connType, name);
    if (name === "nodes" && t && f.node.selectionSet) out.push({ key: "nodes", responseKey, nodeKey: "", sel: f.node.selectionSet, type: t });
    if (name === "edges" && t && f.node.selectionSet) {
      for (const e of fieldsOf(doc, f.node.selectionSet, schema, t)) {
        const nt = fieldType(schema, t, e.node.name.value);
        if (e.node.name.value === "node" && nt && e.node.selectionSet)
          out.push({ key: "edges", responseKey, nodeKey: e.node.alias?.value ?? "node", sel: e.node.selectionSet, type: nt });
      }
    }
  }
  return out;
}

/** Shopify's refusals of a bulk query, as BulkOperationUserError (code INVALID). */
export function checkBulkQuery(schema: GraphQLSchema, query: string): { ok: true; doc: DocumentNode } | { ok: false; userErrors: UserError[] } {
  let doc: DocumentNode;
  try {
    doc = parse(query);
  } catch (err) {
    return { ok: false, userErrors: [invalid(`Invalid bulk query: ${(err as Error).message}`)] };
  }
  const errors = validate(schema, doc);
  if (errors.length) return { ok: false, userErrors: errors.map((e) => invalid(`Invalid bulk query: ${e.message}`)) };
  const ops = doc.definitions.filter((d) => d.kind === "OperationDefinition");
  if (ops.length !== 1) return { ok: false, userErrors: [invalid("Invalid bulk query: a bulk query has exactly one operation")] };
  if (ops[0].kind !== "OperationDefinition" || ops[0].operation !== "query") {
    return { ok: false, userErrors: [invalid("Invalid bulk query: bulkOperationRunQuery runs queries only; use bulkOperationRunMutation for mutations")] };
  }
  let connections = 0;
  const problems: string[] = [];
  const walk = (sel: SelectionSetNode, type: GraphQLCompositeType, depth: number, parentHasId: boolean) => {
    for (const f of fieldsOf(doc, sel, schema, type)) {
      const t = fieldType(schema, f.type, f.node.name.value);
      if (!f.node.selectionSet || !t) continue;
      if (isConnection(t)) {
        connections++;
        if (depth + 1 > MAX_DEPTH) problems.push(`Bulk queries cannot contain connections with a nesting depth greater than ${MAX_DEPTH}.`);
        if (depth >= 1 && !parentHasId) problems.push(`The parent of the nested connection '${f.node.name.value}' must select 'id'.`);
        for (const item of itemSelection(doc, schema, f)) {
          const hasId = fieldsOf(doc, item.sel, schema, item.type).some((x) => x.node.name.value === "id" && !x.node.alias);
          walk(item.sel, item.type, depth + 1, hasId);
        }
      } else {
        walk(f.node.selectionSet, t, depth, false);
      }
    }
  };
  walk(ops[0].selectionSet, schema.getQueryType()!, 0, false);
  if (connections === 0) problems.push("Bulk queries must contain at least one connection.");
  if (connections > MAX_CONNECTIONS) problems.push(`Bulk queries cannot contain more than ${MAX_CONNECTIONS} connections.`);
  if (problems.length) return { ok: false, userErrors: [...new Set(problems)].map((m) => invalid(`Invalid bulk query: ${m}`)) };
  return { ok: true, doc };
}

/**
 * The JSONL lines of an executed bulk query: every object of every connection, its nested
 * connections cut out and their objects emitted as lines of their own with `__parentId`
 * (right after their parent when grouped; after all parents otherwise, as Shopify may).
 */
export function jsonlLines(schema: GraphQLSchema, doc: DocumentNode, data: Record<string, unknown>, groupObjects: boolean) {
  const roots: string[][] = [];
  const later: string[] = [];
  let objects = 0;
  const emitConnection = (value: unknown, conn: FieldAt, parentId: string | null, sink: string[]) => {
    if (!value || typeof value !== "object") return;
    for (const item of itemSelection(doc, schema, conn)) {
      const list = (value as Record<string, unknown>)[item.responseKey];
      if (!Array.isArray(list)) continue;
      for (const entry of list) {
        const node = item.key === "edges" ? (entry as Record<string, unknown>)?.[item.nodeKey] : entry;
        if (node && typeof node === "object") emitNode(node as Record<string, unknown>, item.sel, item.type, parentId, sink);
      }
    }
  };
  const emitNode = (node: Record<string, unknown>, sel: SelectionSetNode, type: GraphQLCompositeType, parentId: string | null, sink: string[] | null) => {
    const line: Record<string, unknown> = {};
    const nested: [FieldAt, unknown][] = [];
    for (const f of fieldsOf(doc, sel, schema, type)) {
      const key = f.node.alias?.value ?? f.node.name.value;
      if (!(key in node)) continue;
      if (isConnection(fieldType(schema, f.type, f.node.name.value))) nested.push([f, node[key]]);
      else line[key] = node[key];
    }
    if (parentId) line.__parentId = parentId;
    objects++;
    const own = sink ?? [];
    own.push(JSON.stringify(line));
    if (!sink) roots.push(own);
    for (const [f, value] of nested) emitConnection(value, f, typeof node.id === "string" ? node.id : null, groupObjects ? own : later);
  };
  const op = doc.definitions.find((d) => d.kind === "OperationDefinition");
  if (op?.kind !== "OperationDefinition") return { lines: [] as string[], objects: 0, roots: 0 };
  for (const f of fieldsOf(doc, op.selectionSet, schema, schema.getQueryType()!)) {
    const key = f.node.alias?.value ?? f.node.name.value;
    if (!isConnection(fieldType(schema, f.type, f.node.name.value))) continue;
    const value = data[key];
    for (const item of itemSelection(doc, schema, f)) {
      const list = (value as Record<string, unknown> | null)?.[item.responseKey];
      if (!Array.isArray(list)) continue;
      for (const entry of list) {
        const node = item.key === "edges" ? (entry as Record<string, unknown>)?.[item.nodeKey] : entry;
        if (node && typeof node === "object") emitNode(node as Record<string, unknown>, item.sel, item.type, null, null);
      }
    }
  }
  return { lines: [...roots.flat(), ...later], objects, roots: roots.length };
}

/** What the simulator's core gives a bulk run: the schema, the query resolvers, a clock and the webhook. */
export interface BulkHost {
  schema: GraphQLSchema;
  rootValue: Record<string, unknown>;
  context: unknown;
  now: () => Date;
  shop: ShopState;
  /** Sends bulk_operations/finish for this shop. */
  finished: (op: BulkOperation) => void;
}

export class BulkOperations {
  private seq = 0;
  private readonly ops = new Map<string, BulkOperation>();
  private readonly files = new Map<string, string>();
  private readonly settings = new Map<string, BulkSettings>();
  private readonly pending = new Map<string, () => void>();
  /** How many bulk queries each shop-and-app ran (tests: "one bulk operation, not two"). */
  private readonly started = new Map<string, number>();

  settingsFor(bucketKey: string): BulkSettings {
    return this.settings.get(bucketKey) ?? { hold: false, runningMs: 200 };
  }

  configure(bucketKey: string, change: Partial<BulkSettings>): BulkSettings {
    const next = { ...this.settingsFor(bucketKey), ...change };
    this.settings.set(bucketKey, next);
    if (!next.hold) for (const [id, finish] of this.pending) if (this.ops.get(id)?.bucketKey === bucketKey) finish();
    return next;
  }

  get(id: string): BulkOperation | undefined {
    return this.ops.get(id);
  }

  /** The app's most recent bulk query on the shop (currentBulkOperation). */
  current(bucketKey: string): BulkOperation | undefined {
    let latest: BulkOperation | undefined;
    for (const op of this.ops.values()) if (op.bucketKey === bucketKey) latest = op;
    return latest;
  }

  list(bucketKey: string): BulkOperation[] {
    return [...this.ops.values()].filter((op) => op.bucketKey === bucketKey);
  }

  count(bucketKey: string): number {
    return this.started.get(bucketKey) ?? 0;
  }

  file(token: string): string | undefined {
    return this.files.get(token);
  }

  /** bulkOperationRunQuery: a new operation in CREATED, or Shopify's refusal. */
  start(bucketKey: string, query: string, groupObjects: boolean, host: BulkHost): { ok: true; op: BulkOperation } | { ok: false; userErrors: UserError[] } {
    const running = this.current(bucketKey);
    if (running && (running.status === "CREATED" || running.status === "RUNNING" || running.status === "CANCELING")) {
      return {
        ok: false,
        userErrors: [
          { field: null, message: `A bulk query operation for this app and shop is already in progress: ${running.id}.`, code: "OPERATION_IN_PROGRESS" },
        ],
      };
    }
    const checked = checkBulkQuery(host.schema, query);
    if (!checked.ok) return checked;
    const op: BulkOperation = {
      id: `gid://shopify/BulkOperation/${++this.seq + 7_000_000}`,
      bucketKey,
      shopDomain: host.shop.domain,
      query,
      groupObjects,
      status: "CREATED",
      errorCode: null,
      createdAt: host.now().toISOString(),
      completedAt: null,
      objectCount: 0,
      rootObjectCount: 0,
      fileSize: null,
      token: null,
    };
    this.ops.set(op.id, op);
    this.started.set(bucketKey, this.count(bucketKey) + 1);
    const { runningMs } = this.settingsFor(bucketKey);
    setTimeout(() => {
      op.status = "RUNNING";
      setTimeout(() => {
        const finish = () => {
          this.pending.delete(op.id);
          this.complete(op, checked.doc, host);
        };
        if (this.settingsFor(bucketKey).hold) this.pending.set(op.id, finish);
        else finish();
      }, runningMs);
    }, 0);
    return { ok: true, op };
  }

  private complete(op: BulkOperation, doc: DocumentNode, host: BulkHost): void {
    if (op.status !== "RUNNING") return;
    const prepared: PreparedRequest = {
      document: doc,
      operation: doc.definitions.find((d) => d.kind === "OperationDefinition")!,
      rootType: host.schema.getQueryType()!,
      rootFields: [],
    } as PreparedRequest;
    const result = withUnpagedConnections(() => executeRequest(host.schema, prepared, host.rootValue, host.context, {}));
    if (!result.data || result.errors?.length) {
      op.status = "FAILED";
      op.errorCode = "INTERNAL_SERVER_ERROR";
    } else {
      const { lines, objects, roots } = jsonlLines(host.schema, doc, result.data, op.groupObjects);
      const text = lines.length ? `${lines.join("\n")}\n` : "";
      op.token = randomBytes(12).toString("hex");
      this.files.set(op.token, text);
      op.objectCount = objects;
      op.rootObjectCount = roots;
      op.fileSize = Buffer.byteLength(text);
      op.status = "COMPLETED";
    }
    op.completedAt = host.now().toISOString();
    host.finished(op);
  }

  reset(): void {
    this.ops.clear();
    this.files.clear();
    this.settings.clear();
    this.pending.clear();
    this.started.clear();
  }
}

/** The BulkOperation object as the Admin API answers it. */
export function gqlBulkOperation(op: BulkOperation, publicUrl: string) {
  const url = op.status === "COMPLETED" && op.token && op.fileSize ? `${publicUrl}/bulk-results/${op.token}.jsonl` : null;
  return {
    __typename: "BulkOperation",
    id: op.id,
    status: op.status,
    errorCode: op.errorCode,
    createdAt: op.createdAt,
    completedAt: op.completedAt,
    objectCount: String(op.objectCount),
    rootObjectCount: String(op.rootObjectCount),
    fileSize: op.fileSize === null ? null : String(op.fileSize),
    url,
    partialDataUrl: null,
    query: op.query,
    type: "QUERY",
  };
}

/** The bulk_operations/finish webhook's body, as Shopify sends it. */
export const bulkFinishPayload = (op: BulkOperation) => ({
  admin_graphql_api_id: op.id,
  completed_at: op.completedAt,
  created_at: op.createdAt,
  error_code: op.errorCode ? op.errorCode.toLowerCase() : null,
  status: op.status.toLowerCase(),
  type: "query",
});
