// The simulator executes GraphQL against Shopify's schema (docs/decisions/030-schema-executed-simulator.md):
// raw documents over real HTTP, the way any client (the adapter, @shopify/shopify-api, curl)
// reaches it. Wrong documents are refused as Shopify refuses them; valid ones are answered with
// exactly their selection sets, aliases, fragments, literal arguments and variables.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHOPIFY_API_VERSION } from "../../../app/platform/api-version";
import { startSimulator, type RunningSimulator } from "../../../simulator/server";

const SHOP = "exec-test.myshopify.com";
const dir = mkdtempSync(join(tmpdir(), "sim-exec-"));
let sim: RunningSimulator;
let token: string;
let shopNumericId: number;

interface GqlError {
  message: string;
  path?: (string | number)[];
  extensions: { code: string };
}
interface GqlBody {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data?: Record<string, any> | null;
  errors?: GqlError[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function control<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as T };
}

async function admin(
  query: string,
  variables?: Record<string, unknown>,
  version = SHOPIFY_API_VERSION,
): Promise<{ status: number; body: GqlBody; headers: Headers }> {
  const res = await fetch(`${sim.url}/shops/${SHOP}/admin/api/${version}/graphql.json`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-shopify-access-token": token },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as GqlBody, headers: res.headers };
}

async function newContract(body: Record<string, unknown> = {}) {
  return (
    await control<{ id: string; nextBillingDate: string; skippedCycles: number[]; status: string }>("POST", `/_sim/shops/${SHOP}/contracts`, {
      webhooks: false,
      ...body,
    })
  ).json;
}

const stored = async (id: string) =>
  (await control<{ status: string; skippedCycles: number[]; nextBillingDate: string }>("GET", `/_sim/shops/${SHOP}/contracts/${encodeURIComponent(id)}`)).json;
const codes = (body: GqlBody) => (body.errors ?? []).map((e) => e.extensions.code);

beforeAll(async () => {
  sim = await startSimulator({
    port: Number(process.env.SIMULATOR_PORT),
    stateFile: join(dir, "simulator.json"),
    appUrl: "http://127.0.0.1:9", // no webhook subscriber needed here
    apiKey: "dev-api-key",
    apiSecret: "dev-api-secret-not-for-production",
    appTomlPath: "shopify.app.toml",
    webhookRetryDelaysMs: [],
  });
  const shop = (await control<{ accessToken: string; numericId: number }>("POST", "/_sim/shops", { shop: SHOP })).json;
  token = shop.accessToken;
  shopNumericId = shop.numericId;
});

afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("documents Shopify would refuse are refused, and nothing runs", () => {
  it("the old skip document (billingCycleSelector) is refused; the contract keeps its cycles", async () => {
    const c = await newContract({ status: "ACTIVE" });
    const { status, body } = await admin(
      `mutation BillingCycleSkip($billingCycleSelector: SubscriptionBillingCycleInput!) {
        subscriptionBillingCycleSkip(billingCycleSelector: $billingCycleSelector) {
          billingCycle { cycleIndex skipped }
          userErrors { field message code }
        }
      }`,
      { billingCycleSelector: { contractId: c.id, selector: { index: 1 } } },
    );
    expect(status).toBe(200);
    expect(body.data).toBeUndefined();
    expect(codes(body)).toEqual(expect.arrayContaining(["argumentNotAccepted", "missingRequiredArguments"]));
    expect((await stored(c.id)).skippedCycles).toEqual([]);
    const ops = (await control<{ outcome: string }[]>("GET", `/_sim/shops/${SHOP}/operations?outcome=graphql_errors`)).json;
    expect(ops.length).toBeGreaterThan(0);
  });

  it("the right skip document (billingCycleInput, here as a literal argument) skips the cycle", async () => {
    const c = await newContract({ status: "ACTIVE" });
    const { body } = await admin(`mutation {
      subscriptionBillingCycleSkip(billingCycleInput: { contractId: "${c.id}", selector: { index: 1 } }) {
        billingCycle { cycleIndex skipped status cycleEndAt sourceContract { id } }
        userErrors { field message code }
      }
    }`);
    expect(body).toEqual({
      data: {
        subscriptionBillingCycleSkip: {
          billingCycle: { cycleIndex: 1, skipped: true, status: "UNBILLED", cycleEndAt: c.nextBillingDate, sourceContract: { id: c.id } },
          userErrors: [],
        },
      },
      extensions: expect.anything(),
    });
    expect((await stored(c.id)).skippedCycles).toEqual([1]);
  });

  it("a field Shopify lacks is undefinedField; a missing required argument is missingRequiredArguments", async () => {
    const c = await newContract({ status: "ACTIVE" });
    const unknownField = await admin(`query { subscriptionContract(id: "${c.id}") { id nextChargeDate } }`);
    expect(unknownField.body.data).toBeUndefined();
    expect(codes(unknownField.body)).toEqual(["undefinedField"]);
    expect(unknownField.body.errors![0].message).toContain("nextChargeDate");

    const missingArg = await admin(`mutation { subscriptionContractPause { contract { id } userErrors { field message } } }`);
    expect(codes(missingArg.body)).toEqual(["missingRequiredArguments"]);
    expect((await stored(c.id)).status).toBe("ACTIVE");
  });

  it("variables must fit their declared types (a null ID!) and be declared", async () => {
    const nullVar = await admin(`query C($id: ID!) { subscriptionContract(id: $id) { id } }`, { id: null });
    expect(nullVar.body.data).toBeUndefined();
    expect(codes(nullVar.body)).toEqual(["INVALID_VARIABLE"]);
    const undeclared = await admin(`query { subscriptionContract(id: $id) { id } }`, { id: "gid://shopify/SubscriptionContract/1" });
    expect(codes(undeclared.body)).toEqual(["variableNotDefined"]);
  });

  it("a syntax error is a parse error", async () => {
    const { body } = await admin(`query { shop { id }`);
    expect(codes(body)).toEqual(["parseError"]);
  });

  it("an API version other than the targeted one is not simulated", async () => {
    const { status, body } = await admin(`query { shop { id } }`, undefined, "2025-07");
    expect(status).toBe(404);
    expect(JSON.stringify(body)).toContain(SHOPIFY_API_VERSION);
  });
});

describe("valid documents are executed as written", () => {
  it("aliases, fragments, __typename and the selection set shape the answer", async () => {
    const a = await newContract({ status: "ACTIVE" });
    const b = await newContract({ status: "PAUSED" });
    const { body, headers } = await admin(
      `query Two($a: ID!, $b: ID!) {
        first: subscriptionContract(id: $a) { ...Brief }
        second: subscriptionContract(id: $b) { __typename status }
      }
      fragment Brief on SubscriptionContract { id state: status }`,
      { a: a.id, b: b.id },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({ first: { id: a.id, state: "ACTIVE" }, second: { __typename: "SubscriptionContract", status: "PAUSED" } });
    expect(headers.get("x-shopify-api-version")).toBe(SHOPIFY_API_VERSION);
  });

  it("a mutation with aliases runs each root field, in order", async () => {
    const c = await newContract({ status: "ACTIVE" });
    const { body } = await admin(
      `mutation($id: ID!) {
        p: subscriptionContractPause(subscriptionContractId: $id) { contract { status } }
        a: subscriptionContractActivate(subscriptionContractId: $id) { contract { status } userErrors { code } }
      }`,
      { id: c.id },
    );
    expect(body.data).toEqual({ p: { contract: { status: "PAUSED" } }, a: { contract: { status: "ACTIVE" }, userErrors: [] } });
  });

  it("connections need first or last, as on Shopify, and page with opaque cursors", async () => {
    const noSize = await admin(`query { subscriptionContracts { nodes { id } } }`);
    expect(noSize.body.errors?.[0].message).toBe("you must provide one of first or last");
    const page1 = await admin(`query { subscriptionContracts(first: 2) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`);
    const conn = page1.body.data!.subscriptionContracts;
    expect(conn.edges).toHaveLength(2);
    expect(conn.pageInfo.hasNextPage).toBe(true);
    const page2 = await admin(`query($after: String) { subscriptionContracts(first: 2, after: $after) { nodes { id } } }`, { after: conn.pageInfo.endCursor });
    expect(page2.body.data!.subscriptionContracts.nodes[0].id).not.toBe(conn.edges[1].node.id);
  });

  it("a field in Shopify's schema that the simulator does not model says so (NOT_SIMULATED), never a silent null", async () => {
    const c = await newContract();
    const { body } = await admin(`query { subscriptionContract(id: "${c.id}") { id note } }`);
    expect(codes(body)).toEqual(["NOT_SIMULATED"]);
    expect(body.errors![0].message).toContain("SubscriptionContract.note");
    expect(body.errors![0].path).toEqual(["subscriptionContract", "note"]);
  });

  it("refusals are userErrors whose codes are Shopify's enum values", async () => {
    const c = await newContract({ status: "CANCELLED" });
    const { body } = await admin(
      `mutation($id: ID!) { subscriptionContractPause(subscriptionContractId: $id) { contract { id } userErrors { field code } } }`,
      { id: c.id },
    );
    expect(body.data).toEqual({ subscriptionContractPause: { contract: null, userErrors: [{ field: null, code: "CONTRACT_TERMINATED" }] } });
  });
});

describe("failure injection goes through the schema too", () => {
  it("an injected userErrors answer follows the caller's selection set and alias", async () => {
    const c = await newContract({ status: "ACTIVE" });
    const injected = await control("POST", `/_sim/shops/${SHOP}/failures`, {
      operation: "subscriptionContractCancel",
      userErrors: [{ field: ["subscriptionContractId"], message: "Bad id", code: "INVALID" }],
    });
    expect(injected.status).toBe(200);
    const { body } = await admin(
      `mutation($id: ID!) { c: subscriptionContractCancel(subscriptionContractId: $id) { contract { id } userErrors { message code } } }`,
      { id: c.id },
    );
    expect(body.data).toEqual({ c: { contract: null, userErrors: [{ message: "Bad id", code: "INVALID" }] } });
    expect((await stored(c.id)).status).toBe("ACTIVE");
  });

  it("the control API refuses failures Shopify could not produce: unknown root fields, codes outside the enum", async () => {
    const badOp = await control("POST", `/_sim/shops/${SHOP}/failures`, { operation: "subscriptionContractPauze", status: 503 });
    expect(badOp.status).toBe(400);
    const badCode = await control("POST", `/_sim/shops/${SHOP}/failures`, {
      operation: "subscriptionContractPause",
      userErrors: [{ field: null, message: "x", code: "BILLING_IN_PROGRESS" }],
    });
    expect(badCode.status).toBe(400);
    expect(JSON.stringify(badCode.json)).toContain("CONTRACT_TERMINATED");
  });
});

describe("Customer Account API", () => {
  async function customerQuery(query: string, accessToken: string) {
    const res = await fetch(`${sim.url}/shopify.com/${shopNumericId}/account/customer/api/${SHOPIFY_API_VERSION}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: accessToken },
      body: JSON.stringify({ query }),
    });
    return { status: res.status, body: (await res.json()) as GqlBody };
  }

  it("answers customer { id } for the token's customer, refuses unknown fields, and says what is not simulated", async () => {
    const customer = (await control<{ id: string }>("POST", `/_sim/shops/${SHOP}/customers`, {})).json;
    const { accessToken } = (await control<{ accessToken: string }>("POST", `/_sim/shops/${SHOP}/customer-access-tokens`, { customerId: customer.id })).json;
    expect((await customerQuery(`query { me: customer { id } }`, accessToken)).body).toEqual({ data: { me: { id: customer.id } } });
    expect(codes((await customerQuery(`query { customer { nope } }`, accessToken)).body)).toEqual(["undefinedField"]);
    expect(codes((await customerQuery(`query { customer { firstName } }`, accessToken)).body)).toEqual(["NOT_SIMULATED"]);
    expect((await customerQuery(`query { customer { id } }`, "shcat_wrong")).status).toBe(401);
  });
});
