// Cancellation insights (docs/decisions/114-cancellation-insights.md) on a seeded case whose
// answers are worked out by hand below: reasons, offers per type, the save rate over contracts,
// revenue preserved per currency (as the Customer API derived it from the mirror), the buckets of
// the trend, the range's edges, and another shop's rows that must never count; and the same
// figures through the Admin API's GET /analytics/cancellations.
import { prisma } from "../../../app/db.server";
import { cancellationInsights } from "../../../app/domain/retention/cancel-insights.server";
import { api } from "../../support/admin-factories";
import { createContract, createKey, createShop } from "../../support/fixtures";

const DAY = 86_400_000;
const NOW = new Date("2026-06-30T12:00:00Z");
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

async function seedCase() {
  const shop = await createShop();
  const other = await createShop();
  // Four contracts: A (USD 20.00/month), B (USD 35.00), C (EUR 12.00), D (USD 50.00, cancelled 3 days ago).
  const A = await createContract(shop.id, { monthlyAmountCents: 2000 });
  const B = await createContract(shop.id, { monthlyAmountCents: 3500 });
  const C = await createContract(shop.id, { monthlyAmountCents: 1200, currencyCode: "EUR" });
  const D = await createContract(shop.id, { monthlyAmountCents: 5000, status: "CANCELLED", updatedAt: ago(3), endedAt: ago(3) });
  // E was cancelled 4 days ago without any reason recorded.
  await createContract(shop.id, { status: "CANCELLED", endedAt: ago(4) });
  const ev = (c: { contractGid: string; customerGid: string }, offerType: string, eventType: string, cents: number, at: Date) => ({
    shopId: shop.id,
    contractGid: c.contractGid,
    customerGid: c.customerGid,
    offerType,
    eventType,
    preservedRevenueCents: cents,
    createdAt: at,
  });
  await prisma.saveEvent.createMany({
    data: [
      // A: shown pause and skip 2 days ago, accepted the pause (saved, USD 20.00).
      ev(A, "pause", "shown", 0, ago(2)),
      ev(A, "skip", "shown", 0, ago(2)),
      ev(A, "pause", "accepted", 2000, ago(2)),
      // B: shown pause 5 days ago, accepted skip (shown too) (saved, USD 35.00).
      ev(B, "pause", "shown", 0, ago(5)),
      ev(B, "skip", "shown", 0, ago(5)),
      ev(B, "skip", "accepted", 3500, ago(5)),
      // C: shown a discount 1 day ago, accepted it (saved, EUR 12.00).
      ev(C, "discount", "shown", 0, ago(1)),
      ev(C, "discount", "accepted", 1200, ago(1)),
      // D: shown pause 3 days ago, declined, cancelled.
      ev(D, "pause", "shown", 0, ago(3)),
      // Outside the 7-day range (8 days ago): never counted in 7d.
      ev(D, "pause", "accepted", 5000, ago(8)),
      ev(D, "pause", "shown", 0, ago(8)),
      // Another shop's rows on a contract id of this shop: never counted.
      { ...ev(A, "pause", "accepted", 9999, ago(1)), shopId: other.id },
    ],
  });
  await prisma.cancelReason.createMany({
    data: [
      { shopId: shop.id, contractGid: D.contractGid, customerGid: D.customerGid, reason: "Too expensive", createdAt: ago(3) },
      { shopId: shop.id, contractGid: A.contractGid, customerGid: A.customerGid, reason: "Too much product", createdAt: ago(2) },
      { shopId: shop.id, contractGid: B.contractGid, customerGid: B.customerGid, reason: "Too expensive", createdAt: ago(5) },
      { shopId: shop.id, contractGid: B.contractGid, customerGid: B.customerGid, reason: "Moving", createdAt: ago(9) },
      { shopId: other.id, contractGid: A.contractGid, customerGid: A.customerGid, reason: "Too expensive", createdAt: ago(1) },
    ],
  });
  return { shop };
}

