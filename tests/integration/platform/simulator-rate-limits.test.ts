// The simulator's Admin API is limited as Shopify's is (docs/decisions/095-simulated-query-cost.md):
// a leaky bucket per shop and app sized by the shop's plan, each answer's cost and throttleStatus,
// THROTTLED when the bucket cannot pay (nothing runs), MAX_COST_EXCEEDED over 1,000 points.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SHOPIFY_API_VERSION } from "../../../app/platform/api-version";
import { CONTRACT_GET } from "../../../app/platform/graphql/contract-get";
import { CONTRACT_PAUSE } from "../../../app/platform/graphql/contract-pause";
import { CONTRACTS_LIST, CONTRACTS_LIST_MAX } from "../../../app/platform/graphql/contracts-list";
import { createGraphqlAdapter } from "../../../app/platform/graphql/adapter.server";
import { installSimulatorRouting } from "../../../app/platform/routing.server";
import { startSimulator, type RunningSimulator } from "../../../simulator/server";
import { SimulatorControl } from "../../../simulator/control-client";

const SHOP = "cost-test.myshopify.com";
const dir = mkdtempSync(join(tmpdir(), "sim-cost-"));
let sim: RunningSimulator;
let control: SimulatorControl;
let token: string;

interface Cost {
  requestedQueryCost: number;
  actualQueryCost: number | null;
  throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}
interface Answer {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions: Record<string, unknown> }[];
  extensions?: { cost: Cost };
}

async function admin(query: string, variables: Record<string, unknown> = {}): Promise<Answer> {
  const res = await fetch(`${sim.url}/shops/${SHOP}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-shopify-access-token": token },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as Answer;
}

const newContract = () => control.call<{ id: string; status: string }>("POST", `${control.shop(SHOP)}/contracts`, { webhooks: false });

beforeAll(async () => {
  sim = await startSimulator({
    port: Number(process.env.SIMULATOR_PORT),
    stateFile: join(dir, "simulator.json"),
    appUrl: "http://127.0.0.1:9",
    apiKey: "dev-api-key",
    apiSecret: "dev-api-secret-not-for-production",
    appTomlPath: "shopify.app.toml",
    webhookRetryDelaysMs: [],
  });
  control = new SimulatorControl(sim.url);
  token = (await control.installShop({ shop: SHOP })).accessToken;
  installSimulatorRouting(sim.url);
});

afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await control.rateLimit(SHOP, { plan: "standard", currentlyAvailable: null, paused: false });
});

describe("each answer carries its cost and the bucket's state", () => {
  it("a standard shop's bucket holds 2,000 points and restores 100 a second; a read is charged its actual cost", async () => {
    const c = await newContract();
    await control.rateLimit(SHOP, { paused: true });
    const answer = await admin(CONTRACT_GET, { id: c.id });
    const cost = answer.extensions!.cost;
    expect(cost.requestedQueryCost).toBe(160);
    expect(cost.actualQueryCost).toBeGreaterThan(0);
    expect(cost.actualQueryCost).toBeLessThan(160);
    expect(cost.throttleStatus.maximumAvailable).toBe(2000);
    expect(cost.throttleStatus.restoreRate).toBe(100);
    // Full before and held still: exactly the actual cost is gone.
    expect(cost.throttleStatus.currentlyAvailable).toBe(2000 - cost.actualQueryCost!);
  });

  it.each([
    ["advanced", 4000, 200],
    ["plus", 20000, 1000],
    ["enterprise", 40000, 2000],
  ] as const)("a %s shop's bucket holds %i points and restores %i a second", async (plan, size, rate) => {
    await control.rateLimit(SHOP, { plan });
    const { throttleStatus } = (await admin(`{ shop { id } }`)).extensions!.cost;
    expect(throttleStatus).toMatchObject({ maximumAvailable: size, restoreRate: rate });
  });

  it("the bucket restores at its rate", async () => {
    await control.rateLimit(SHOP, { currentlyAvailable: 0 });
    await new Promise((r) => setTimeout(r, 300));
    const { currentlyAvailable } = await control.rateLimit(SHOP);
    expect(currentlyAvailable).toBeGreaterThanOrEqual(25);
    expect(currentlyAvailable).toBeLessThanOrEqual(60);
  });
});

describe("refusals in Shopify's shapes", () => {
  it("a request the bucket cannot pay is THROTTLED and runs nothing", async () => {
    const c = await newContract();
    await control.rateLimit(SHOP, { currentlyAvailable: 5, paused: true });
    const answer = await admin(CONTRACT_PAUSE, { subscriptionContractId: c.id });
    expect(answer.data).toBeUndefined();
    expect(answer.errors).toEqual([{ message: "Throttled", extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" } }]);
    expect(answer.extensions!.cost).toMatchObject({
      requestedQueryCost: 10,
      actualQueryCost: null,
      throttleStatus: { maximumAvailable: 2000, restoreRate: 100 },
    });
    expect(answer.extensions!.cost.throttleStatus.currentlyAvailable).toBe(5);
    expect((await control.getContract(SHOP, c.id)).status).toBe("ACTIVE");
  });

  it("a document over 1,000 points is MAX_COST_EXCEEDED, whatever the bucket holds, and costs nothing", async () => {
    const answer = await admin(CONTRACTS_LIST, { first: CONTRACTS_LIST_MAX + 1 });
    expect(answer.data).toBeUndefined();
    const cost = 2 + 7 * 160;
    expect(answer.errors).toHaveLength(1);
    expect(answer.errors![0].message).toMatch(new RegExp(`^Query cost is ${cost}, which exceeds the single query max cost limit \\(1000\\)\\.`));
    expect(answer.errors![0].extensions).toEqual({
      code: "MAX_COST_EXCEEDED",
      cost,
      maxCost: 1000,
      documentation: "https://shopify.dev/api/usage/rate-limits",
    });
    expect(answer.extensions!.cost.throttleStatus.currentlyAvailable).toBe(2000);
  });

  it("the adapter waits out a real THROTTLED (the bucket refills) and the write lands once", async () => {
    const c = await newContract();
    await control.rateLimit(SHOP, { currentlyAvailable: 0 });
    const port = createGraphqlAdapter(SHOP, token);
    await expect(port.pauseContract(c.id)).resolves.toMatchObject({ status: "PAUSED" });
    const calls = (await control.operations(SHOP, { operation: "subscriptionContractPause" })).filter((o) => o.variables.subscriptionContractId === c.id);
    expect(calls.filter((o) => o.outcome === "ok")).toHaveLength(1);
  });
});
