// Analytics definitions (docs/decisions/022-analytics-definitions.md) through the Admin API.
import { prisma } from "../../../app/db.server";
import { cohorts } from "../../../app/domain/analytics.server";
import { api, createAdminShop, gid, insertContracts, secretKey } from "../../support/admin-factories";

const DAY = 86_400_000;

describe("GET /analytics/mrr", () => {
  it("sums monthly amounts of ACTIVE contracts per currency; missing amounts count and contribute zero", async () => {
    const shop = await createAdminShop();
    const key = await secretKey(shop.id, ["read:analytics"]);
    await insertContracts(shop.id, 3, () => ({ monthlyAmountCents: 1999 }));
    await insertContracts(shop.id, 2, () => ({ monthlyAmountCents: null }));
    await insertContracts(shop.id, 1, () => ({ monthlyAmountCents: 500, currencyCode: "EUR" }));
    await insertContracts(shop.id, 2, () => ({ monthlyAmountCents: 10_000, status: "PAUSED" }));
    await insertContracts(shop.id, 1, () => ({ monthlyAmountCents: 10_000, createdByService: false }));
    const r = await api(key, "GET", "/analytics/mrr");
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      mrr: [
        { amount: "59.97", currency_code: "USD" },
        { amount: "5.00", currency_code: "EUR" },
      ],
      active_contracts: 6,
      contracts_missing_amount: 2,
    });
    expect((await api(key, "GET", "/analytics/mrr?range=30d")).status).toBe(400);
  });

  it("an empty shop has no figure and no invented average", async () => {
    const shop = await createAdminShop();
    const key = await secretKey(shop.id, ["read:analytics"]);
    expect((await api(key, "GET", "/analytics/mrr")).json).toMatchObject({ mrr: [], active_contracts: 0, contracts_missing_amount: 0 });
  });
});

describe("GET /analytics/churn", () => {
  it("counts the start-of-range base that ended within the range (default 30d)", async () => {
    const shop = await createAdminShop();
    const key = await secretKey(shop.id, ["read:analytics"]);
    const now = Date.now();
    await insertContracts(shop.id, 6, () => ({ createdAt: new Date(now - 100 * DAY) })); // base, live
    await insertContracts(shop.id, 2, () => ({ createdAt: new Date(now - 100 * DAY), status: "CANCELLED", updatedAt: new Date(now - 5 * DAY) })); // churned in 7d and 30d
    await insertContracts(shop.id, 1, () => ({ createdAt: new Date(now - 100 * DAY), status: "EXPIRED", updatedAt: new Date(now - 20 * DAY) })); // churned in 30d only
    await insertContracts(shop.id, 1, () => ({ createdAt: new Date(now - 100 * DAY), status: "CANCELLED", updatedAt: new Date(now - 60 * DAY) })); // gone before the range
    await insertContracts(shop.id, 3, () => ({ createdAt: new Date(now - 2 * DAY) })); // new
    await insertContracts(shop.id, 1, () => ({ createdAt: new Date(now - 3 * DAY), status: "CANCELLED", updatedAt: new Date(now - DAY) })); // new and ended
    const d30 = (await api(key, "GET", "/analytics/churn")).json;
    expect(d30).toMatchObject({ range: "30d", subscribers_at_start: 9, churned: 3, churn_rate: 0.3333, new_subscriptions: 4, ended_total: 4 });
    const d7 = (await api(key, "GET", "/analytics/churn?range=7d")).json;
    expect(d7).toMatchObject({ range: "7d", subscribers_at_start: 8, churned: 2, churn_rate: 0.25 });
    expect((await api(key, "GET", "/analytics/churn?range=12mo")).json.range).toBe("12mo");
    const bad = await api(key, "GET", "/analytics/churn?range=1y");
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toContain("1y");
  });

  it("churn_rate is null when nobody was subscribed at the start", async () => {
    const shop = await createAdminShop();
    const key = await secretKey(shop.id, ["read:analytics"]);
    expect((await api(key, "GET", "/analytics/churn?range=90d")).json).toMatchObject({ subscribers_at_start: 0, churn_rate: null });
  });
});

