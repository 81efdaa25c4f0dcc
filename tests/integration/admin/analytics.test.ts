// Analytics definitions (docs/decisions/022-analytics-definitions.md) through the Admin API.
import { prisma } from "../../../app/db.server";
import fc from "fast-check";
import { churn, cohorts, rangeBounds, RANGES } from "../../../app/domain/insights/analytics.server";
import { api } from "../../support/admin-factories";
import { createContracts, createKey, createShop, gid } from "../../support/fixtures";

const DAY = 86_400_000;

describe("GET /analytics/mrr", () => {
  it("sums monthly amounts of ACTIVE contracts per currency; missing amounts count and contribute zero", async () => {
    const shop = await createShop();
    const key = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:analytics"] })).key;
    await createContracts(shop.id, 3, () => ({ monthlyAmountCents: 1999 }));
    await createContracts(shop.id, 2, () => ({ monthlyAmountCents: null }));
    await createContracts(shop.id, 1, () => ({ monthlyAmountCents: 500, currencyCode: "EUR" }));
    await createContracts(shop.id, 2, () => ({ monthlyAmountCents: 10_000, status: "PAUSED" }));
    await createContracts(shop.id, 1, () => ({ monthlyAmountCents: 10_000, createdByService: false }));
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
    const shop = await createShop();
    const key = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:analytics"] })).key;
    expect((await api(key, "GET", "/analytics/mrr")).json).toMatchObject({ mrr: [], active_contracts: 0, contracts_missing_amount: 0 });
  });
});

describe("GET /analytics/churn", () => {
  it("counts the start-of-range base that ended within the range (default 30d), by ended_at", async () => {
    const shop = await createShop();
    const key = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:analytics"] })).key;
    const now = Date.now();
    // updated_at is "just now" everywhere: only ended_at says when a contract ended.
    const ago = (days: number) => new Date(now - days * DAY);
    const touched = new Date(now - 60_000);
    await createContracts(shop.id, 6, () => ({ createdAt: ago(100), updatedAt: touched })); // base, live
    await createContracts(shop.id, 2, () => ({ createdAt: ago(100), status: "CANCELLED", updatedAt: touched, endedAt: ago(5) })); // churned in 7d and 30d
    await createContracts(shop.id, 1, () => ({ createdAt: ago(100), status: "EXPIRED", updatedAt: touched, endedAt: ago(20) })); // churned in 30d only
    await createContracts(shop.id, 1, () => ({ createdAt: ago(100), status: "FAILED", updatedAt: touched, endedAt: ago(25) })); // billing failed: churned in 30d only
    await createContracts(shop.id, 1, () => ({ createdAt: ago(100), status: "CANCELLED", updatedAt: touched, endedAt: ago(60) })); // gone before the range
    await createContracts(shop.id, 1, () => ({ createdAt: ago(100), status: "PAUSED", updatedAt: ago(3) })); // paused is not churn
    await createContracts(shop.id, 3, () => ({ createdAt: ago(2), updatedAt: touched })); // new
    await createContracts(shop.id, 1, () => ({ createdAt: ago(3), status: "CANCELLED", updatedAt: touched, endedAt: ago(1) })); // new and ended
    const d30 = (await api(key, "GET", "/analytics/churn")).json;
    expect(d30).toMatchObject({ range: "30d", subscribers_at_start: 11, churned: 4, churn_rate: 0.3636, new_subscriptions: 4, ended_total: 5 });
    const d7 = (await api(key, "GET", "/analytics/churn?range=7d")).json;
    expect(d7).toMatchObject({ range: "7d", subscribers_at_start: 9, churned: 2, churn_rate: 0.2222 });
    expect((await api(key, "GET", "/analytics/churn?range=12mo")).json.range).toBe("12mo");
    const bad = await api(key, "GET", "/analytics/churn?range=1y");
    expect(bad.status).toBe(400);
    expect(bad.error?.message).toContain("1y");
  });

  it("property: churn and cohorts equal a recount of ended_at over random contracts", async () => {
    const now = new Date(Date.UTC(2026, 9, 15, 12));
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            createdDaysAgo: fc.integer({ min: 0, max: 400 }),
            // null: still live; else days after creation it ended (may be after "now": then live)
            endedAfter: fc.option(fc.integer({ min: 0, max: 400 }), { nil: null }),
            status: fc.constantFrom("CANCELLED", "EXPIRED", "FAILED"),
          }),
          { minLength: 0, maxLength: 30 },
        ),
        fc.constantFrom(...RANGES),
        async (rows, range) => {
          const shop = await createShop();
          const contracts = rows.map((r) => {
            const createdAt = new Date(now.getTime() - r.createdDaysAgo * DAY - 3_600_000);
            const end = r.endedAfter === null ? null : new Date(createdAt.getTime() + r.endedAfter * DAY);
            const endedAt = end && end < now ? end : null;
            return { createdAt, endedAt, status: endedAt ? r.status : ("ACTIVE" as const) };
          });
          await createContracts(shop.id, contracts.length, (i) => ({ ...contracts[i], updatedAt: now }));
          const { start, end } = rangeBounds(range, now);
          const base = contracts.filter((c) => c.createdAt < start && (!c.endedAt || c.endedAt >= start));
          const churned = base.filter((c) => c.endedAt && c.endedAt < end).length;
          expect(await churn(shop.id, range, now)).toMatchObject({
            subscribersAtStart: base.length,
            churned,
            newSubscriptions: contracts.filter((c) => c.createdAt >= start).length,
            endedTotal: contracts.filter((c) => c.endedAt && c.endedAt >= start && c.endedAt < end).length,
          });
          // Cohorts: for each signup month, who is live at each month boundary after it.
          const monthStart = (d: Date, k = 0) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + k, 1));
          const all = (await cohorts(shop.id, "all", now)).cohorts;
          expect(all.map((c) => c.cohort).sort()).toEqual([...new Set(contracts.map((c) => c.createdAt.toISOString().slice(0, 7)))].sort());
          for (const cohort of all) {
            const members = contracts.filter((c) => c.createdAt.toISOString().slice(0, 7) === cohort.cohort);
            expect(cohort.size).toBe(members.length);
            for (const { month, active } of cohort.retention) {
              const boundary = monthStart(members[0].createdAt, month);
              // live at the boundary = not ended before it (one that ends in its signup month is gone at k = 1)
              expect(active).toBe(members.filter((c) => !c.endedAt || c.endedAt >= boundary).length);
            }
          }
        },
      ),
      { numRuns: 15 },
    );
  });

  it("churn_rate is null when nobody was subscribed at the start", async () => {
    const shop = await createShop();
    const key = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:analytics"] })).key;
    expect((await api(key, "GET", "/analytics/churn?range=90d")).json).toMatchObject({ subscribers_at_start: 0, churn_rate: null });
  });
});

