// What makes a Plus shop's billing run faster (docs/decisions/165-billing-throughput.md): calls in
// flight scaled to the bucket's restore rate, a limiter whose bound may grow mid-run, and a settle
// that is skipped when the answer would change nothing at the shop's budget.
import { billingConcurrency } from "../../../app/domain/renewals/charge.server";
import { limiter } from "../../../app/infra/async";
import { settleChangesNothing, type BudgetTicket } from "../../../app/platform/budget.server";

describe("billingConcurrency", () => {
  it("keeps the base for a standard shop and an unknown bucket, needs 15 for a Plus shop, and stops at the maximum", () => {
    expect(billingConcurrency(undefined, 4, 16)).toBe(4);
    expect(billingConcurrency({ rate: 100 }, 4, 16)).toBe(4);
    expect(billingConcurrency({ rate: 200 }, 4, 16)).toBe(4);
    expect(billingConcurrency({ rate: 1000 }, 4, 16)).toBe(15);
    expect(billingConcurrency({ rate: 2000 }, 4, 16)).toBe(16);
    // The maximum never takes it below the base.
    expect(billingConcurrency({ rate: 1000 }, 4, 2)).toBe(4);
  });
});

describe("limiter with a bound read as calls start and end", () => {
  it("lets more waiting calls go once the bound grows, in call order", async () => {
    let bound = 1;
    const run = limiter(() => bound);
    let active = 0;
    let most = 0;
    const started: number[] = [];
    const releases: (() => void)[] = [];
    const calls = Array.from({ length: 6 }, (_, i) =>
      run(async () => {
        started.push(i);
        active++;
        most = Math.max(most, active);
        await new Promise<void>((r) => releases.push(r));
        active--;
      }),
    );
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0]);
    bound = 3;
    // The first call ending makes room for three.
    releases.shift()!();
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2, 3]);
    while (releases.length) {
      releases.shift()!();
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(calls);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(most).toBe(3);
  });
});

describe("settleChangesNothing", () => {
  const ticket: BudgetTicket = { available: 500, max: 20_000, rate: 1_000, at: 1_000 };
  const status = (currentlyAvailable: number, maximumAvailable = 20_000, restoreRate = 1_000) => ({ currentlyAvailable, maximumAvailable, restoreRate });

  it("skips an answer that spent what was charged, on the bucket the estimate knows, with Shopify holding at least the estimate restored since", () => {
    // 100 ms after the grant the estimate can hold at most 600.
    expect(settleChangesNothing(0, status(600), ticket, 1_100)).toBe(true);
    expect(settleChangesNothing(0, status(5_000), ticket, 1_100)).toBe(true);
  });

  it("settles when there is something to give back, to learn, or to cap", () => {
    expect(settleChangesNothing(3, status(5_000), ticket, 1_100)).toBe(false);
    // Shopify holds less than the estimate may: its level caps the estimate.
    expect(settleChangesNothing(0, status(599), ticket, 1_100)).toBe(false);
    // Another bucket size or rate than the estimate's (the shop changed plan, the first answer).
    expect(settleChangesNothing(0, status(5_000, 2_000, 100), ticket, 1_100)).toBe(false);
    expect(settleChangesNothing(0, status(5_000, 20_000, 2_000), ticket, 1_100)).toBe(false);
    // No throttleStatus, or a call that went unbudgeted.
    expect(settleChangesNothing(0, undefined, ticket, 1_100)).toBe(false);
    expect(settleChangesNothing(0, status(5_000), null, 1_100)).toBe(false);
  });
});
