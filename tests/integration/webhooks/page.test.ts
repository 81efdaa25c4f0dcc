// The Webhooks page's server side (app/embedded/webhooks/page.server.ts), called as its loader and
// action call it: tenancy (another shop's endpoint, delivery, filter or cursor), the plan gate
// below Pro, URL-rule refusals reported on the URL field, the secret returned once, and each
// delivery's attempt log. docs/decisions/075-webhooks-page.md. No worker runs here: nothing is dialled.
import { randomUUID } from "node:crypto";
import { prisma } from "../../../app/db.server";
import { setAppPlan } from "../../../app/domain/shop/lifecycle.server";
import { publishEventNow } from "../../../app/domain/outbound-webhooks/publish.server";
import { webhooksPageAction, webhooksPageData } from "../../../app/embedded/webhooks/page.server";
import { useStack } from "../../support/stack";

const stack = useStack({ workers: false }, 120_000);

const PUBLIC_URL = "https://93.184.215.14/hooks";

async function pageShop(plan: "PRO" | "FREE" = "PRO") {
  const { domain } = await stack.installShop(plan);
  const shop = () =>
    prisma.shop.findUniqueOrThrow({ where: { domain }, select: { id: true, domain: true, appPlan: true, partnerDevelopment: true, platformPlanPaid: true } });
  const act = async (fields: Record<string, string | string[]>) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
    return webhooksPageAction(await shop(), form);
  };
  const data = async (query = "") => webhooksPageData(await shop(), new URLSearchParams(query));
  return { domain, shopId: (await shop()).id, act, data };
}

const paused = (shopId: string) =>
  publishEventNow({
    shopId,
    type: "subscription.paused",
    sourceKey: `page:${randomUUID()}`,
    data: { contract_id: "gid://shopify/SubscriptionContract/7", customer_id: "gid://shopify/Customer/7", previous_status: "ACTIVE", new_status: "PAUSED" },
  });

it("create answers the secret once; a URL-rule refusal is reported on the url field and an empty choice on the events field", async () => {
  const { act, data } = await pageShop();
  const http = await act({ intent: "create", url: "http://93.184.215.14/hooks", events: ["subscription.paused"] });
  expect(http).toEqual({ status: 200, body: { ok: false, intent: "create", field: "url", error: "url must use https (got http)" } });
  const privateIp = await act({ intent: "create", url: "https://0x7f000001/hooks", events: ["subscription.paused"] });
  expect(privateIp.body).toMatchObject({ ok: false, field: "url" });
  expect(privateIp.body.ok === false && privateIp.body.error).toMatch(/disallowed address/);
  const none = await act({ intent: "create", url: PUBLIC_URL });
  expect(none.body).toMatchObject({ ok: false, field: "events" });

  const created = await act({ intent: "create", url: PUBLIC_URL, events: ["subscription.paused", "gift.sent"] });
  expect(created.body).toMatchObject({ ok: true, intent: "create", created: { url: PUBLIC_URL } });
  const secret = created.body.ok ? created.body.created!.secret : "";
  expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  const page = await data();
  expect(page.endpoints).toMatchObject([{ url: PUBLIC_URL, events: ["subscription.paused", "gift.sent"], enabled: true }]);
  expect(JSON.stringify(page)).not.toContain(secret);
});

it("another shop's endpoint and delivery are not found; its endpoint id as a filter is dropped; its deliveries and attempts never show", async () => {
  const mine = await pageShop();
  const theirs = await pageShop();
  await mine.act({ intent: "create", url: `${PUBLIC_URL}/mine`, events: ["subscription.paused"] });
  await theirs.act({ intent: "create", url: `${PUBLIC_URL}/theirs`, events: ["subscription.paused"] });
  const theirEndpoint = (await theirs.data()).endpoints[0];
  const { deliveryIds } = await paused(theirs.shopId);
  await paused(mine.shopId);
  const theirDelivery = deliveryIds[0];
  await prisma.webhookAttempt.create({
    data: {
      deliveryId: theirDelivery,
      deliveryCreatedAt: (await prisma.webhookDelivery.findFirstOrThrow({ where: { id: theirDelivery } })).createdAt,
      number: 1,
      startedAt: new Date(),
      finishedAt: new Date(),
      responseCode: 503,
      error: "HTTP 503 from the endpoint",
      outcome: "failed",
    },
  });

  for (const intent of ["enable", "disable", "delete", "test", "recover"]) {
    const res = await mine.act({ intent, id: theirEndpoint.id, since: "2020-01-01T00:00" });
    expect(res.body, intent).toMatchObject({ ok: false, error: "No such webhook endpoint on this shop" });
  }
  expect((await mine.act({ intent: "resend", id: theirDelivery })).body).toMatchObject({ ok: false, error: "No such webhook delivery on this shop" });
  expect(await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: theirEndpoint.id } })).toMatchObject({ enabled: true });

  const filtered = await mine.data(`endpoint=${theirEndpoint.id}`);
  expect(filtered.filters.endpoint).toBe("");
  expect(filtered.deliveries).toHaveLength(1);
  expect(filtered.deliveries.every((d) => d.endpointUrl === `${PUBLIC_URL}/mine` && d.attemptLog.length === 0)).toBe(true);
  const theirPage = await theirs.data();
  expect(theirPage.deliveries).toMatchObject([{ id: theirDelivery, attemptLog: [{ number: 1, responseCode: 503, outcome: "failed" }] }]);
});

