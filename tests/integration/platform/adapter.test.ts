// The real GraphQL adapter against the simulator in this process, over real HTTP, with the
// fetch routing production code uses in simulator mode. A tiny HTTP server stands in for the app
// to receive the simulator's signed webhooks.
import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator, type RunningSimulator } from "../../../simulator/server";
import { createGraphqlAdapter } from "../../../app/platform/graphql/adapter.server";
import { installSimulatorRouting, uninstallSimulatorRouting } from "../../../app/platform/routing.server";
import { PlatformError } from "../../../app/platform/errors";
import type { ShopifyPort } from "../../../app/platform/port";
import { LIBRARY_API_VERSION, SHOPIFY_API_VERSION } from "../../../app/platform/api-version";

const SECRET = process.env.SHOPIFY_API_SECRET ?? "dev-api-secret-not-for-production";
const SHOP = "adapter-test.myshopify.com";
const dir = mkdtempSync(join(tmpdir(), "sim-adapter-"));

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
}
const received: Received[] = [];
let receiver: Server;
let sim: RunningSimulator;
let port: ShopifyPort;
let token: string;

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

async function newContract(body: Record<string, unknown> = {}) {
  return control<{ id: string; lines: { id: string; variantId: string; quantity: number }[]; customerId: string; paymentMethodId: string | null }>(
    "POST",
    `/_sim/shops/${SHOP}/contracts`,
    { webhooks: false, ...body },
  );
}

const stored = (id: string) =>
  control<{ status: string; lines: { id: string; quantity: number; variantId: string }[]; revisionId: number }>(
    "GET",
    `/_sim/shops/${SHOP}/contracts/${encodeURIComponent(id)}`,
  );

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
      received.push({ path: req.url ?? "", headers: req.headers, raw: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  const appUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  sim = await startSimulator({
    port: Number(process.env.SIMULATOR_PORT),
    stateFile: join(dir, "simulator.json"),
    appUrl,
    apiKey: process.env.SHOPIFY_API_KEY ?? "dev-api-key",
    apiSecret: SECRET,
    appTomlPath: "shopify.app.toml",
    webhookRetryDelaysMs: [20, 50],
  });
  installSimulatorRouting(sim.url);
  const shop = await control<{ accessToken: string }>("POST", "/_sim/shops", { shop: SHOP });
  token = shop.accessToken;
  // Short back-off so the throttling test stays fast; production uses the defaults.
  port = createGraphqlAdapter(SHOP, token, { baseDelayMs: 10, maxDelayMs: 50 });
});

