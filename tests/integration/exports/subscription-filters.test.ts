// The shared subscription filters against the real database: the SQL of
// app/domain/subscriptions/filters.server.ts agrees with a plain recount of the filter rules
// (docs/decisions/055-subscription-filters.md) for random filter combinations, paged by keyset to the end.
import fc from "fast-check";
import { listSubscriptions } from "../../../app/domain/subscriptions/reads.server";
import { subscriptionRows } from "../../../app/surfaces/admin/wire";
import type { SubscriptionFilterOptions } from "../../../app/domain/subscriptions/filters.server";
import { parseSubscriptionFilterInput } from "../../../app/surfaces/subscription-filters";
import { type ContractSeed, createContracts, createShop, gid } from "../../support/fixtures";

const NOW = new Date("2026-06-15T12:00:00Z");
const DAY = 86_400_000;
const STATUSES = ["ACTIVE", "PAUSED", "CANCELLED", "EXPIRED", "FAILED"] as const;
const PRODUCTS = ["Coffee beans", "Green tea", "100% Cocoa_nibs", "Café crème", null];
const FREQUENCIES = ["Every month", "Every 2 weeks", "every month", null];
const CURRENCIES = ["USD", "JPY", "KWD"];
const EXP: Record<string, number> = { USD: 2, JPY: 0, KWD: 3 };

type Row = Required<Pick<ContractSeed, "status" | "customerGid" | "currencyCode">> & ContractSeed & { contractGid: string };

/** The filter rules, written independently of the SQL. */
function matches(r: Row, f: SubscriptionFilterOptions, createdByService: boolean): boolean {
  if (!createdByService) return false;
  const has = (v: string | null | undefined, needle: string) => (v ?? "").toLowerCase().includes(needle.toLowerCase());
  // Exact decimal comparison: bound * 10^exp vs minor units, both scaled by 1000 to stay integral.
  const scaled = (bound: string, currency: string) => Math.round(Number(bound) * 1000) * 10 ** EXP[currency];
  if (f.status && r.status !== f.status) return false;
  if (f.sellingPlanGid && r.sellingPlanGid !== f.sellingPlanGid) return false;
  if (f.sellingPlanGroupGid && r.sellingPlanGroupGid !== f.sellingPlanGroupGid) return false;
  if (f.customerGid && r.customerGid !== f.customerGid) return false;
  if (f.product && !has(r.productTitle, f.product)) return false;
  if (f.frequency && r.frequencyLabel !== f.frequency) return false;
  if (f.amountMin !== undefined && (r.chargeAmountCents == null || r.chargeAmountCents * 1000 < scaled(f.amountMin, r.currencyCode))) return false;
  if (f.amountMax !== undefined && (r.chargeAmountCents == null || r.chargeAmountCents * 1000 > scaled(f.amountMax, r.currencyCode))) return false;
  const next = r.nextBillingAt ? r.nextBillingAt.toISOString().slice(0, 10) : null;
  if (f.nextFrom && (next === null || next < f.nextFrom)) return false;
  if (f.nextTo && (next === null || next > f.nextTo)) return false;
  if (f.q && ![r.productTitle, r.orderName, r.contractGid, r.customerGid, r.sellingPlanGid, r.sellingPlanGroupGid].some((v) => has(v, f.q!))) return false;
  if (f.view === "renewals" && !(r.status === "ACTIVE" && next !== null && next >= NOW.toISOString().slice(0, 10))) return false;
  return true;
}

async function listAll(shopId: string, filters: SubscriptionFilterOptions, limit: number): Promise<string[]> {
  const out: string[] = [];
  let after = null;
  do {
    const page = subscriptionRows(await listSubscriptions({ shopId, filters, page: { limit, after }, now: NOW }));
    out.push(...page.data.map((d) => d.contract_id));
    after = page.next;
  } while (after);
  return out;
}

