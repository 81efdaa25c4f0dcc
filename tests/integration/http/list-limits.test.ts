// Every Admin API list over real HTTP (the built app): `limit` defaults to 50, an over-large value
// is clamped to 250 and never refused, a malformed one is 400 invalid_request, and the answer is
// the list envelope { data, next_cursor } paged by keyset (/docs#section/Conventions). Each keyset
// list gets 260 rows so both the default and the clamp show; the short fixed lists (the event
// catalogue, the export datasets, a bundle's boxes) take limit and cursor too
// (docs/decisions/120-list-limits-and-endpoint-paging.md). Also here: the /notifications event
// filter refuses a name outside the catalogue.
import { prisma } from "../../../app/db.server";
import { createBundle, createBundleBox, createContracts, createKey, createPlanGroup, gid } from "../../support/fixtures";
import { useStack } from "../../support/stack";

const stack = useStack({ workers: false }, 120_000);
const N = 260;
const BASE = Date.UTC(2026, 0, 1);
const at = (i: number) => new Date(BASE + i * 1000);
// The delivery log shows its last 30 days only (docs/decisions/169-delivery-partitions.md): its
// events and deliveries are dated a day ago, a second apart.
const RECENT = Date.now() - 86_400_000;
const recentAt = (i: number) => new Date(RECENT + i * 1000);

type Envelope = { data: Array<Record<string, unknown>>; next_cursor: string | null; error?: { code: string; message: string } };
let call: (path: string) => Promise<{ status: number; body: Envelope }>;
let bundleId = "";
let campaignId = "";

beforeAll(async () => {
  const shop = await stack.installShop("PRO");
  const shopId = shop.shopId;
  const { key } = await createKey({
    shopId,
    scopes: ["read:subscriptions", "read:plans", "read:bundles", "read:mixmatch", "read:gifts", "read:winback", "read:notifications", "manage:webhooks"],
  });
  call = async (path) => {
    const res = await fetch(`${stack.appUrl}/api/admin/v1${path}`, { headers: { Authorization: `Bearer ${key}` } });
    return { status: res.status, body: (await res.json()) as Envelope };
  };

  const range = Array.from({ length: N }, (_, i) => i);
  await createContracts(shopId, N, (i) => ({ createdAt: at(i) }));
  const groups: Array<{ id: string }> = [];
  for (const i of range) groups.push(await createPlanGroup(shopId, { createdAt: at(i) }));
  const bundle = await createBundle({ shopId, groupId: groups[0].id, createdAt: at(N) });
  bundleId = bundle.id;
  await prisma.bundle.createMany({ data: range.map((i) => ({ shopId, groupId: groups[i].id, title: `B${i}`, kind: "REGULAR" as const, createdAt: at(i) })) });
  for (const p of ["2025-01", "2025-02", "2025-03"]) await createBundleBox({ bundleId, period: p, items: [] });
  await prisma.mixMatchPlan.createMany({
    data: range.map((i) => ({
      shopId,
      groupId: groups[i].id,
      title: `M${i}`,
      cartGroupId: `cg-${i}`,
      priceCents: 100,
      minItems: 1,
      maxItems: 2,
      createdAt: at(i),
    })),
  });
  await prisma.gift.createMany({ data: range.map((i) => ({ shopId, kind: "RECURRING" as const, createdAt: at(i) })) });
  await prisma.winbackCampaign.createMany({
    data: range.map((i) => ({ shopId, name: `C${i}`, status: "active", offerLabel: "10%", delayDays: 7, createdAt: at(i) })),
  });
  campaignId = (await prisma.winbackCampaign.findFirstOrThrow({ where: { shopId } })).id;
  await prisma.winbackSend.createMany({
    data: range.map((i) => ({
      shopId,
      campaignId,
      contractGid: gid("SubscriptionContract"),
      customerGid: gid("Customer"),
      sentAt: at(i),
      currencyCode: "USD",
      createdAt: at(i),
    })),
  });
  await prisma.notificationLogEntry.createMany({
    data: range.map((i) => ({
      shopId,
      customerGid: gid("Customer"),
      event: "renewal_reminder",
      category: "reminders",
      status: "sent",
      title: "t",
      createdAt: at(i),
    })),
  });
  await prisma.exportJob.createMany({
    data: range.map((i) => ({ shopId, dataset: "subscriptions", format: "csv", status: "ready" as const, activeSlot: null, createdAt: at(i) })),
  });
  await prisma.webhookEndpoint.createMany({
    data: range.map((i) => ({
      shopId,
      url: `https://hooks.example.com/${i}`,
      secretCiphertext: "x",
      events: ["subscription.paused"],
      enabled: false,
      createdAt: at(i),
    })),
  });
  const endpoint = await prisma.webhookEndpoint.findFirstOrThrow({ where: { shopId } });
  await prisma.event.createMany({
    data: range.map((i) => ({
      id: `evt_limits_${shopId}_${i}`,
      shopId,
      type: "subscription.paused",
      data: {},
      sourceKey: `limits:${shopId}:${i}`,
      createdAt: recentAt(i),
    })),
  });
  await prisma.webhookDelivery.createMany({
    data: range.map((i) => ({ shopId, endpointId: endpoint.id, eventId: `evt_limits_${shopId}_${i}`, event: "subscription.paused", createdAt: recentAt(i) })),
  });
}, 240_000);

