// The selling plan group writes through the real GraphQL adapter against the simulator over
// HTTP (docs/decisions/111-selling-plan-writes.md): what is stored, the webhooks sent, and each of
// Shopify's refusals with its code and the input field it names.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSimulator, type RunningSimulator } from "../../../simulator/server";
import { createGraphqlAdapter } from "../../../app/platform/graphql/adapter.server";
import { installSimulatorRouting, uninstallSimulatorRouting } from "../../../app/platform/routing.server";
import { PlatformError } from "../../../app/platform/errors";
import type { PlanGroupWrite, PlanWrite, ShopifyPort } from "../../../app/platform/port";

const SECRET = process.env.SHOPIFY_API_SECRET ?? "dev-api-secret-not-for-production";
const SHOP = "plan-writes.myshopify.com";
const dir = mkdtempSync(join(tmpdir(), "sim-plans-"));
const received: { headers: IncomingHttpHeaders; raw: string }[] = [];
let receiver: Server;
let sim: RunningSimulator;
let port: ShopifyPort;
let product: { id: string; variantIds: string[] };

async function control<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function rejection(p: Promise<unknown>): Promise<PlatformError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof PlatformError) return err;
    throw err;
  }
  throw new Error("expected a PlatformError");
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  sim = await startSimulator({
    port: Number(process.env.SIMULATOR_PORT),
    stateFile: join(dir, "simulator.json"),
    appUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
    apiKey: process.env.SHOPIFY_API_KEY ?? "dev-api-key",
    apiSecret: SECRET,
    appTomlPath: "shopify.app.toml",
    webhookRetryDelaysMs: [20],
  });
  installSimulatorRouting(sim.url);
  const shop = await control<{ accessToken: string }>("POST", "/_sim/shops", { shop: SHOP });
  port = createGraphqlAdapter(SHOP, shop.accessToken, { baseDelayMs: 10, maxDelayMs: 50 });
  product = await control("POST", `/_sim/shops/${SHOP}/products`, { title: "Coffee", variants: [{ title: "250 g" }, { title: "1 kg" }] });
});