describe("subscription filters over the mirror", () => {
  let shopId = "";
  const seeds: Array<ContractSeed & { createdByService: boolean }> = [];
  const customers = Array.from({ length: 4 }, () => gid("Customer"));
  const groups = Array.from({ length: 3 }, () => gid("SellingPlanGroup"));
  const plans = Array.from({ length: 3 }, () => gid("SellingPlan"));
  const createdAt = new Map<string, number>();

  beforeAll(async () => {
    const shop = await createShop();
    shopId = shop.id;
    const other = await createShop();
    const rand = fc.sample(fc.integer({ min: 0, max: 1_000_000 }), { numRuns: 2000, seed: 42 });
    let k = 0;
    const pick = <T>(xs: readonly T[]) => xs[rand[k++ % rand.length] % xs.length];
    for (let i = 0; i < 240; i++) {
      const currencyCode = pick(CURRENCIES);
      const next = pick([null, -3, -1, 0, 0.2, 1, 15, 45]);
      seeds.push({
        contractGid: gid("SubscriptionContract"),
        status: pick(STATUSES),
        createdByService: i % 17 !== 0,
        customerGid: pick(customers),
        sellingPlanGroupGid: pick([...groups, null]),
        sellingPlanGid: pick([...plans, null]),
        chargeAmountCents: pick([null, 0, 499, 500, 501, 1999, 5000]),
        currencyCode,
        productTitle: pick(PRODUCTS),
        frequencyLabel: pick(FREQUENCIES),
        orderName: pick(["#1001", "#1002", null]),
        nextBillingAt: next === null ? null : new Date(Date.UTC(2026, 5, 15) + next * DAY),
        // Blocks of equal created_at exercise the id tie-breaker of the keyset.
        createdAt: new Date(NOW.getTime() - Math.floor(i / 5) * 1000),
      });
    }
    await createContracts(shopId, seeds.length, (i) => seeds[i]);
    for (const s of seeds) createdAt.set(s.contractGid!, s.createdAt!.getTime());
    // Another shop's rows never leak through any filter.
    await createContracts(other.id, 20, () => ({ customerGid: customers[0], productTitle: "Coffee beans" }));
  });

  const wireFilter = fc.record({
    status: fc.constantFrom("ACTIVE", "paused", "CANCELLED", "EXPIRED"),
    plan: fc.constantFrom(...[0, 1, 2].map((i) => `P${i}`), ...[0, 1].map((i) => `G${i}`)),
    customer_id: fc.constantFrom(0, 1, 2),
    product: fc.constantFrom("coffee", "TEA", "%", "_", "café", "nibs"),
    frequency: fc.constantFrom("Every month", "Every 2 weeks", "every"),
    amount_min: fc.constantFrom("0", "5", "4.99", "5.001", "19.99", "500"),
    amount_max: fc.constantFrom("5", "20", "1999", "0.5"),
    next_from: fc.constantFrom("2026-06-12", "2026-06-15", "2026-06-16"),
    next_to: fc.constantFrom("2026-06-15", "2026-06-30", "2026-08-01"),
    q: fc.constantFrom("#1001", "coffee", "SubscriptionContract", "Customer/", "SellingPlanGroup"),
    view: fc.constant("renewals"),
  });
  // At most three filters at once: with more, almost every combination matches nothing.
  const someFilters = fc
    .tuple(
      fc.subarray(["status", "plan", "customer_id", "product", "frequency", "amount_min", "amount_max", "next_from", "next_to", "q", "view"] as const, {
        maxLength: 3,
      }),
      wireFilter,
    )
    .map(([keys, all]) => Object.fromEntries(keys.map((k) => [k, all[k]])) as Partial<typeof all>);

  let nonEmpty = 0;
  it("property: every filter combination returns exactly the rows a recount of the rules keeps, newest first", async () => {
    await fc.assert(
      fc.asyncProperty(someFilters, fc.constantFrom(7, 50, 250), async (w, limit) => {
        const wire: Record<string, unknown> = { ...w };
        if (typeof w.plan === "string") wire.plan = w.plan.startsWith("P") ? plans[Number(w.plan[1])] : groups[Number(w.plan[1])];
        if (typeof w.customer_id === "number") wire.customer_id = w.customer_id === 2 ? customers[2].split("/").pop() : customers[w.customer_id];
        const parsed = parseSubscriptionFilterInput(wire);
        if (!parsed.ok) return; // reversed bounds are refused by the schema (tested in the unit file)
        const got = await listAll(shopId, parsed.filters, limit);
        const expected = seeds
          .map((s, i) => ({ s, i }))
          .filter(({ s }) => matches(s as Row, parsed.filters, s.createdByService))
          .map(({ s }) => s.contractGid);
        expect(new Set(got)).toEqual(new Set(expected));
        expect(got.length).toBe(expected.length);
        if (got.length) nonEmpty++;
        // Newest first (ties are broken by id, which the seeds do not know).
        const ts = got.map((g) => createdAt.get(g)!);
        expect(ts).toEqual([...ts].sort((a, b) => b - a));
      }),
      { numRuns: 80, seed: 7 },
    );
    // The property is only worth something if many combinations select some rows.
    expect(nonEmpty).toBeGreaterThan(30);
  });

  it("with no filter, every service-created row of the shop once, and none of another shop's", async () => {
    const got = await listAll(shopId, {}, 13);
    expect(got.length).toBe(seeds.filter((s) => s.createdByService).length);
    expect(new Set(got).size).toBe(got.length);
  });

  it("amount bounds follow each contract's currency exponent (5 = 500 cents = 5 yen = 5000 fils)", async () => {
    const shop = await createShop();
    const rows = await createContracts(
      shop.id,
      4,
      (i) =>
        [
          { currencyCode: "USD", chargeAmountCents: 500 },
          { currencyCode: "JPY", chargeAmountCents: 5 },
          { currencyCode: "KWD", chargeAmountCents: 5000 },
          { currencyCode: "KWD", chargeAmountCents: 5001 },
        ][i],
    );
    const gids = rows.map((r) => r.contractGid);
    expect((await listAll(shop.id, { amountMin: "5", amountMax: "5" }, 50)).sort()).toEqual(gids.slice(0, 3).sort());
    expect(await listAll(shop.id, { amountMin: "5.001" }, 50)).toEqual([gids[3]]);
    expect(await listAll(shop.id, { amountMax: "4.999" }, 50)).toEqual([]);
  });
});