it("a cursor continues only its own shop's list with the same filters; a foreign one is a message, not an error", async () => {
  const mine = await pageShop();
  const theirs = await pageShop();
  await mine.act({ intent: "create", url: PUBLIC_URL, events: ["subscription.paused"] });
  await theirs.act({ intent: "create", url: PUBLIC_URL, events: ["subscription.paused"] });
  for (let i = 0; i < 27; i++) await paused(mine.shopId);
  for (let i = 0; i < 27; i++) await paused(theirs.shopId);
  const first = await mine.data();
  expect(first.deliveries).toHaveLength(25);
  expect(first.nextCursor).toBeTruthy();
  const second = await mine.data(`cursor=${encodeURIComponent(first.nextCursor!)}`);
  expect(second).toMatchObject({ paged: true, cursorError: null, nextCursor: null });
  expect(second.deliveries).toHaveLength(2);
  const foreign = await theirs.data(`cursor=${encodeURIComponent(first.nextCursor!)}`);
  expect(foreign.cursorError).toMatch(/no longer valid/);
  expect(foreign.deliveries).toHaveLength(25);
  const otherFilter = await mine.data(`status=pending&cursor=${encodeURIComponent(first.nextCursor!)}`);
  expect(otherFilter.cursorError).toMatch(/no longer valid/);
});

it("below Pro the page offers the upgrade path: create, enable, test, resend and recover are refused; disable and delete still work", async () => {
  const shop = await pageShop();
  await shop.act({ intent: "create", url: `${PUBLIC_URL}/a`, events: ["subscription.paused"] });
  await shop.act({ intent: "create", url: `${PUBLIC_URL}/b`, events: ["subscription.paused"] });
  const [b, a] = (await shop.data()).endpoints;
  const { deliveryIds } = await paused(shop.shopId);
  await setAppPlan(shop.domain, "FREE");

  const page = await shop.data();
  expect(page).toMatchObject({ pro: false, upgradeUrl: "/app/plan" });
  const refused = { ok: false, error: "Outbound webhooks are part of the Pro plan." };
  expect((await shop.act({ intent: "create", url: `${PUBLIC_URL}/c`, events: ["subscription.paused"] })).body).toMatchObject(refused);
  expect((await shop.act({ intent: "test", id: a.id })).body).toMatchObject(refused);
  expect((await shop.act({ intent: "resend", id: deliveryIds[0] })).body).toMatchObject(refused);
  expect((await shop.act({ intent: "recover", id: a.id, since: "2020-01-01T00:00" })).body).toMatchObject(refused);
  expect((await shop.act({ intent: "disable", id: a.id })).body).toMatchObject({ ok: true, message: "Endpoint disabled" });
  expect((await shop.act({ intent: "enable", id: a.id })).body).toMatchObject(refused);
  expect((await shop.act({ intent: "delete", id: b.id })).body).toMatchObject({ ok: true, message: "Endpoint deleted" });
  expect(await prisma.webhookEndpoint.findMany({ where: { shopId: shop.shopId }, select: { url: true, enabled: true, disabledReason: true } })).toEqual([
    { url: `${PUBLIC_URL}/a`, enabled: false, disabledReason: "merchant" },
  ]);
  expect(await shop.act({ intent: "nonsense" })).toMatchObject({ status: 400, body: { ok: false, error: "Unknown action." } });
});