afterAll(async () => {
  uninstallSimulatorRouting();
  await sim?.close();
  await new Promise<void>((r) => receiver?.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  received.length = 0;
});

describe("GraphQL adapter against the simulator", () => {
  it("pauses a contract: the simulator holds it PAUSED, one pause was performed", async () => {
    const c = await newContract();
    await expect(port.pauseContract(c.id)).resolves.toEqual({ id: c.id, status: "PAUSED" });
    expect((await stored(c.id)).status).toBe("PAUSED");
    // Pausing again is a no-op success on Shopify.
    await expect(port.pauseContract(c.id)).resolves.toMatchObject({ status: "PAUSED" });
    const ops = await control<unknown[]>("GET", `/_sim/shops/${SHOP}/operations?operation=subscriptionContractPause&outcome=ok`);
    expect(ops).toHaveLength(2);
  });

  it("sends the app a signed subscription_contracts/update webhook after the change", async () => {
    const c = await newContract();
    await port.pauseContract(c.id);
    await sim.idle();
    const hook = received.find((r) => r.headers["x-shopify-topic"] === "subscription_contracts/update");
    expect(hook).toBeDefined();
    const h = hook!.headers;
    expect(hook!.path).toBe("/webhooks/subscription_contracts/update");
    expect(h["x-shopify-hmac-sha256"]).toBe(createHmac("sha256", SECRET).update(hook!.raw).digest("base64"));
    expect(h["x-shopify-shop-domain"]).toBe(SHOP);
    expect(h["x-shopify-api-version"]).toBe(SHOPIFY_API_VERSION);
    expect(h["x-shopify-webhook-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(h["x-shopify-event-id"]).toBeTruthy();
    expect(h["x-shopify-triggered-at"]).toBeTruthy();
    expect(h["content-type"]).toBe("application/json");
    const body = JSON.parse(hook!.raw) as Record<string, unknown>;
    expect(body).toMatchObject({ admin_graphql_api_id: c.id, status: "paused", revision_id: "2", admin_graphql_api_customer_id: c.customerId });
    // Not subscribed in shopify.app.toml → never sent.
    expect(received.some((r) => r.headers["x-shopify-topic"] === "subscription_contracts/pause")).toBe(false);
  });

  it("an injected userError with a field is invalid_request; without a field state_conflict", async () => {
    const c = await newContract();
    await control("POST", `/_sim/shops/${SHOP}/failures`, {
      operation: "subscriptionContractPause",
      userErrors: [{ field: ["subscriptionContractId"], message: "Bad id", code: "INVALID" }],
    });
    const withField = await rejection(port.pauseContract(c.id));
    expect(withField).toMatchObject({ kind: "invalid_request", field: ["subscriptionContractId"], code: "INVALID" });

    await control("POST", `/_sim/shops/${SHOP}/failures`, {
      operation: "subscriptionContractPause",
      userErrors: [{ field: null, message: "Contract is being billed", code: "INVALID" }],
    });
    expect(await rejection(port.pauseContract(c.id))).toMatchObject({ kind: "state_conflict", code: "INVALID" });
    expect((await stored(c.id)).status).toBe("ACTIVE");
  });

  it("real refusals: cancelled contracts conflict, past dates name the field", async () => {
    const c = await newContract({ status: "CANCELLED" });
    expect(await rejection(port.activateContract(c.id))).toMatchObject({ kind: "state_conflict", code: "CONTRACT_TERMINATED" });
    const live = await newContract();
    expect(await rejection(port.setNextBillingDate(live.id, "2020-01-01T00:00:00Z"))).toMatchObject({ kind: "invalid_request", field: ["date"] });
    const future = new Date(Date.now() + 10 * 86400_000).toISOString();
    await expect(port.setNextBillingDate(live.id, future)).resolves.toEqual({ id: live.id, nextBillingDate: future });
    await expect(port.cancelContract(live.id)).resolves.toMatchObject({ status: "CANCELLED" });
  });

  it("retries THROTTLED answers and then succeeds", async () => {
    const c = await newContract();
    await control("POST", `/_sim/shops/${SHOP}/failures`, { operation: "subscriptionContractPause", throttled: 2 });
    await expect(port.pauseContract(c.id)).resolves.toMatchObject({ status: "PAUSED" });
    const ops = await control<{ outcome: string }[]>("GET", `/_sim/shops/${SHOP}/operations?operation=subscriptionContractPause`);
    expect(ops.slice(-3).map((o) => o.outcome)).toEqual(["throttled", "throttled", "ok"]);
  });

  it("a 503 is unavailable and a mutation is not retried", async () => {
    const c = await newContract();
    const before = (await control<unknown[]>("GET", `/_sim/shops/${SHOP}/operations?operation=subscriptionContractCancel`)).length;
    await control("POST", `/_sim/shops/${SHOP}/failures`, { operation: "subscriptionContractCancel", status: 503 });
    expect(await rejection(port.cancelContract(c.id))).toMatchObject({ kind: "unavailable" });
    const after = await control<unknown[]>("GET", `/_sim/shops/${SHOP}/operations?operation=subscriptionContractCancel`);
    expect(after.length - before).toBe(1);
    expect((await stored(c.id)).status).toBe("ACTIVE");
  });

  it("a wrong token is shop_unavailable", async () => {
    const wrong = createGraphqlAdapter(SHOP, "shpat_wrong");
    expect(await rejection(wrong.getContract("gid://shopify/SubscriptionContract/1"))).toMatchObject({ kind: "shop_unavailable" });
  });

  it("reads a contract in full, and pages own contracts only", async () => {
    const c = await newContract({ billingPolicy: { interval: "WEEK", intervalCount: 2, anchors: [{ day: 1, type: "WEEKDAY" }] } });
    const read = await port.getContract(c.id);
    expect(read).toMatchObject({
      id: c.id,
      status: "ACTIVE",
      revisionId: "1",
      customerId: c.customerId,
      billingPolicy: { interval: "WEEK", intervalCount: 2, anchors: [{ day: 1, month: null, type: "WEEKDAY" }] },
    });
    expect(read?.originOrderName).toMatch(/^#\d+$/);
    expect(read?.lines[0]).toMatchObject({ quantity: 1, priceAmount: "18.00" });

    const other = await newContract({ app: "other" });
    expect(await port.getContract(other.id)).toBeNull();
    const all: string[] = [];
    let after: string | null = null;
    do {
      const page = await port.listContracts({ first: 3, after });
      all.push(...page.nodes.map((n) => n.id));
      after = page.hasNextPage ? page.endCursor : null;
    } while (after);
    expect(all).toContain(c.id);
    expect(all).not.toContain(other.id);
    expect(new Set(all).size).toBe(all.length);
  });

  it("another app's contract changes send this app no webhook", async () => {
    await control("POST", `/_sim/shops/${SHOP}/contracts`, { app: "other" });
    await sim.idle();
    expect(received).toHaveLength(0);
  });

  it("draft line update with an unknown variant fails without any change; a good one commits", async () => {
    const c = await newContract();
    const line = c.lines[0];
    const err = await rejection(port.updateLine(c.id, line.id, { quantity: 4, variantId: "gid://shopify/ProductVariant/987654321" }));
    expect(err).toMatchObject({ kind: "invalid_request", field: ["input", "productVariantId"] });
    const after = await stored(c.id);
    expect(after.revisionId).toBe(1);
    expect(after.lines[0]).toMatchObject({ quantity: 1, variantId: line.variantId });
    const commits = await control<unknown[]>("GET", `/_sim/shops/${SHOP}/operations?operation=subscriptionDraftCommit`);

    const product = await control<{ variants: { id: string }[] }>("POST", `/_sim/shops/${SHOP}/products`, {
      title: "Tea",
      variants: [{ title: "Green", price: "9.50" }],
    });
    const updated = await port.updateLine(c.id, line.id, { quantity: 2, variantId: product.variants[0].id });
    expect(updated).toMatchObject({ id: line.id, quantity: 2, variantId: product.variants[0].id, title: "Tea", variantTitle: "Green", priceAmount: "9.50" });
    expect((await stored(c.id)).revisionId).toBe(2);
    const commitsAfter = await control<unknown[]>("GET", `/_sim/shops/${SHOP}/operations?operation=subscriptionDraftCommit`);
    expect(commitsAfter.length - commits.length).toBe(1);
  });

  it("updateLineOfDraft picks the line from the draft's lines (no contract read); a throwing choice commits nothing", async () => {
    const c = await newContract();
    const line = c.lines[0];
    const reads = await control<unknown[]>("GET", `/_sim/shops/${SHOP}/operations?operation=subscriptionContract`);
    const seen: string[] = [];
    await expect(
      port.updateLineOfDraft(c.id, (lines) => {
        seen.push(...lines.map((l) => l.id));
        throw new Error("not this one");
      }),
    ).rejects.toThrow("not this one");
    expect(seen).toEqual([line.id]);
    expect((await stored(c.id)).revisionId).toBe(1);

    const updated = await port.updateLineOfDraft(c.id, (lines) => ({ lineId: lines[0].id, change: { quantity: 3 } }));
    expect(updated).toMatchObject({ id: line.id, quantity: 3, variantId: line.variantId });
    expect((await stored(c.id)).revisionId).toBe(2);
    const readsAfter = await control<unknown[]>("GET", `/_sim/shops/${SHOP}/operations?operation=subscriptionContract`);
    expect(readsAfter.length).toBe(reads.length);
  });

  it("reads payment methods (card, paypal, none) and records update e-mails", async () => {
    const card = await newContract();
    const method = await port.getPaymentMethod(card.id);
    expect(method).toMatchObject({ id: card.paymentMethodId, kind: "credit_card", brand: "visa", last4: "4242" });

    const paypalCustomer = await control<{ id: string }>("POST", `/_sim/shops/${SHOP}/customers`, {
      paymentMethod: { kind: "paypal", paypalEmail: "p@example.com" },
    });
    const paypal = await newContract({ customerId: paypalCustomer.id });
    expect(await port.getPaymentMethod(paypal.id)).toMatchObject({ kind: "paypal", paypalEmail: "p@example.com" });

    const manual = await newContract({ paymentMethodId: null });
    expect(await port.getPaymentMethod(manual.id)).toBeNull();

    await port.sendPaymentMethodUpdateEmail(method!.id);
    const emails = await control<{ paymentMethodId: string; customerId: string }[]>("GET", `/_sim/shops/${SHOP}/emails`);
    expect(emails.at(-1)).toMatchObject({ paymentMethodId: method!.id, customerId: card.customerId });
    expect(await rejection(port.sendPaymentMethodUpdateEmail("gid://shopify/CustomerPaymentMethod/404"))).toMatchObject({ kind: "invalid_request" });
  });

  it("resolves a customer access token through the Customer Account API", async () => {
    const c = await newContract();
    const { accessToken } = await control<{ accessToken: string }>("POST", `/_sim/shops/${SHOP}/customer-access-tokens`, { customerId: c.customerId });
    expect(await port.customerIdForAccessToken(accessToken)).toBe(c.customerId);
    expect(await port.customerIdForAccessToken("shcat_forged")).toBeNull();
  });

  it("resolves selling plans, sets metafields and reads variants", async () => {
    const product = await control<{ id: string; variants: { id: string }[] }>("POST", `/_sim/shops/${SHOP}/products`, {
      title: "Coffee",
      imageUrl: "https://cdn.example/coffee.png",
      variants: [
        { title: "1 kg", price: "30.00", imageUrl: "https://cdn.example/1kg.png" },
        { title: "250 g", price: "9.00", available: false },
      ],
    });
    const group = await control<{ id: string; sellingPlans: { id: string }[] }>("POST", `/_sim/shops/${SHOP}/selling-plan-groups`, {
      name: "Subscribe & save",
      plans: [{ name: "Every 2 weeks", interval: "WEEK", intervalCount: 2 }],
      variantIds: product.variants.map((v) => v.id),
    });
    expect(await port.resolveSellingPlans(group.id)).toEqual({
      groupId: group.id,
      sellingPlans: [{ id: group.sellingPlans[0].id, name: "Every 2 weeks" }],
      variantIds: product.variants.map((v) => v.id),
    });
    expect(await port.resolveSellingPlans("gid://shopify/SellingPlanGroup/1")).toBeNull();

    await port.setMetafields([{ ownerId: product.id, namespace: "app", key: "bundle_plan", type: "json", value: '{"a":1}' }]);
    const metafields = await control<{ key: string; value: string }[]>("GET", `/_sim/shops/${SHOP}/metafields`);
    expect(metafields).toContainEqual(expect.objectContaining({ key: "bundle_plan", value: '{"a":1}' }));
    expect(await rejection(port.setMetafields([{ ownerId: product.id, namespace: "app", key: "x", type: "json", value: "{" }]))).toMatchObject({
      kind: "invalid_request",
    });

    const variants = await port.getVariants([...product.variants.map((v) => v.id), "gid://shopify/ProductVariant/404"]);
    expect(variants).toEqual([
      // The variant's own image first (its media), else the product's featured media.
      {
        id: product.variants[0].id,
        productId: product.id,
        title: "1 kg",
        productTitle: "Coffee",
        price: "30.00",
        imageUrl: "https://cdn.example/1kg.png",
        available: true,
      },
      {
        id: product.variants[1].id,
        productId: product.id,
        title: "250 g",
        productTitle: "Coffee",
        price: "9.00",
        imageUrl: "https://cdn.example/coffee.png",
        available: false,
      },
    ]);
  });

  it("bills a contract: the attempt answers still processing, the same key answers the same attempt, and Shopify's signed success/failure/challenged webhooks follow", async () => {
    const due = "2031-01-15T10:00:00.000Z";
    const c = await newContract({ nextBillingDate: due });
    const made = await port.createBillingAttempt(c.id, { idempotencyKey: "unit-key-1", cycleDate: due });
    expect(made).toMatchObject({ idempotencyKey: "unit-key-1", state: "pending" });
    expect(made.id).toMatch(/^gid:\/\/shopify\/SubscriptionBillingAttempt\/\d+$/);
    const again = await port.createBillingAttempt(c.id, { idempotencyKey: "unit-key-1", cycleDate: due });
    expect(again).toMatchObject({ id: made.id, state: "succeeded" });
    expect((await stored(c.id)) as unknown as { nextBillingDate: string }).toMatchObject({ nextBillingDate: "2031-02-15T10:00:00.000Z" });
    await sim.idle();
    const success = received.filter((r) => r.headers["x-shopify-topic"] === "subscription_billing_attempts/success");
    expect(success).toHaveLength(1);
    expect(success[0].headers["x-shopify-hmac-sha256"]).toBe(createHmac("sha256", SECRET).update(success[0].raw).digest("base64"));
    const payload = JSON.parse(success[0].raw);
    expect(payload).toMatchObject({
      admin_graphql_api_id: made.id,
      idempotency_key: "unit-key-1",
      admin_graphql_api_subscription_contract_id: c.id,
      subscription_contract_id: Number(c.id.split("/").pop()),
      ready: true,
      error_code: null,
      error_message: null,
    });
    expect(payload.admin_graphql_api_order_id).toMatch(/^gid:\/\/shopify\/Order\/\d+$/);

    // Declining and authenticating payment methods, set through the control API.
    for (const [billing, topic, code] of [
      ["INSUFFICIENT_FUNDS", "subscription_billing_attempts/failure", "INSUFFICIENT_FUNDS"],
      ["authenticate", "subscription_billing_attempts/challenged", "AUTHENTICATION_REQUIRED"],
    ] as const) {
      const other = await newContract({ nextBillingDate: due });
      await control("PATCH", `/_sim/shops/${SHOP}/payment-methods/${encodeURIComponent(other.paymentMethodId!)}`, { billing });
      received.length = 0;
      await port.createBillingAttempt(other.id, { idempotencyKey: `unit-${billing}`, cycleDate: due });
      await sim.idle();
      expect(received.map((r) => r.headers["x-shopify-topic"])).toEqual([topic]);
      expect(JSON.parse(received[0].raw)).toMatchObject({ error_code: code, admin_graphql_api_order_id: null });
      expect((await stored(other.id)) as unknown as { nextBillingDate: string }).toMatchObject({ nextBillingDate: due });
    }
  });

  it("billing refusals are Shopify's BillingAttemptUserError codes", async () => {
    const due = "2031-01-15T10:00:00.000Z";
    const paused = await newContract({ nextBillingDate: due, status: "PAUSED" });
    const cancelled = await newContract({ nextBillingDate: due, status: "CANCELLED" });
    const active = await newContract({ nextBillingDate: due });
    expect(await rejection(port.createBillingAttempt(paused.id, { idempotencyKey: "r1", cycleDate: due }))).toMatchObject({
      kind: "state_conflict",
      code: "CONTRACT_PAUSED",
    });
    expect(await rejection(port.createBillingAttempt(cancelled.id, { idempotencyKey: "r2", cycleDate: due }))).toMatchObject({
      kind: "state_conflict",
      code: "CONTRACT_TERMINATED",
    });
    expect(await rejection(port.createBillingAttempt("gid://shopify/SubscriptionContract/999999", { idempotencyKey: "r3", cycleDate: due }))).toMatchObject({
      kind: "invalid_request",
      code: "CONTRACT_NOT_FOUND",
    });
    expect(await rejection(port.createBillingAttempt(active.id, { idempotencyKey: "  ", cycleDate: due }))).toMatchObject({
      kind: "invalid_request",
      code: "BLANK",
    });
    expect(await rejection(port.createBillingAttempt(active.id, { idempotencyKey: "r4", cycleDate: "2031-03-01T00:00:00.000Z" }))).toMatchObject({
      kind: "invalid_request",
      code: "CYCLE_START_DATE_OUT_OF_RANGE",
    });
    const attempts = await control<{ contractId: string }[]>("GET", `/_sim/shops/${SHOP}/billing-attempts`);
    expect(attempts.filter((a) => [paused.id, cancelled.id, active.id].includes(a.contractId))).toEqual([]);
  });

  it("uninstalling revokes the token and sends app/uninstalled", async () => {
    const shop = "uninstall-test.myshopify.com";
    const { accessToken } = await control<{ accessToken: string }>("POST", "/_sim/shops", { shop });
    const p = createGraphqlAdapter(shop, accessToken);
    await expect(p.getShop()).resolves.toMatchObject({ myshopifyDomain: shop });
    await control("POST", `/_sim/shops/${shop}/uninstall`);
    await sim.idle();
    const hook = received.find((r) => r.headers["x-shopify-topic"] === "app/uninstalled");
    expect(JSON.parse(hook!.raw)).toMatchObject({ myshopify_domain: shop });
    expect(await rejection(createGraphqlAdapter(shop, accessToken).getContract("gid://shopify/SubscriptionContract/1"))).toMatchObject({
      kind: "shop_unavailable",
    });
  });
});

describe("token exchange through @shopify/shopify-api", () => {
  it("exchanges a simulator-minted session token for the offline token via the routed fetch", async () => {
    const { shopifyApi, RequestedTokenType } = await import("@shopify/shopify-api");
    await import("@shopify/shopify-api/adapters/node");
    // The adapter import above captured the fetch of its time; re-install to point it at the live one.
    uninstallSimulatorRouting();
    installSimulatorRouting(sim.url);
    const api = shopifyApi({
      apiKey: process.env.SHOPIFY_API_KEY ?? "dev-api-key",
      apiSecretKey: SECRET,
      hostName: "127.0.0.1",
      apiVersion: LIBRARY_API_VERSION,
      isEmbeddedApp: true,
      logger: { level: 0 },
    });
    const { token: sessionToken } = await control<{ token: string }>("POST", `/_sim/shops/${SHOP}/session-token`, {});
    const { session } = await api.auth.tokenExchange({ shop: SHOP, sessionToken, requestedTokenType: RequestedTokenType.OfflineAccessToken });
    expect(session.accessToken).toBe(token);
    expect(session.id).toBe(`offline_${SHOP}`);

    // The library's own GraphQL calls (Billing, admin.graphql) go to the same pinned version:
    // the simulator serves only that one, and executes the library's document against its schema.
    const client = new api.clients.Graphql({ session });
    const answer = await client.request<{ shop: { myshopifyDomain: string } }>("query LibraryShop { shop { myshopifyDomain } }");
    expect(answer.data?.shop.myshopifyDomain).toBe(SHOP);
    const ops = await control<{ operation: string; outcome: string }[]>("GET", `/_sim/shops/${SHOP}/operations?operation=shop&outcome=ok`);
    expect(ops.length).toBeGreaterThan(0);
  });
});

describe("platformFor", () => {
  it("builds the port from the shop's offline session, and refuses a shop without one", async () => {
    const { platformFor } = await import("../../../app/platform/index.server");
    const { prisma } = await import("../../../app/db.server");
    await prisma.session.upsert({
      where: { id: `offline_${SHOP}` },
      create: { id: `offline_${SHOP}`, shop: SHOP, state: "", isOnline: false, accessToken: token },
      update: { accessToken: token },
    });
    try {
      const p = await platformFor(SHOP);
      await expect(p.getShop()).resolves.toMatchObject({ myshopifyDomain: SHOP });
      expect(await rejection(platformFor("not-installed.myshopify.com"))).toMatchObject({ kind: "shop_unavailable" });
    } finally {
      await prisma.session.delete({ where: { id: `offline_${SHOP}` } });
    }
  });
});
