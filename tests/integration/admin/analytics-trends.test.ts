// Analytics by month (docs/decisions/153-analytics-trends.md): a seeded shop whose twelve months
// are known by hand, and GET /analytics/trends over the Admin API.
import { prisma } from "../../../app/db.server";
import { trends } from "../../../app/domain/insights/trends.server";
import { api } from "../../support/admin-factories";
import { createContracts, createKey, createShop } from "../../support/fixtures";

const at = (iso: string) => new Date(iso);

describe("analytics trends", () => {
  it("MRR at each month's end, churn within each month and win-back per month, for twelve months", async () => {
    const shop = await createShop();
    const other = await createShop();
    const now = at("2026-06-15T12:00:00Z");
    await createContracts(shop.id, 1, () => ({ createdAt: at("2025-01-10T00:00:00Z"), monthlyAmountCents: 1000 })); // A: every month
    await createContracts(shop.id, 1, () => ({
      createdAt: at("2025-01-10T00:00:00Z"),
      monthlyAmountCents: 2000,
      status: "CANCELLED",
      endedAt: at("2026-03-10T00:00:00Z"),
    })); // B: to February
    await createContracts(shop.id, 1, () => ({ createdAt: at("2026-04-20T00:00:00Z"), monthlyAmountCents: 500, currencyCode: "EUR" })); // C: from April
    await createContracts(shop.id, 1, () => ({ createdAt: at("2025-01-01T00:00:00Z"), monthlyAmountCents: 3000, status: "PAUSED" })); // D: never in MRR
    await createContracts(shop.id, 1, () => ({ createdAt: at("2026-06-14T00:00:00Z"), monthlyAmountCents: 700 })); // E: June only
    await createContracts(shop.id, 1, () => ({ createdAt: at("2025-01-01T00:00:00Z"), monthlyAmountCents: 9000, createdByService: false })); // F: not ours
    await createContracts(other.id, 3, () => ({ createdAt: at("2025-01-01T00:00:00Z"), monthlyAmountCents: 5000 }));
    const campaign = await prisma.winbackCampaign.create({
      data: { shopId: shop.id, name: "Come back", status: "active", offerLabel: "10% off", delayDays: 7 },
    });
    let customer = 0;
    const send = (sentAt: string, reactivated: boolean) => ({
      shopId: shop.id,
      campaignId: campaign.id,
      contractGid: "gid://shopify/SubscriptionContract/1",
      customerGid: `gid://shopify/Customer/${++customer}`,
      sentAt: at(sentAt),
      reactivated,
      currencyCode: "USD",
    });
    await prisma.winbackSend.createMany({
      data: [send("2026-05-03T00:00:00Z", true), send("2026-05-20T00:00:00Z", false), send("2025-06-30T00:00:00Z", true)],
    });

    const t = await trends(shop.id, now);
    expect(t.months.map((m) => m.month)).toEqual([
      "2025-07",
      "2025-08",
      "2025-09",
      "2025-10",
      "2025-11",
      "2025-12",
      "2026-01",
      "2026-02",
      "2026-03",
      "2026-04",
      "2026-05",
      "2026-06",
    ]);
    const usd = (amount: string) => ({ amount, currency_code: "USD" });
    const eur = (amount: string) => ({ amount, currency_code: "EUR" });
    expect(t.months.map((m) => [m.mrr, m.activeContracts])).toEqual([
      ...Array.from({ length: 8 }, () => [[usd("30.00")], 2]),
      [[usd("10.00")], 1],
      [[usd("10.00"), eur("5.00")], 2],
      [[usd("10.00"), eur("5.00")], 2],
      [[usd("17.00"), eur("5.00")], 3],
    ]);
    expect(t.months[11].end).toEqual(now);
    const march = t.months[8];
    expect(march).toMatchObject({ subscribersAtStart: 3, churned: 1, churnRate: 0.3333, newSubscriptions: 0 });
    expect(t.months[9]).toMatchObject({ month: "2026-04", subscribersAtStart: 2, churned: 0, churnRate: 0, newSubscriptions: 1 });
    expect(t.months[11]).toMatchObject({ subscribersAtStart: 3, churned: 0, newSubscriptions: 1 });
    expect(t.months.map((m) => [m.sends, m.reactivated])).toEqual([...Array.from({ length: 10 }, () => [0, 0]), [2, 1], [0, 0]]);
  });

  it("GET /analytics/trends answers twelve months whose last MRR is GET /analytics/mrr, under read:analytics only", async () => {
    const shop = await createShop();
    await createContracts(shop.id, 4, () => ({ createdAt: new Date(Date.now() - 400 * 86_400_000), monthlyAmountCents: 1250 }));
    const key = (await createKey({ shopId: shop.id, name: "trends", scopes: ["read:analytics"] })).key;
    const r = await api(key, "GET", "/analytics/trends");
    expect(r.status).toBe(200);
    expect(r.json.months).toHaveLength(12);
    const mrr = await api(key, "GET", "/analytics/mrr");
    expect(r.json.months[11].mrr).toEqual(mrr.json.mrr);
    expect(r.json.months[0].mrr).toEqual([{ amount: "50.00", currency_code: "USD" }]);
    expect((await api(key, "GET", "/analytics/trends?months=24")).status).toBe(400);
    const other = (await createKey({ shopId: shop.id, name: "no analytics", scopes: ["read:subscriptions"] })).key;
    const refused = await api(other, "GET", "/analytics/trends");
    expect(refused.status).toBe(403);
  });
});
