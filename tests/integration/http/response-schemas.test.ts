// Every route's declared response schema (its `response`, published at /docs/openapi.json) is
// what the endpoint really answers: each route of the three tables is called over real HTTP
// against the built app, the platform simulator and the demo data, and the answer must validate
// against the route's own schema (strict objects: an undeclared field fails too).
// docs/decisions/045-route-entries.md.
import { z } from "zod";
import { prisma } from "../../../app/db.server";
import { PUBLISHED_SCOPES, type Scope } from "../../../app/domain/keys/keys.server";
import type { AnyRoute } from "../../../app/http/route";
import { adminRoutes } from "../../../app/surfaces/admin/routes";
import { customerRoutes } from "../../../app/surfaces/customer/routes";
import { storefrontRoutes } from "../../../app/surfaces/storefront/routes";
import { ADMIN_SURFACE, CUSTOMER_SURFACE, STOREFRONT_SURFACE } from "../../../app/surfaces/config";
import type { SurfaceConfig } from "../../../app/http/kernel.server";
import { seedDemo } from "../../../prisma/seed";
import { startStack, type Stack } from "../../support/stack";
import { customerToken, seedCustomerShop } from "../../support/customer-factories";
import { createKey } from "../../support/fixtures";

const DEMO = "demo-shop.myshopify.com";
const enc = encodeURIComponent;

let stack: Stack;
let shopId: string;
beforeAll(async () => {
  stack = await startStack({ workers: false });
  await seedDemo();
  shopId = (await prisma.shop.findUniqueOrThrow({ where: { domain: DEMO } })).id;
}, 240_000);
afterAll(async () => {
  await stack?.close();
});

/** One real request: what to send for a route (its path with real ids, its body). */
interface Sample {
  path: string;
  body?: unknown;
}

async function call(surface: SurfaceConfig, route: AnyRoute, sample: Sample, headers: Record<string, string>) {
  const res = await fetch(`${stack.appUrl}${surface.basePath}${sample.path}`, {
    method: route.method,
    headers: {
      ...headers,
      ...(route.requiresIdempotencyKey ? { "Idempotency-Key": `schema-${Math.random()}` } : {}),
      ...(sample.body !== undefined ? { "Content-Type": "application/json" } : {}),
    },
    body: sample.body === undefined ? undefined : JSON.stringify(sample.body),
  });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) as unknown };
}

function expectValid(route: AnyRoute, answer: { status: number; text: string; json: unknown }) {
  const where = `${route.method} ${route.path}`;
  expect(answer.status, `${where}: ${answer.text.slice(0, 300)}`).toBe(route.successStatus ?? 200);
  const parsed = route.response.safeParse(answer.json);
  expect(
    parsed.success ? [] : parsed.error.issues.slice(0, 5),
    `${where} answered outside its response schema: ${parsed.success ? "" : z.prettifyError(parsed.error)}`,
  ).toEqual([]);
}

/** Runs every route of a table in order; a route without a sample fails, naming itself. */
async function runTable(surface: SurfaceConfig, routes: readonly AnyRoute[], samples: Record<string, () => Promise<Sample>>, headers: Record<string, string>) {
  const missing = routes.map((r) => `${r.method} ${r.path}`).filter((k) => !samples[k]);
  expect(missing, "routes without a sample request in tests/integration/http/response-schemas.test.ts").toEqual([]);
  let checked = 0;
  for (const [key, sample] of Object.entries(samples)) {
    const route = routes.find((r) => `${r.method} ${r.path}` === key);
    expect(route, `sample for a route that does not exist: ${key}`).toBeTruthy();
    expectValid(route!, await call(surface, route!, await sample(), headers));
    checked++;
  }
  expect(checked).toBe(routes.length);
}