describe("GET /analytics/cohorts", () => {
  it("groups by signup month and counts who is still live at each month boundary", async () => {
    const shop = await createShop();
    const now = new Date(Date.UTC(2026, 5, 10)); // June 2026
    const jan = (d: number) => new Date(Date.UTC(2026, 0, d));
    await createContracts(shop.id, 4, () => ({ createdAt: jan(10) }));
    // updated_at is later than the end (an edit after the end): only ended_at places the end.
    await createContracts(shop.id, 1, () => ({
      createdAt: jan(12),
      status: "CANCELLED",
      updatedAt: new Date(Date.UTC(2026, 5, 1)),
      endedAt: new Date(Date.UTC(2026, 1, 20)),
    })); // ended in Feb
    await createContracts(shop.id, 1, () => ({
      createdAt: jan(31),
      status: "CANCELLED",
      updatedAt: new Date(Date.UTC(2026, 5, 1)),
      endedAt: new Date(Date.UTC(2026, 3, 2)),
    })); // ended in Apr
    await createContracts(shop.id, 2, () => ({ createdAt: new Date(Date.UTC(2026, 4, 3)) }));
    await createContracts(shop.id, 1, () => ({ createdAt: new Date(Date.UTC(2024, 4, 3)) })); // outside window 12
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
    const key = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:analytics"] })).key;
    expect((await api(key, "GET", "/analytics/cohorts")).json.window).toBe("12");
    expect((await api(key, "GET", "/analytics/cohorts?window=24")).json.window).toBe("24");
    expect((await api(key, "GET", "/analytics/cohorts?window=all")).json.cohorts).toHaveLength(3);
    expect((await api(key, "GET", "/analytics/cohorts?window=6")).status).toBe(400);
  });
});

describe("GET /analytics/recovery", () => {
  it("reports sends within the range, reactivations among them and the recovered amount", async () => {
    const shop = await createShop();
    const key = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:analytics"] })).key;
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
