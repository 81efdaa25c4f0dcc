// Win-back audience rules, hold-out and incrementality (docs/decisions/115-winback-audience.md):
// a table of candidates with the one rule each breaks, a hold-out that is stable across runs and
// close to its share, and the incremental figure on a case worked out by hand.
import { holdoutBucket, incrementality, selectAudience, type Candidate, type WinbackRules } from "../../../app/domain/retention/winback-audience";

const DAY = 86_400_000;
const NOW = new Date("2026-11-20T12:00:00Z");
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);
const RULES: WinbackRules = { reasons: ["Too expensive", "Too much product"], cancelledWithinDays: 60, delayDays: 7, holdoutPercent: 0 };

const base: Candidate = {
  customerId: "gid://shopify/Customer/1",
  contractId: "gid://shopify/SubscriptionContract/1",
  cancelledAt: ago(10),
  reason: "Too expensive",
  marketingState: "SUBSCRIBED",
  suppressed: false,
  wonBack: false,
  alreadyTouched: false,
};

describe("win-back audience rules", () => {
  it.each<[string, Partial<Candidate>, string | null]>([
    ["a subscribed customer, right reason, inside the window, past the delay", {}, null],
    ["a reason matched without regard to case", { reason: "too MUCH product" }, null],
    ["on the last day of the window", { cancelledAt: ago(60) }, null],
    ["exactly at the end of the delay", { cancelledAt: ago(7) }, null],
    ["cancelled more than 60 days ago", { cancelledAt: new Date(ago(60).getTime() - 1) }, "too_old"],
    ["cancelled 6 days ago (still in the delay)", { cancelledAt: ago(6) }, "waiting"],
    ["another reason", { reason: "Moving" }, "reason"],
    ["no reason recorded when the campaign names reasons", { reason: null }, "reason"],
    ["already won back", { wonBack: true }, "won_back"],
    ["not subscribed to marketing", { marketingState: "NOT_SUBSCRIBED" }, "no_consent"],
    ["unsubscribed", { marketingState: "UNSUBSCRIBED" }, "no_consent"],
    ["consent pending confirmation", { marketingState: "PENDING" }, "no_consent"],
    ["an invalid address", { marketingState: "INVALID" }, "no_consent"],
    ["no e-mail address at all", { marketingState: null }, "no_consent"],
    ["consenting but suppressed", { suppressed: true }, "suppressed"],
    ["already touched by this campaign", { alreadyTouched: true }, "already_touched"],
  ])("%s", (_name, change, why) => {
    const c = { ...base, ...change };
    const a = selectAudience("camp_1", RULES, [c], NOW);
    if (why === null) {
      expect(a.send.map((x) => x.customerId)).toEqual([c.customerId]);
      expect(a.excluded).toEqual([]);
    } else {
      expect(a.send).toEqual([]);
      expect(a.holdout).toEqual([]);
      expect(a.excluded.map((e) => e.why)).toEqual([why]);
    }
  });

  it("an empty reason list takes any reason, and none", () => {
    const any = { ...RULES, reasons: [] };
    const a = selectAudience(
      "camp_1",
      any,
      [
        { ...base, reason: null },
        { ...base, customerId: "c2", reason: "Moving" },
      ],
      NOW,
    );
    expect(a.send).toHaveLength(2);
  });

  it("one decision per customer: their latest cancellation, and a touch on any contract counts", () => {
    const older = { ...base, contractId: "old", cancelledAt: ago(20) };
    const newer = { ...base, contractId: "new", cancelledAt: ago(9) };
    expect(selectAudience("camp_1", RULES, [older, newer], NOW).send.map((c) => c.contractId)).toEqual(["new"]);
    const touched = selectAudience("camp_1", RULES, [{ ...older, alreadyTouched: true }, newer], NOW);
    expect(touched.send).toEqual([]);
    expect(touched.excluded.map((e) => e.why)).toEqual(["already_touched"]);
    // A newer cancellation inside the delay keeps the customer waiting; the older one is not sent instead.
    const waiting = selectAudience("camp_1", RULES, [older, { ...newer, cancelledAt: ago(2) }], NOW);
    expect(waiting.excluded.map((e) => e.why)).toEqual(["waiting"]);
  });
});

describe("the hold-out", () => {
  const many = Array.from({ length: 2000 }, (_, i) => ({ ...base, customerId: `gid://shopify/Customer/${i}`, contractId: `c${i}` }));

  it("holds out close to its share, only from the eligible, and the same customers on every run", () => {
    const rules = { ...RULES, holdoutPercent: 20 };
    const ineligible = many.slice(0, 100).map((c) => ({ ...c, customerId: `${c.customerId}-x`, marketingState: "UNSUBSCRIBED" as const }));
    const first = selectAudience("camp_7", rules, [...many, ...ineligible], NOW);
    expect(first.send.length + first.holdout.length).toBe(2000);
    expect(first.holdout.length).toBeGreaterThan(340); // 20 % of 2000 = 400; binomial sd ≈ 18
    expect(first.holdout.length).toBeLessThan(460);
    expect(first.excluded).toHaveLength(100);
    const again = selectAudience("camp_7", rules, [...many].reverse(), NOW);
    expect(again.holdout.map((c) => c.customerId)).toEqual(first.holdout.map((c) => c.customerId));
    // Another campaign draws another pattern.
    const other = selectAudience("camp_8", rules, many, NOW);
    expect(other.holdout.map((c) => c.customerId)).not.toEqual(first.holdout.map((c) => c.customerId));
  });

  it("0 % holds out nobody; the bucket is in [0, 100)", () => {
    expect(selectAudience("camp_7", RULES, many, NOW).holdout).toEqual([]);
    for (const c of many.slice(0, 200)) {
      const b = holdoutBucket("camp_7", c.customerId);
      expect(b).toBeGreaterThanOrEqual(0);
      expect(b).toBeLessThan(100);
    }
  });
});

describe("incrementality", () => {
  it("answers a case worked out by hand", () => {
    // Sent 400, 60 came back with 120,000 minor units; held out 100, 5 came back with 8,000.
    // Rates 0.15 and 0.05; the hold-out predicts 20 of the 400 and 32,000 of revenue:
    // 40 reactivations and 88,000 minor units are what the e-mail added.
    expect(incrementality({ size: 400, reactivated: 60, recoveredMinor: 120_000 }, { size: 100, reactivated: 5, recoveredMinor: 8_000 })).toEqual({
      sentRate: 0.15,
      holdoutRate: 0.05,
      incrementalReactivations: 40,
      incrementalRecoveredMinor: 88_000,
      rawRecoveredMinor: 120_000,
    });
  });

  it("a hold-out that did as well shows nothing added; no hold-out shows no baseline, not the raw figure", () => {
    expect(incrementality({ size: 10, reactivated: 2, recoveredMinor: 4000 }, { size: 5, reactivated: 1, recoveredMinor: 2000 })).toMatchObject({
      incrementalReactivations: 0,
      incrementalRecoveredMinor: 0,
    });
    expect(incrementality({ size: 10, reactivated: 2, recoveredMinor: 4000 }, { size: 0, reactivated: 0, recoveredMinor: 0 })).toEqual({
      sentRate: 0.2,
      holdoutRate: null,
      incrementalReactivations: null,
      incrementalRecoveredMinor: null,
      rawRecoveredMinor: 4000,
    });
  });
});
