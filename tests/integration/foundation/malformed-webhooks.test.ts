// Signed Shopify webhooks the app will never process (docs/decisions/093): only a holder of the
// app secret can send one, but a 500 would have Shopify retry it for two days and then remove
// the subscription. Each is answered 200, recorded with its reason, queued nowhere, and a replay
// of it changes nothing.
import { randomUUID } from "node:crypto";
import { prisma } from "../../../app/db.server";
import { QUEUES, queue } from "../../../app/infra/queues.server";
import { postShopifyWebhook } from "../../support/shopify-webhooks";
import { startStack, type Stack } from "../../support/stack";

let stack: Stack;
let domain: string;
beforeAll(async () => {
  stack = await startStack({ workers: false });
  ({ domain } = await stack.installShop());
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

const contract = "gid://shopify/SubscriptionContract/1001";
const cases: Array<[string, string, object | string | null, RegExp]> = [
  ["a body that is not JSON", "subscription_contracts/update", "{not json", /not JSON/],
  ["a body of null", "subscription_contracts/update", null, /not a JSON object/],
  ["a body that is an array", "subscription_contracts/create", [{ admin_graphql_api_id: contract }], /not a JSON object/],
  ["a NUL in a stored field", "subscription_contracts/update", { admin_graphql_api_id: contract, status: "active", revision_id: "2", note: "a\u0000b" }, /NUL/],
  ["a NUL in a redacted customer's e-mail", "customers/redact", { customer: { id: 7, email: "a\u0000@b.c" } }, /NUL/],
  [
    "a contract id that is not a contract's",
    "subscription_contracts/update",
    { admin_graphql_api_id: "gid://shopify/Order/1", status: "active" },
    /admin_graphql_api_id/,
  ],
  ["a status Shopify does not have", "subscription_contracts/update", { admin_graphql_api_id: contract, status: "sleeping" }, /status/],
  ["no group id", "selling_plan_groups/update", { id: 5 }, /admin_graphql_api_id/],
  ["a body that is not JSON, on the inline billing topic", "app_subscriptions/update", "<xml/>", /not JSON/],
];

describe("a signed webhook the app will never process", () => {
  it.each(cases)("%s: 200, recorded with its reason, queued nowhere, a replay changes nothing", async (_what, topic, payload, reason) => {
    const webhookId = randomUUID();
    const res = await postShopifyWebhook(stack.appUrl, topic, domain, payload, { webhookId });
    expect(res.status).toBe(200);
    const row = await prisma.inboundWebhook.findUniqueOrThrow({ where: { webhookId } });
    expect(row).toMatchObject({ shopDomain: domain, topic, job: null });
    expect(row.rejection).toMatch(reason);
    expect(row.processedAt).not.toBeNull();
    for (const name of [QUEUES.mirror, QUEUES.privacy]) expect(await queue(name).getJob(`shopify-${webhookId}`)).toBeUndefined();

    expect((await postShopifyWebhook(stack.appUrl, topic, domain, payload, { webhookId })).status).toBe(200);
    expect(await prisma.inboundWebhook.count({ where: { webhookId } })).toBe(1);
  });

  it("the same body unsigned is still 401 and recorded nowhere", async () => {
    const webhookId = randomUUID();
    const res = await postShopifyWebhook(stack.appUrl, "subscription_contracts/update", domain, "{not json", { webhookId, secret: "forged" });
    expect(res.status).toBe(401);
    expect(await prisma.inboundWebhook.findUnique({ where: { webhookId } })).toBeNull();
  });
});

describe("app_subscriptions/update", () => {
  it("for a shop without an offline token: 200, since a retry could never succeed", async () => {
    const res = await postShopifyWebhook(stack.appUrl, "app_subscriptions/update", `never-${randomUUID().slice(0, 8)}.myshopify.com`, {
      app_subscription: { admin_graphql_api_id: "gid://shopify/AppSubscription/1", status: "ACTIVE" },
    });
    expect(res.status).toBe(200);
  });

  it("checks the topic header like every other webhook route", async () => {
    const payload = { app_subscription: { status: "ACTIVE" } };
    expect((await postShopifyWebhook(stack.appUrl, "app_subscriptions/update", domain, payload)).status).toBe(200);
    // The right route, signed, but another topic: refused before anything is read.
    const res = await postShopifyWebhook(stack.appUrl, "app_subscriptions/update", domain, payload, { topicHeader: "orders/create" });
    expect(res.status).toBe(400);
  });
});