const KEYSET_LISTS = () => [
  "/subscriptions",
  "/plans",
  "/bundles",
  "/mix-match",
  "/gifts",
  "/winback/campaigns",
  `/winback/campaigns/${campaignId}/sends`,
  "/notifications",
  "/exports",
  "/webhooks/endpoints",
  "/webhooks/deliveries",
];

describe("limit on every list, over HTTP", () => {
  it("keyset lists: 50 rows without limit, 250 for limit=251 and limit=100000 (clamped, not refused), 400 for a malformed limit", async () => {
    for (const list of KEYSET_LISTS()) {
      const sep = list.includes("?") ? "&" : "?";
      const plain = await call(list);
      expect({ list, status: plain.status, rows: plain.body.data?.length, more: typeof plain.body.next_cursor }).toEqual({
        list,
        status: 200,
        rows: 50,
        more: "string",
      });
      for (const limit of ["251", "100000"]) {
        const big = await call(`${list}${sep}limit=${limit}`);
        expect({ list, limit, status: big.status, rows: big.body.data?.length, more: typeof big.body.next_cursor }).toEqual({
          list,
          limit,
          status: 200,
          rows: 250,
          more: "string",
        });
      }
      const bad = await call(`${list}${sep}limit=ten`);
      expect({ list, status: bad.status, code: bad.body.error?.code }).toEqual({ list, status: 400, code: "invalid_request" });
    }
  }, 120_000);

  it("GET /webhooks/endpoints is keyset-paged: every endpoint once, newest first, to next_cursor null", async () => {
    const seen: string[] = [];
    let path = "/webhooks/endpoints?limit=100";
    for (;;) {
      const page = await call(path);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((e) => String(e.url)));
      if (!page.body.next_cursor) break;
      path = `/webhooks/endpoints?limit=100&cursor=${encodeURIComponent(page.body.next_cursor)}`;
    }
    expect(seen).toEqual(Array.from({ length: N }, (_, i) => `https://hooks.example.com/${N - 1 - i}`));
    const forged = await call("/webhooks/endpoints?cursor=abc.def");
    expect([forged.status, forged.body.error?.code]).toEqual([400, "invalid_cursor"]);
  });

  it("the fixed lists take limit (clamped) and cursor instead of refusing them", async () => {
    for (const list of ["/webhooks/events", "/exports/datasets", `/bundles/${bundleId}/boxes`]) {
      const whole = await call(list);
      expect({ list, status: whole.status, next: whole.body.next_cursor }).toEqual({ list, status: 200, next: null });
      const clamped = await call(`${list}?limit=100000`);
      expect({ list, status: clamped.status, rows: clamped.body.data.length }).toEqual({ list, status: 200, rows: whole.body.data.length });
      const first = await call(`${list}?limit=1`);
      expect({ list, status: first.status, rows: first.body.data.length }).toEqual({ list, status: 200, rows: 1 });
      const paged = [...first.body.data];
      let cursor = first.body.next_cursor;
      while (cursor) {
        const next = await call(`${list}?limit=1&cursor=${encodeURIComponent(cursor)}`);
        expect(next.status).toBe(200);
        paged.push(...next.body.data);
        cursor = next.body.next_cursor;
      }
      expect(paged, list).toEqual(whole.body.data);
      const bad = await call(`${list}?limit=-1`);
      expect({ list, status: bad.status, code: bad.body.error?.code }).toEqual({ list, status: 400, code: "invalid_request" });
    }
  });
});

describe("GET /notifications event filter", () => {
  it("a name from the catalogue filters; a name outside it is 400 invalid_request naming it", async () => {
    const ok = await call("/notifications?event=renewal_reminder&limit=5");
    expect([ok.status, ok.body.data.length]).toEqual([200, 5]);
    const none = await call("/notifications?event=payment_failed");
    expect([none.status, none.body.data.length]).toEqual([200, 0]);
    const unknown = await call("/notifications?event=subscription_exploded");
    expect(unknown.status).toBe(400);
    expect(unknown.body.error?.code).toBe("invalid_request");
    expect(unknown.body.error?.message).toContain("subscription_exploded");
  });
});