describe("real answers validate against each route's declared response schema", () => {
  it("Admin API: every read (with and without read:customers) and every write", async () => {
    const reads = PUBLISHED_SCOPES.filter((s): s is Scope => s.startsWith("read:"));
    const contract = await prisma.contract.findFirstOrThrow({
      where: { shopId, status: "ACTIVE", createdByService: true, nextBillingAt: { not: null }, billingInterval: { not: null }, lines: { some: {} } },
      include: { lines: true },
      orderBy: { createdAt: "desc" },
    });
    const bundle = await prisma.bundle.findFirstOrThrow({ where: { shopId, boxes: { some: {} } } });
    const mixMatch = await prisma.mixMatchPlan.findFirstOrThrow({ where: { shopId } });
    const campaign = await prisma.winbackCampaign.findFirstOrThrow({ where: { shopId, sends: { some: {} } } });
    const c = `/subscriptions/${enc(contract.contractGid)}`;
    const endpointId = async () => (await prisma.webhookEndpoint.findFirstOrThrow({ where: { shopId }, orderBy: { createdAt: "desc" } })).id;
    const deliveryId = async () => (await prisma.webhookDelivery.findFirstOrThrow({ where: { shopId }, orderBy: { createdAt: "desc" } })).id;
    const samples: Record<string, () => Promise<Sample>> = {
      "GET /subscriptions": async () => ({ path: "/subscriptions?limit=250" }),
      "GET /subscriptions/:contract_gid": async () => ({ path: c }),
      "GET /plans": async () => ({ path: "/plans" }),
      "GET /plans/:plan_id/schedule": async () => ({
        path: `/plans/${enc((await prisma.sellingPlanGroup.findFirstOrThrow({ where: { shopId, scheduleMode: "ANCHORED" } })).groupGid)}/schedule?start=2026-02-27&count=24`,
      }),
      "GET /bundles": async () => ({ path: "/bundles" }),
      "GET /bundles/:id/boxes": async () => ({ path: `/bundles/${enc(bundle.id)}/boxes` }),
      "GET /mix-match": async () => ({ path: "/mix-match" }),
      "GET /mix-match/:id": async () => ({ path: `/mix-match/${enc(mixMatch.id)}` }),
      "GET /gifts": async () => ({ path: "/gifts?limit=250" }),
      "GET /winback/campaigns": async () => ({ path: "/winback/campaigns" }),
      "GET /winback/campaigns/:id/sends": async () => ({ path: `/winback/campaigns/${enc(campaign.id)}/sends?limit=250` }),
      "GET /notifications": async () => ({ path: "/notifications?limit=250" }),
      "GET /analytics/mrr": async () => ({ path: "/analytics/mrr" }),
      "GET /analytics/churn": async () => ({ path: "/analytics/churn?range=12mo" }),
      "GET /analytics/cohorts": async () => ({ path: "/analytics/cohorts?window=all" }),
      "GET /analytics/recovery": async () => ({ path: "/analytics/recovery?range=12mo" }),
      "GET /analytics/cancellations": async () => ({ path: "/analytics/cancellations?range=12mo" }),
      "GET /analytics/trends": async () => ({ path: "/analytics/trends" }),
      // Writes, in an order the contract's states allow; cancel (terminal) last.
      "POST /subscriptions/:contract_gid/pause": async () => ({ path: `${c}/pause` }),
      "POST /subscriptions/:contract_gid/resume": async () => ({ path: `${c}/resume` }),
      "POST /subscriptions/:contract_gid/skip": async () => ({ path: `${c}/skip` }),
      "POST /subscriptions/:contract_gid/reschedule": async () => ({
        path: `${c}/reschedule`,
        body: { next_billing_at: new Date(Date.now() + 40 * 86_400_000).toISOString() },
      }),
      "PATCH /subscriptions/:contract_gid/lines/:line_gid": async () => ({
        path: `${c}/lines/${enc(contract.lines[0].lineGid)}`,
        body: { quantity: contract.lines[0].quantity + 1 },
      }),
      "POST /subscriptions/:contract_gid/cancel": async () => ({ path: `${c}/cancel` }),
      "POST /exports": async () => ({ path: "/exports", body: { dataset: "plans", format: "jsonl" } }),
      "GET /exports": async () => ({ path: "/exports" }),
      "GET /exports/datasets": async () => ({ path: "/exports/datasets" }),
      "GET /exports/:id": async () => ({ path: `/exports/${enc((await prisma.exportJob.findFirstOrThrow({ where: { shopId } })).id)}` }),
      // Webhooks (no worker runs here: the public address is never dialled).
      "GET /webhooks/events": async () => ({ path: "/webhooks/events" }),
      "POST /webhooks/endpoints": async () => ({
        path: "/webhooks/endpoints",
        body: { url: "https://93.184.215.14/hooks", events: ["subscription.paused", "subscription.cancelled"] },
      }),
      "GET /webhooks/endpoints": async () => ({ path: "/webhooks/endpoints" }),
      "GET /webhooks/endpoints/:id": async () => ({ path: `/webhooks/endpoints/${enc(await endpointId())}` }),
      "PATCH /webhooks/endpoints/:id": async () => ({
        path: `/webhooks/endpoints/${enc(await endpointId())}`,
        body: { enabled: false, events: ["subscription.cancelled"] },
      }),
      "POST /webhooks/endpoints/:id/test": async () => ({ path: `/webhooks/endpoints/${enc(await endpointId())}/test`, body: {} }),
      "GET /webhooks/deliveries": async () => ({ path: "/webhooks/deliveries?limit=250" }),
      "GET /webhooks/deliveries/:id": async () => ({ path: `/webhooks/deliveries/${enc(await deliveryId())}` }),
      "POST /webhooks/deliveries/:id/resend": async () => ({ path: `/webhooks/deliveries/${enc(await deliveryId())}/resend` }),
      "POST /webhooks/endpoints/:id/recover": async () => ({
        path: `/webhooks/endpoints/${enc(await endpointId())}/recover`,
        body: { since: "2026-01-01T00:00:00Z" },
      }),
      "DELETE /webhooks/endpoints/:id": async () => ({ path: `/webhooks/endpoints/${enc(await endpointId())}` }),
      // After the writes above: the feed and the trail have rows by now.
      "GET /events": async () => ({ path: "/events?limit=250" }),
      "GET /audit-events": async () => ({ path: "/audit-events?limit=250" }),
    };
    const everything = await createKey({ shopId, name: "schemas", scopes: [...reads, "write:subscriptions", "manage:webhooks"], kind: "SECRET" });
    await runTable(ADMIN_SURFACE, adminRoutes, samples, { Authorization: `Bearer ${everything.key}` });

    // Without read:customers the protected fields are null, still inside the same schemas.
    const narrow = await createKey({ shopId, name: "schemas narrow", scopes: reads.filter((s) => s !== "read:customers"), kind: "SECRET" });
    for (const path of ["/gifts?limit=250", c]) {
      const route = adminRoutes.find((r) => r.method === "GET" && r.path === (path === c ? "/subscriptions/:contract_gid" : "/gifts"))!;
      expectValid(route, await call(ADMIN_SURFACE, route, { path }, { Authorization: `Bearer ${narrow.key}` }));
    }
  });

  it("Storefront API and Customer API: every route", async () => {
    const pk = await createKey({ shopId, name: "schemas pk", scopes: ["read:plans", "read:bundles", "read:mixmatch"], kind: "PUBLISHABLE" });
    const mixMatch = await prisma.mixMatchPlan.findFirstOrThrow({ where: { shopId }, include: { categories: { include: { entries: true } } } });
    const bundle = await prisma.bundle.findFirstOrThrow({ where: { shopId } });
    const storefrontMetafield = await prisma.storefrontMetafield.findFirstOrThrow({ where: { shopId } });
    const picks = mixMatch.categories.flatMap((c) => c.entries).slice(0, mixMatch.minItems);
    await runTable(
      STOREFRONT_SURFACE,
      storefrontRoutes,
      {
        "GET /products/:product_id/plans": async () => ({ path: `/products/${enc(storefrontMetafield.ownerGid)}/plans` }),
        "GET /bundles/:id": async () => ({ path: `/bundles/${enc(bundle.id)}` }),
        "GET /selling-plans/:selling_plan_id/schedule": async () => ({
          path: `/selling-plans/${enc((await prisma.sellingPlan.findFirstOrThrow({ where: { group: { shopId, status: "ACTIVE" } } })).sellingPlanGid)}/schedule`,
        }),
        "GET /mix-match/:id": async () => ({ path: `/mix-match/${enc(mixMatch.id)}` }),
        "GET /mix-match/:id/price-preview": async () => ({
          path: `/mix-match/${enc(mixMatch.id)}/price-preview?variant_ids=${picks.map((e) => enc(e.variantGid)).join(",")}`,
        }),
      },
      { Authorization: `Bearer ${pk.key}` },
    );

    // The Customer API on a shop with a build-a-box contract whose menu is open (the demo's
    // boxes are for past periods): tests/support/customer-factories.ts.
    const cs = await seedCustomerShop(stack.control, stack.installShop);
    const token = await customerToken(stack.control, cs.domain, cs.customers.a);
    const sessionRoute = customerRoutes.find((r) => r.path === "/session")!;
    const session = await call(
      CUSTOMER_SURFACE,
      sessionRoute,
      { path: "/session", body: { customer_access_token: token } },
      { Authorization: `Bearer ${cs.publishableKey}` },
    );
    const sessionToken = (session.json as { session_token?: string }).session_token ?? "";
    const a = `/subscriptions/${enc(cs.contracts.a.id)}`;
    const box = `/subscriptions/${enc(cs.contracts.aBox.id)}`;
    const line = `${a}/lines/${enc(cs.contracts.a.lines[0].id)}`;
    await prisma.notificationLogEntry.create({
      data: {
        shopId: cs.shopId,
        customerGid: cs.customers.a,
        event: "renewal_reminder",
        category: "reminders",
        status: "delivered",
        title: "Your box ships soon",
      },
    });
    await runTable(
      CUSTOMER_SURFACE,
      customerRoutes,
      {
        "POST /session": async () => ({ path: "/session", body: { customer_access_token: await customerToken(stack.control, cs.domain, cs.customers.a) } }),
        "GET /config": async () => ({ path: "/config" }),
        "GET /subscriptions": async () => ({ path: "/subscriptions" }),
        "GET /subscriptions/:contract_id/box": async () => ({ path: `${box}/box` }),
        "POST /subscriptions/:contract_id/box": async () => ({ path: `${box}/box`, body: { items: [{ variant_id: cs.variants.menu[0], quantity: 2 }] } }),
        "GET /subscriptions/:contract_id/payment-method": async () => ({ path: `${a}/payment-method` }),
        "POST /subscriptions/:contract_id/payment-method/update-email": async () => ({ path: `${a}/payment-method/update-email` }),
        "GET /subscriptions/:contract_id/lines/:line_id/swap-options": async () => ({ path: `${line}/swap-options` }),
        "POST /subscriptions/:contract_id/lines/:line_id": async () => ({ path: line, body: { quantity: 2 } }),
        "POST /subscriptions/:contract_id/reschedule": async () => ({
          path: `${a}/reschedule`,
          body: { date: new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10) },
        }),
        "POST /subscriptions/:contract_id/cancel-reason": async () => ({ path: `${a}/cancel-reason`, body: { reason: "Too much" } }),
        "POST /subscriptions/:contract_id/save-event": async () => ({ path: `${a}/save-event`, body: { offer_type: "skip", event_type: "accepted" } }),
        "GET /notification-preferences": async () => ({ path: "/notification-preferences" }),
        "POST /notification-preferences": async () => ({ path: "/notification-preferences", body: { preferences: { winback: false } } }),
        "GET /notification-activity": async () => ({ path: "/notification-activity" }),
      },
      { Authorization: `Bearer ${cs.publishableKey}`, "X-Service-Session": sessionToken },
    );
  });
});
