// The typed client (clients/typescript; docs/decisions/127-typed-client.md): the committed
// schema.d.ts is what the served OpenAPI document generates now (a response schema changed without
// `npm run client:generate` fails here), and the examples run against a served app.
import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { prisma } from "../../../app/db.server";
import { openApiDocument } from "../../../app/surfaces/docs.server";
import { publishEventNow } from "../../../app/domain/outbound-webhooks/publish.server";
import { signatureHeader } from "../../../app/domain/outbound-webhooks/signature";
import { SCHEMA_FILE, generateSchema } from "../../../clients/typescript/generate";
import { createServiceClient } from "../../../clients/typescript/index";
import { pageSubscriptions } from "../../../clients/typescript/examples/page-subscriptions";
import { pauseSafely } from "../../../clients/typescript/examples/pause-safely";
import { handleDelivery } from "../../../clients/typescript/examples/verify-webhook";
import { startStack, type Stack } from "../../support/stack";
import { createContracts, createKey } from "../../support/fixtures";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ workers: false });
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

it("the committed client is what the served document generates now (regenerate with npm run client:generate)", async () => {
  const fresh = await generateSchema(openApiDocument() as Record<string, unknown>);
  expect(fresh === readFileSync(SCHEMA_FILE, "utf8"), "clients/typescript/schema.d.ts is stale: run npm run client:generate").toBe(true);
});

it("a changed response schema makes the committed client stale", async () => {
  const doc = openApiDocument() as {
    paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: { properties: Record<string, unknown> } }> }> }>>;
  };
  const receipt = doc.paths["/api/admin/v1/subscriptions/{contract_gid}/pause"].post.responses["200"].content["application/json"].schema;
  receipt.properties = { ...receipt.properties, renamed_status: { type: "string" } };
  expect((await generateSchema(doc as unknown as Record<string, unknown>)) === readFileSync(SCHEMA_FILE, "utf8")).toBe(false);
});

it("the examples run against the served app: paging, a safe retried pause, a verified webhook", async () => {
  const shop = await stack.installShop("PRO");
  await createContracts(shop.shopId, 7);
  const { key } = await createKey({
    shopId: shop.shopId,
    name: "client",
    scopes: ["read:subscriptions", "write:subscriptions", "manage:webhooks"],
    kind: "SECRET",
  });
  const o = { baseUrl: stack.appUrl, apiKey: key };

  const ids = await pageSubscriptions(o);
  const mirrored = await prisma.contract.count({ where: { shopId: shop.shopId, createdByService: true } });
  expect(ids).toHaveLength(mirrored);
  expect(new Set(ids).size).toBe(ids.length);

  const contract = await stack.control.call<{ id: string }>("POST", `${stack.control.shop(shop.domain)}/contracts`, { webhooks: false });
  const { reconcileContract } = await import("../../../app/domain/subscriptions/mirror.server");
  await reconcileContract(shop.domain, contract.id);
  const paused = await pauseSafely(o, contract.id);
  expect(paused.receipt).toMatchObject({ contract_id: contract.id, action: "pause", status: "PAUSED" });
  expect(paused.replayed).toBe(true);
  expect(paused.same).toBe(true);

  // a webhook: the feed's body, signed as a delivery is, verified by the example receiver
  const published = await publishEventNow({
    shopId: shop.shopId,
    type: "subscription.paused",
    sourceKey: `client-test:${randomUUID()}`,
    data: { contract_id: contract.id, customer_id: "gid://shopify/Customer/1", previous_status: "ACTIVE", new_status: "PAUSED" },
  });
  const feed = await createServiceClient(o).GET("/api/admin/v1/events", { params: { query: { type: "subscription.paused" } } });
  const body = feed.data!.data.find((e) => e.id === published.eventId)!.body;
  const secret = "whsec_example";
  const header = signatureHeader(secret, Math.floor(Date.now() / 1000), body);
  expect(handleDelivery(body, header, secret)).toEqual({ ok: true, event: expect.objectContaining({ id: published.eventId, type: "subscription.paused" }) });
  expect(handleDelivery(body + " ", header, secret)).toEqual({ ok: false });
});