describe("cancellation insights", () => {
  it("answers the seeded case: reasons, offers per type, save rate, revenue preserved per currency", async () => {
    const { shop } = await seedCase();
    const r = await cancellationInsights(shop.id, "7d", NOW);
    expect(r.byReason).toEqual([
      { reason: "Too expensive", count: 2 },
      { reason: "Too much product", count: 1 },
    ]);
    // Cancelled in range: D and E; D has a reason, E not.
    expect(r.cancelledWithoutReason).toBe(1);
    expect(r.offers).toEqual([
      { offerType: "pause", shown: 3, accepted: 1, acceptanceRate: 0.3333 },
      { offerType: "skip", shown: 2, accepted: 1, acceptanceRate: 0.5 },
      { offerType: "discount", shown: 1, accepted: 1, acceptanceRate: 1 },
    ]);
    // Shown: A, B, C, D; saved: A, B, C.
    expect([r.contractsShown, r.contractsSaved, r.saveRate]).toEqual([4, 3, 0.75]);
    expect(r.revenuePreserved).toEqual([
      { amount: "55.00", currency_code: "USD" },
      { amount: "12.00", currency_code: "EUR" },
    ]);
  });

  it("buckets the trend by day over 7 days, empty days included, and sums to the totals", async () => {
    const { shop } = await seedCase();
    const r = await cancellationInsights(shop.id, "7d", NOW);
    expect(r.bucket).toBe("day");
    // [now-7d, now): the partial first day (from 12:00) plus 7 whole days up to today's 12:00.
    expect(r.series).toHaveLength(8);
    expect(r.series[0].start).toEqual(ago(7));
    const byDay = Object.fromEntries(r.series.map((b) => [b.start.toISOString().slice(0, 10), b]));
    expect(byDay["2026-06-25"]).toMatchObject({ cancellations: 1, offersShown: 2, offersAccepted: 1, contractsShown: 1, contractsSaved: 1, saveRate: 1 });
    expect(byDay["2026-06-27"]).toMatchObject({ cancellations: 1, offersShown: 1, offersAccepted: 0, contractsShown: 1, contractsSaved: 0, saveRate: 0 });
    expect(byDay["2026-06-26"]).toMatchObject({ cancellations: 0, offersShown: 0, saveRate: null });
    expect(r.series.reduce((s, b) => s + b.cancellations, 0)).toBe(3);
    expect(r.series.reduce((s, b) => s + b.offersShown, 0)).toBe(6);
    expect(r.series.reduce((s, b) => s + b.offersAccepted, 0)).toBe(3);
  });

  it("a wider range takes in the older rows; a shop with no rows answers zeros and null rates", async () => {
    const { shop } = await seedCase();
    const month = await cancellationInsights(shop.id, "30d", NOW);
    expect(month.byReason).toEqual([
      { reason: "Too expensive", count: 2 },
      { reason: "Moving", count: 1 },
      { reason: "Too much product", count: 1 },
    ]);
    expect(month.offers[0]).toEqual({ offerType: "pause", shown: 4, accepted: 2, acceptanceRate: 0.5 });
    // D was shown and accepted 8 days ago (a save then), shown again and cancelled later: 4 of 4.
    expect([month.contractsShown, month.contractsSaved]).toEqual([4, 4]);
    expect(month.revenuePreserved[0]).toEqual({ amount: "105.00", currency_code: "USD" });
    const year = await cancellationInsights(shop.id, "12mo", NOW);
    expect(year.bucket).toBe("month");
    expect(year.series.reduce((s, b) => s + b.cancellations, 0)).toBe(4);

    const empty = await cancellationInsights((await createShop()).id, "90d", NOW);
    expect(empty).toMatchObject({ byReason: [], cancelledWithoutReason: 0, contractsShown: 0, contractsSaved: 0, saveRate: null, revenuePreserved: [] });
    expect(empty.offers.every((o) => o.shown === 0 && o.acceptanceRate === null)).toBe(true);
    expect(empty.bucket).toBe("week");
    expect(empty.series.every((b) => b.cancellations === 0 && b.saveRate === null)).toBe(true);
  });
});

describe("GET /analytics/cancellations", () => {
  it("answers the same figures in the API's shape, behind read:analytics, and refuses an unknown range", async () => {
    const shop = await createShop();
    const key = (await createKey({ shopId: shop.id, name: "insights", scopes: ["read:analytics"] })).key;
    const other = (await createKey({ shopId: shop.id, name: "subs", scopes: ["read:subscriptions"] })).key;
    const c = await createContract(shop.id, { monthlyAmountCents: 4250, currencyCode: "EUR" });
    const at = new Date(Date.now() - DAY);
    const row = { shopId: shop.id, contractGid: c.contractGid, customerGid: c.customerGid, offerType: "skip", createdAt: at };
    await prisma.saveEvent.createMany({
      data: [
        { ...row, eventType: "shown" },
        { ...row, eventType: "accepted", preservedRevenueCents: 4250 },
      ],
    });
    await prisma.cancelReason.create({ data: { shopId: shop.id, contractGid: c.contractGid, customerGid: c.customerGid, reason: "Too much", createdAt: at } });

    const r = await api(key, "GET", "/analytics/cancellations?range=7d");
    expect(r.status).toBe(200);
    const body = r.json as Record<string, unknown> & { series: Array<Record<string, unknown>> };
    expect(body).toMatchObject({
      range: "7d",
      bucket: "day",
      by_reason: [{ reason: "Too much", count: 1 }],
      cancelled_without_reason: 0,
      offers: [
        { offer_type: "pause", shown: 0, accepted: 0, acceptance_rate: null },
        { offer_type: "skip", shown: 1, accepted: 1, acceptance_rate: 1 },
        { offer_type: "discount", shown: 0, accepted: 0, acceptance_rate: null },
      ],
      contracts_shown: 1,
      contracts_saved: 1,
      save_rate: 1,
      revenue_preserved: [{ amount: "42.50", currency_code: "EUR" }],
    });
    expect(body.series).toHaveLength(8);
    expect(body.series.reduce((s, b) => s + Number(b.offers_accepted), 0)).toBe(1);
    expect((await api(key, "GET", "/analytics/cancellations")).json).toMatchObject({ range: "30d", bucket: "day" });
    expect((await api(key, "GET", "/analytics/cancellations?range=2y")).status).toBe(400);
    expect((await api(other, "GET", "/analytics/cancellations")).status).toBe(403);
  });
});
