// The simulator's bulk query operations answer as Shopify's do (docs/decisions/097-bulk-reads.md,
// docs/simulator.md#bulk-operations): bulkOperationRunQuery returns a BulkOperation in CREATED,
// refuses a second one while it runs (OPERATION_IN_PROGRESS) and an invalid bulk query (INVALID),
// the operation is read through currentBulkOperation and node(id:), its url serves JSONL with
// `__parentId` on nested objects, the query costs the bucket only the mutation's 10 points, and
// bulk_operations/finish is sent, signed, when it ends.
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHOPIFY_API_VERSION } from "../../../app/platform/api-version";
import { BULK_OPERATION_GET, BULK_OPERATION_RUN_QUERY, CURRENT_BULK_OPERATION } from "../../../app/platform/graphql/bulk-operations";
import { CONTRACTS_BULK_QUERY } from "../../../app/platform/graphql/contracts-bulk";
import { startSimulator, type RunningSimulator } from "../../../simulator/server";
import { SimulatorControl } from "../../../simulator/control-client";
import { signWebhook } from "../../../simulator/webhooks";

const SHOP = "bulk-test.myshopify.com";
const SECRET = "dev-api-secret-not-for-production";
const dir = mkdtempSync(join(tmpdir(), "sim-bulk-"));
let sim: RunningSimulator;
let control: SimulatorControl;
let token: string;
let receiver: Server;
const received: { topic: string; hmac: string; body: string }[] = [];
let onWebhook: (() => void) | null = null;

interface Answer {
  data?: Record<string, Record<string, unknown> | null> | null;
  errors?: { message: string; extensions: Record<string, unknown> }[];
  extensions?: { cost: { requestedQueryCost: number; actualQueryCost: number } };
}

