// Bulk query operations (docs/decisions/097-bulk-reads.md): start one with bulkOperationRunQuery,
// then read it by id (polled) or as the app's newest one (after a restart, to find one already
// running). Its JSONL result is downloaded by ../bulk-results.server.ts.
import { assertNoUserErrors, PlatformError } from "../errors";
import type { PlatformBulkOperation } from "../port";
import type { GqlUserError } from "./contract-fields";

const BULK_FIELDS = /* GraphQL */ `
  id
  status
  errorCode
  createdAt
  completedAt
  objectCount
  rootObjectCount
  url
  query
`;

// groupObjects: each object's nested objects follow it in the file, so a reader can apply one
// root object at a time and checkpoint between them (Shopify: slower to produce, same cost).
export const BULK_OPERATION_RUN_QUERY = /* GraphQL */ `
  mutation BulkOperationRunQuery($query: String!) {
    bulkOperationRunQuery(query: $query, groupObjects: true) {
      bulkOperation { ${BULK_FIELDS} }
      userErrors { field message code }
    }
  }
`;

export const BULK_OPERATION_GET = /* GraphQL */ `
  query BulkOperationGet($id: ID!) {
    node(id: $id) {
      ... on BulkOperation { ${BULK_FIELDS} }
    }
  }
`;

// currentBulkOperation is deprecated in this version: the app's newest bulk query is the first of
// bulkOperations, which Shopify lists newest first by default.
export const CURRENT_BULK_OPERATION = /* GraphQL */ `
  query CurrentBulkOperation {
    bulkOperations(first: 1, query: "operation_type:query") {
      nodes { ${BULK_FIELDS} }
    }
  }
`;

interface GqlBulkOperation {
  id: string;
  status: PlatformBulkOperation["status"];
  errorCode: string | null;
  createdAt: string;
  completedAt: string | null;
  objectCount: string | number;
  rootObjectCount: string | number;
  url: string | null;
  query: string;
}

export interface BulkOperationRunQueryResult {
  bulkOperationRunQuery: { bulkOperation: GqlBulkOperation | null; userErrors: GqlUserError[] };
}
export interface BulkOperationGetResult {
  node: GqlBulkOperation | Record<string, never> | null;
}
export interface CurrentBulkOperationResult {
  bulkOperations: { nodes: GqlBulkOperation[] };
}

const mapBulk = (op: GqlBulkOperation): PlatformBulkOperation => ({
  id: op.id,
  status: op.status,
  errorCode: op.errorCode,
  createdAt: op.createdAt,
  completedAt: op.completedAt,
  objectCount: Number(op.objectCount),
  rootObjectCount: Number(op.rootObjectCount),
  url: op.url,
  query: op.query,
});

/** The started operation; OPERATION_IN_PROGRESS and an invalid query are PlatformErrors with that code. */
export function mapBulkOperationRunQuery(r: BulkOperationRunQueryResult): PlatformBulkOperation {
  assertNoUserErrors(r.bulkOperationRunQuery.userErrors);
  const op = r.bulkOperationRunQuery.bulkOperation;
  if (!op) throw new PlatformError("unavailable", "bulkOperationRunQuery returned neither bulkOperation nor userErrors");
  return mapBulk(op);
}

export const mapBulkOperationGet = (r: BulkOperationGetResult): PlatformBulkOperation | null =>
  r.node && "id" in r.node ? mapBulk(r.node as GqlBulkOperation) : null;

export const mapCurrentBulkOperation = (r: CurrentBulkOperationResult): PlatformBulkOperation | null =>
  r.bulkOperations.nodes[0] ? mapBulk(r.bulkOperations.nodes[0]) : null;