describe("GET /analytics/cohorts", () => {
  it("groups by signup month and counts who is still live at each month boundary", async () => {
    const shop = await createAdminShop();
    const now = new Date(Date.UTC(2026, 5, 10)); // June 2026
    const jan = (d: number) => new Date(Date.UTC(2026, 0, d));
    await insertContracts(shop.id, 4, () => ({ createdAt: jan(10) }));
    await insertContracts(shop.id, 1, () => ({ createdAt: jan(12), status: "CANCELLED", updatedAt: new Date(Date.UTC(2026, 1, 20)) })); // ended in Feb
    await insertContracts(shop.id, 1, () => ({ createdAt: jan(31), status: "CANCELLED", updatedAt: new Date(Date.UTC(2026, 3, 2)) })); // ended in Apr
    await insertContracts(shop.id, 2, () => ({ createdAt: new Date(Date.UTC(2026, 4, 3)) }));
    await insertContracts(shop.id, 1, () => ({ createdAt: new Date(Date.UTC(2024, 4, 3)) })); // outside window 12
    const r = await cohorts(shop.id, "12", now);
    expect(r.cohorts.map((c) => c.cohort)).toEqual(["2026-05", "2026-01"]);
    const jan26 = r.cohorts[1];
    expect(jan26.size).toBe(6);
    expect(jan26.retention.map((x) => x.active)).toEqual([6, 6, 5, 5, 4, 4]);
    expect(jan26.retention[5]).toEqual({ month: 5, active: 4, rate: 0.6667 });
    expect(r.cohorts[0].retention).toEqual([
      { month: 0, active: 2, rate: 1 },
      { month: 1, active: 2, rate: 1 },
    ]);
    expect((await cohorts(shop.id, "all", now)).cohorts.map((c) => c.cohort)).toEqual(["2026-05", "2026-01", "2024-05"]);
    const key = await secretKey(shop.id, ["read:analytics"]);
    expect((await api(key, "GET", "/analytics/cohorts")).json.window).toBe("12");
    expect((await api(key, "GET", "/analytics/cohorts?window=24")).json.window).toBe("24");
    expect((await api(key, "GET", "/analytics/cohorts?window=all")).json.cohorts).toHaveLength(3);
    expect((await api(key, "GET", "/analytics/cohorts?window=6")).status).toBe(400);
  });
});

describe("GET /analytics/recovery", () => {
  it("reports sends within the range, reactivations among them and the recovered amount", async () => {
    const shop = await createAdminShop();
    const key = await secretKey(shop.id, ["read:analytics"]);
    const campaign = await prisma.winbackCampaign.create({ data: { shopId: shop.id, name: "c", status: "active", offerLabel: "x", delayDays: 3 } });
    const send = (daysAgo: number, reactivated: boolean, cents: number) => ({
      shopId: shop.id,
      campaignId: campaign.id,
      contractGid: gid("SubscriptionContract"),
      customerGid: gid("Customer"),
      sentAt: new Date(Date.now() - daysAgo * DAY),
      reactivated,
      reactivatedAt: reactivated ? new Date() : null,
      recoveredAmountCents: cents,
      currencyCode: "USD",
    });
    await prisma.winbackSend.createMany({ data: [send(2, true, 2500), send(3, false, 0), send(10, true, 1000), send(10, false, 0), send(40, true, 9999)] });
    const d30 = (await api(key, "GET", "/analytics/recovery")).json;
    expect(d30).toMatchObject({ range: "30d", sends: 4, reactivated: 2, recovery_rate: 0.5, recovered_amount: [{ amount: "35.00", currency_code: "USD" }] });
    const d7 = (await api(key, "GET", "/analytics/recovery?range=7d")).json;
    expect(d7).toMatchObject({ sends: 2, reactivated: 1, recovered_amount: [{ amount: "25.00", currency_code: "USD" }] });
    expect((await api(key, "GET", "/analytics/recovery?range=week")).status).toBe(400);
  });
});