async function admin(query: string, variables: Record<string, unknown> = {}): Promise<Answer> {
  const res = await fetch(`${sim.url}/shops/${SHOP}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-shopify-access-token": token },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as Answer;
}

const run = async (query: string) =>
  (await admin(BULK_OPERATION_RUN_QUERY, { query })).data!.bulkOperationRunQuery as {
    bulkOperation: { id: string; status: string; url: string | null } | null;
    userErrors: { field: string[] | null; message: string; code: string }[];
  };

/** The status of the newest bulk query in a CURRENT_BULK_OPERATION answer (bulkOperations, newest first). */
const newest = (a: Answer) => (a.data!.bulkOperations as { nodes: { status: string }[] }).nodes[0]?.status ?? null;

const finishWebhook = () => new Promise<void>((resolve) => (onWebhook = resolve));

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      received.push({ topic: String(req.headers["x-shopify-topic"]), hmac: String(req.headers["x-shopify-hmac-sha256"]), body });
      res.writeHead(200).end();
      if (req.headers["x-shopify-topic"] === "bulk_operations/finish") onWebhook?.();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  sim = await startSimulator({
    port: Number(process.env.SIMULATOR_PORT),
    stateFile: join(dir, "simulator.json"),
    appUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
    apiKey: "dev-api-key",
    apiSecret: SECRET,
    appTomlPath: "shopify.app.toml",
    webhookRetryDelaysMs: [],
  });
  control = new SimulatorControl(sim.url);
  token = (await control.installShop({ shop: SHOP })).accessToken;
  // 30 contracts of this app, 3 of another app's (never in this app's results), two lines each.
  const product = await control.call<{ variants: { id: string }[] }>("POST", `${control.shop(SHOP)}/products`, {
    title: "Coffee",
    variants: [{ price: "10.00" }],
  });
  const line = { variantId: product.variants[0].id, quantity: 1, price: "10.00" };
  await control.call("POST", `${control.shop(SHOP)}/contracts/bulk`, { count: 30, template: { lines: [line, { ...line, quantity: 2 }] } });
  await control.call("POST", `${control.shop(SHOP)}/contracts/bulk`, { count: 3, template: { app: "other" } });
});

afterAll(async () => {
  await sim?.close();
  await new Promise<void>((r) => receiver.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

describe("bulk query operations in the simulator", () => {
  it("runs the reconcile's query: CREATED, one at a time, then COMPLETED with a JSONL file of contracts and their lines", async () => {
    await control.bulkOperations(SHOP, { hold: true });
    const started = await admin(BULK_OPERATION_RUN_QUERY, { query: CONTRACTS_BULK_QUERY });
    const payload = started.data!.bulkOperationRunQuery as {
      bulkOperation: { id: string; status: string; url: null; objectCount: string };
      userErrors: unknown[];
    };
    expect(payload.userErrors).toEqual([]);
    expect(payload.bulkOperation).toMatchObject({ status: "CREATED", url: null, objectCount: "0" });
    expect(payload.bulkOperation.id).toMatch(/^gid:\/\/shopify\/BulkOperation\/\d+$/);
    // A mutation's 10 points, whatever the query would cost run directly.
    expect(started.extensions!.cost.actualQueryCost).toBe(10);

    const second = await run(CONTRACTS_BULK_QUERY);
    expect(second.bulkOperation).toBeNull();
    expect(second.userErrors).toEqual([
      {
        field: null,
        message: `A bulk query operation for this app and shop is already in progress: ${payload.bulkOperation.id}.`,
        code: "OPERATION_IN_PROGRESS",
      },
    ]);

    await expect.poll(async () => newest(await admin(CURRENT_BULK_OPERATION))).toBe("RUNNING");
    const finished = finishWebhook();
    await control.bulkOperations(SHOP, { hold: false });
    await finished;

    const op = (await admin(BULK_OPERATION_GET, { id: payload.bulkOperation.id })).data!.node as Record<string, string>;
    expect(op).toMatchObject({ id: payload.bulkOperation.id, status: "COMPLETED", errorCode: null, objectCount: "90", rootObjectCount: "30" });
    expect(op.query).toBe(CONTRACTS_BULK_QUERY);
    const res = await fetch(op.url);
    expect(res.status).toBe(200);
    const rows = (await res.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows).toHaveLength(90);
    const contracts = rows.filter((r) => !("__parentId" in r));
    expect(contracts).toHaveLength(30);
    // The nested connection is cut out of its parent; each line follows its contract (groupObjects).
    expect(contracts[0]).not.toHaveProperty("lines");
    expect(contracts[0]).toMatchObject({ status: "ACTIVE", customer: { id: expect.stringMatching(/^gid:\/\/shopify\/Customer\//) } });
    expect(rows[1]).toMatchObject({ __parentId: rows[0].id, quantity: 1, currentPrice: { amount: "10.00" } });
    expect(rows[2]).toMatchObject({ __parentId: rows[0].id, quantity: 2 });
    expect(new Set(contracts.map((c) => c.id)).size).toBe(30);

    const hook = received.find((r) => r.topic === "bulk_operations/finish")!;
    expect(hook.hmac).toBe(signWebhook(hook.body, SECRET));
    expect(JSON.parse(hook.body)).toEqual({
      admin_graphql_api_id: payload.bulkOperation.id,
      completed_at: op.completedAt,
      created_at: op.createdAt,
      error_code: null,
      status: "completed",
      type: "query",
    });
  });

  it("refuses what Shopify refuses in a bulk query, with BulkOperationUserError INVALID", async () => {
    const noConnection = await run(`query { shop { name } }`);
    expect(noConnection.bulkOperation).toBeNull();
    expect(noConnection.userErrors).toEqual([
      { field: ["query"], message: "Invalid bulk query: Bulk queries must contain at least one connection.", code: "INVALID" },
    ]);

    const unknownField = await run(`query { subscriptionContracts { edges { node { id notAField } } } }`);
    expect(unknownField.userErrors[0]).toMatchObject({ field: ["query"], code: "INVALID" });
    expect(unknownField.userErrors[0].message).toMatch(/^Invalid bulk query: .*notAField/);

    const tooDeep = await run(`query { customers { edges { node { id subscriptionContracts { edges { node { id lines { edges { node { id } } } } } } } } } }`);
    expect(tooDeep.userErrors.map((e) => e.message)).toContain(
      "Invalid bulk query: Bulk queries cannot contain connections with a nesting depth greater than 2.",
    );

    const noParentId = await run(`query { subscriptionContracts { edges { node { status lines { edges { node { id } } } } } } }`);
    expect(noParentId.userErrors.map((e) => e.message)).toContain("Invalid bulk query: The parent of the nested connection 'lines' must select 'id'.");

    const mutation = await run(
      `mutation { subscriptionContractPause(subscriptionContractId: "gid://shopify/SubscriptionContract/1") { userErrors { message } } }`,
    );
    expect(mutation.userErrors[0]).toMatchObject({ field: ["query"], code: "INVALID" });
    // None of them started an operation.
    expect((await control.bulkOperations(SHOP)).started).toBe(1);
  });

  it("answers an empty result with COMPLETED and no url, and node(id:) of another type as not simulated", async () => {
    const other = "bulk-empty.myshopify.com";
    const otherToken = (await control.installShop({ shop: other })).accessToken;
    const call = async (query: string, variables: Record<string, unknown> = {}) =>
      (await (
        await fetch(`${sim.url}/shops/${other}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-shopify-access-token": otherToken },
          body: JSON.stringify({ query, variables }),
        })
      ).json()) as Answer;
    const started = (await call(BULK_OPERATION_RUN_QUERY, { query: CONTRACTS_BULK_QUERY })).data!.bulkOperationRunQuery as { bulkOperation: { id: string } };
    await expect.poll(async () => newest(await call(CURRENT_BULK_OPERATION))).toBe("COMPLETED");
    const op = (await call(BULK_OPERATION_GET, { id: started.bulkOperation.id })).data!.node!;
    expect(op).toMatchObject({ status: "COMPLETED", url: null, objectCount: "0" });
    // Another shop's operation is not this shop's to read.
    expect((await admin(BULK_OPERATION_GET, { id: started.bulkOperation.id })).data!.node).toBeNull();
    const notBulk = await admin(`query { node(id: "gid://shopify/Customer/1") { id } }`);
    expect(notBulk.errors![0].extensions.code).toBe("NOT_SIMULATED");
  });
});