afterAll(async () => {
  uninstallSimulatorRouting();
  await sim?.close();
  await new Promise<void>((r) => receiver?.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

const on15: PlanWrite["billingAnchors"] = [{ type: "MONTHDAY", day: 15 }];
const plan = (over: Partial<PlanWrite> = {}): PlanWrite => ({
  name: "Every month, charged on the 15th",
  options: ["Monthly"],
  interval: "MONTH",
  intervalCount: 1,
  billingAnchors: on15,
  deliveryAnchors: on15,
  cutoff: 3,
  preAnchorBehavior: "NEXT",
  pricingPolicies: [{ kind: "fixed", adjustmentType: "PERCENTAGE", value: "10" }],
  ...over,
});
const group = (over: Partial<PlanGroupWrite> = {}): PlanGroupWrite => ({
  name: "Coffee club",
  merchantCode: "coffee-club",
  options: ["Delivery"],
  plansToCreate: [plan()],
  ...over,
});
const topics = () => received.map((r) => String(r.headers["x-shopify-topic"]));

describe("sellingPlanGroupCreate, Update, Delete and the resource calls", () => {
  it("creates an anchored group on a product: plans, variants and the create webhook with Shopify's policy shape", async () => {
    received.length = 0;
    const g = await port.createSellingPlanGroup(group(), { productIds: [product.id], variantIds: [] });
    expect(g.groupId).toMatch(/^gid:\/\/shopify\/SellingPlanGroup\/\d+$/);
    expect(g.sellingPlans.map((p) => p.name)).toEqual(["Every month, charged on the 15th"]);
    expect(g.variantIds.sort()).toEqual([...product.variantIds].sort());
    await sim.idle();
    const hook = received.find((r) => r.headers["x-shopify-topic"] === "selling_plan_groups/create");
    expect(hook).toBeDefined();
    const body = JSON.parse(hook!.raw);
    expect(body.admin_graphql_api_id).toBe(g.groupId);
    expect(body.selling_plans[0].delivery_policy).toEqual({
      interval: "month",
      interval_count: 1,
      anchors: [{ type: "monthday", day: 15, month: null, cutoff_day: null }],
      cutoff: 3,
      pre_anchor_behavior: "next",
    });
  });

  it("updates plans in one call (create, update, delete) and answers the deleted ids", async () => {
    const g = await port.createSellingPlanGroup(group(), { productIds: [], variantIds: [product.variantIds[0]] });
    const first = g.sellingPlans[0].id;
    const second = (await port.updateSellingPlanGroup(g.groupId, { plansToCreate: [plan({ name: "Every two months", intervalCount: 2 })] })).sellingPlans[1].id;
    received.length = 0;
    const r = await port.updateSellingPlanGroup(g.groupId, {
      name: "Coffee club (new)",
      plansToUpdate: [plan({ id: second, name: "Every second month" })],
      plansToDelete: [first],
    });
    expect(r.deletedSellingPlanIds).toEqual([first]);
    expect(r.sellingPlans).toEqual([{ id: second, name: "Every second month" }]);
    await sim.idle();
    expect(topics()).toContain("selling_plan_groups/update");
  });

  it("adds and removes products and variants, and deletes the group (delete webhook)", async () => {
    const g = await port.createSellingPlanGroup(group(), { productIds: [], variantIds: [] });
    expect(await port.changeSellingPlanGroupResources(g.groupId, "addProducts", [product.id])).toEqual([product.id]);
    expect((await port.resolveSellingPlans(g.groupId))!.variantIds).toHaveLength(2);
    expect(await port.changeSellingPlanGroupResources(g.groupId, "removeVariants", [product.variantIds[1]])).toEqual([product.variantIds[1]]);
    expect((await port.resolveSellingPlans(g.groupId))!.variantIds).toEqual([product.variantIds[0]]);
    expect(await port.changeSellingPlanGroupResources(g.groupId, "removeProducts", [product.id])).toEqual([product.id]);
    expect(await port.changeSellingPlanGroupResources(g.groupId, "addVariants", [product.variantIds[1]])).toEqual([product.variantIds[1]]);
    received.length = 0;
    expect(await port.deleteSellingPlanGroup(g.groupId)).toBe(g.groupId);
    expect(await port.resolveSellingPlans(g.groupId)).toBeNull();
    await sim.idle();
    expect(topics()).toContain("selling_plan_groups/delete");
  });
});

const P = ["input", "sellingPlansToCreate", "0"];
const refusals: [string, () => Promise<unknown>, string, string[]][] = [
  [
    "billing and delivery anchors differ",
    () =>
      port.createSellingPlanGroup(group({ plansToCreate: [plan({ deliveryAnchors: [{ type: "MONTHDAY", day: 16 }] })] }), { productIds: [], variantIds: [] }),
    "SELLING_PLAN_BILLING_AND_DELIVERY_POLICY_ANCHORS_MUST_BE_EQUAL",
    [...P, "billingPolicy", "recurring", "anchors"],
  ],
  [
    "32 plans in one group",
    () =>
      port.createSellingPlanGroup(group({ plansToCreate: Array.from({ length: 32 }, (_, i) => plan({ name: `Plan ${i}`, options: [`Plan ${i}`] })) }), {
        productIds: [],
        variantIds: [],
      }),
    "SELLING_PLAN_COUNT_UPPER_BOUND",
    ["input", "sellingPlansToCreate"],
  ],
  [
    "three pricing policies",
    () =>
      port.createSellingPlanGroup(
        group({
          plansToCreate: [
            plan({
              pricingPolicies: [
                { kind: "fixed", adjustmentType: "PERCENTAGE", value: "10" },
                { kind: "recurring", adjustmentType: "PERCENTAGE", value: "15", afterCycle: 3 },
                { kind: "recurring", adjustmentType: "PERCENTAGE", value: "20", afterCycle: 6 },
              ],
            }),
          ],
        }),
        { productIds: [], variantIds: [] },
      ),
    "SELLING_PLAN_PRICING_POLICIES_LIMIT",
    [...P, "pricingPolicies"],
  ],
  [
    "two fixed pricing policies",
    () =>
      port.createSellingPlanGroup(
        group({
          plansToCreate: [
            plan({
              pricingPolicies: [
                { kind: "fixed", adjustmentType: "PERCENTAGE", value: "10" },
                { kind: "fixed", adjustmentType: "FIXED_AMOUNT", value: "2.00" },
              ],
            }),
          ],
        }),
        { productIds: [], variantIds: [] },
      ),
    "SELLING_PLAN_FIXED_PRICING_POLICIES_LIMIT",
    [...P, "pricingPolicies"],
  ],
  [
    "two recurring pricing policies and no fixed one",
    () =>
      port.createSellingPlanGroup(
        group({
          plansToCreate: [
            plan({
              pricingPolicies: [
                { kind: "recurring", adjustmentType: "PERCENTAGE", value: "10", afterCycle: 2 },
                { kind: "recurring", adjustmentType: "PERCENTAGE", value: "20", afterCycle: 4 },
              ],
            }),
          ],
        }),
        { productIds: [], variantIds: [] },
      ),
    "SELLING_PLAN_PRICING_POLICIES_MUST_CONTAIN_A_FIXED_PRICING_POLICY",
    [...P, "pricingPolicies"],
  ],
  [
    "max cycles below min cycles",
    () => port.createSellingPlanGroup(group({ plansToCreate: [plan({ minCycles: 6, maxCycles: 3 })] }), { productIds: [], variantIds: [] }),
    "SELLING_PLAN_MAX_CYCLES_MUST_BE_GREATER_THAN_MIN_CYCLES",
    [...P, "billingPolicy", "recurring", "maxCycles"],
  ],
  [
    "two plans with one name",
    () => port.createSellingPlanGroup(group({ plansToCreate: [plan(), plan({ options: ["Other"] })] }), { productIds: [], variantIds: [] }),
    "SELLING_PLAN_DUPLICATE_NAME",
    ["input", "sellingPlansToCreate"],
  ],
  ["a blank group name", () => port.createSellingPlanGroup(group({ name: "  " }), { productIds: [], variantIds: [] }), "BLANK", ["input", "name"]],
  [
    "an anchor day of 32",
    () =>
      port.createSellingPlanGroup(
        group({ plansToCreate: [plan({ billingAnchors: [{ type: "MONTHDAY", day: 32 }], deliveryAnchors: [{ type: "MONTHDAY", day: 32 }] })] }),
        { productIds: [], variantIds: [] },
      ),
    "INCLUSION",
    [...P, "billingPolicy", "recurring", "anchors", "0", "day"],
  ],
  [
    "an anchor cutoffDay beside a delivery cutoff",
    () =>
      port.createSellingPlanGroup(
        group({
          plansToCreate: [
            plan({ billingAnchors: [{ type: "MONTHDAY", day: 15, cutoffDay: 12 }], deliveryAnchors: [{ type: "MONTHDAY", day: 15, cutoffDay: 12 }] }),
          ],
        }),
        { productIds: [], variantIds: [] },
      ),
    "PRESENT",
    [...P, "deliveryPolicy", "recurring", "anchors", "0", "cutoffDay"],
  ],
  [
    "a PERCENTAGE policy without a percentage",
    () =>
      port.createSellingPlanGroup(
        group({ plansToCreate: [plan({ pricingPolicies: [{ kind: "fixed", adjustmentType: "PERCENTAGE", value: "not a number" }] })] }),
        {
          productIds: [],
          variantIds: [],
        },
      ),
    "PRICING_POLICY_ADJUSTMENT_VALUE_AND_TYPE_MUST_MATCH",
    [...P, "pricingPolicies", "0", "fixed", "adjustmentValue"],
  ],
  [
    "an unknown product",
    () => port.createSellingPlanGroup(group(), { productIds: ["gid://shopify/Product/999999"], variantIds: [] }),
    "PRODUCT_DOES_NOT_EXIST",
    ["resources", "productIds"],
  ],
  ["an unknown group", () => port.updateSellingPlanGroup("gid://shopify/SellingPlanGroup/999999", { name: "x" }), "GROUP_DOES_NOT_EXIST", ["id"]],
  ["deleting an unknown group", () => port.deleteSellingPlanGroup("gid://shopify/SellingPlanGroup/999999"), "GROUP_DOES_NOT_EXIST", ["id"]],
];

describe("Shopify's refusals, each with its code and the field it names", () => {
  it.each(refusals)("%s", async (_label, call, code, field) => {
    const err = await rejection(call());
    expect({ kind: err.kind, code: err.code, field: err.field }).toEqual({ kind: "invalid_request", code, field });
  });

  it("an update past 31 plans, an unknown plan to update or delete", async () => {
    const g = await port.createSellingPlanGroup(group({ plansToCreate: Array.from({ length: 30 }, (_, i) => plan({ name: `P${i}`, options: [`P${i}`] })) }), {
      productIds: [],
      variantIds: [],
    });
    await expect(port.updateSellingPlanGroup(g.groupId, { plansToCreate: [plan({ name: "P30", options: ["P30"] })] })).resolves.toBeTruthy();
    const over = await rejection(port.updateSellingPlanGroup(g.groupId, { plansToCreate: [plan({ name: "P31", options: ["P31"] })] }));
    expect([over.code, over.field]).toEqual(["SELLING_PLAN_COUNT_UPPER_BOUND", ["input", "sellingPlansToCreate"]]);
    const missing = await rejection(port.updateSellingPlanGroup(g.groupId, { plansToUpdate: [plan({ id: "gid://shopify/SellingPlan/1" })] }));
    expect([missing.code, missing.field]).toEqual(["PLAN_DOES_NOT_EXIST", ["input", "sellingPlansToUpdate", "0", "id"]]);
    const gone = await rejection(port.updateSellingPlanGroup(g.groupId, { plansToDelete: ["gid://shopify/SellingPlan/1"] }));
    expect([gone.code, gone.field]).toEqual(["PLAN_DOES_NOT_EXIST", ["input", "sellingPlansToDelete", "0"]]);
  });
});
