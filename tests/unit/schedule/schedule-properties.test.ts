// Invariants of the schedule engine (docs/decisions/110-schedule-engine.md), checked on random
// plans and dates: the table test pins the exact days, these keep every other day honest.
import fc from "fast-check";
import {
  addDays,
  anchorOnOrAfterDate,
  chargeSequence,
  compareCivil,
  isAnchorDate,
  localDate,
  nextChargeDate,
  rescheduleDate,
  signupDates,
  skipDate,
  skipTarget,
  wallClock,
  type AnchoredSchedule,
  type CivilDate,
  type RollingSchedule,
  type Schedule,
} from "../../../app/domain/shared/schedule";

const civil = fc
  .date({ min: new Date(Date.UTC(1990, 0, 1)), max: new Date(Date.UTC(2099, 11, 31)), noInvalidDate: true })
  .map((t): CivilDate => ({ year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() }));

const anchoredPlan: fc.Arbitrary<AnchoredSchedule> = fc.record({
  mode: fc.constant("anchored" as const),
  anchorDay: fc.integer({ min: 1, max: 31 }),
  anchorMonths: fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { maxLength: 12 }),
  intervalCount: fc.integer({ min: 1, max: 6 }),
  cutoffDays: fc.integer({ min: 0, max: 20 }),
  preAnchorBehavior: fc.constantFrom("NEXT" as const, "ASAP" as const),
  shipDay: fc.option(fc.integer({ min: 1, max: 31 }), { nil: null }),
});

const rollingPlan: fc.Arbitrary<RollingSchedule> = fc.record({
  mode: fc.constant("rolling" as const),
  interval: fc.constantFrom("DAY" as const, "WEEK" as const, "MONTH" as const, "YEAR" as const),
  intervalCount: fc.integer({ min: 1, max: 12 }),
});

const anyPlan: fc.Arbitrary<Schedule> = fc.oneof(anchoredPlan, rollingPlan);

describe("schedule invariants", () => {
  it("charge dates strictly increase", () => {
    fc.assert(
      fc.property(anyPlan, civil, (plan, signup) => {
        const seq = chargeSequence(signup, plan, 12);
        expect(seq).toHaveLength(12);
        for (let i = 1; i < seq.length; i++) expect(compareCivil(seq[i], seq[i - 1])).toBeGreaterThan(0);
      }),
    );
  });

  it("every anchored charge is on an anchor day of an anchor month (ASAP's checkout charge aside)", () => {
    fc.assert(
      fc.property(anchoredPlan, civil, (plan, signup) => {
        const seq = chargeSequence(signup, plan, 12);
        const fromAnchors = plan.preAnchorBehavior === "ASAP" ? seq.slice(1) : seq;
        for (const d of fromAnchors) expect(isAnchorDate(d, plan)).toBe(true);
        const first = signupDates(signup, plan);
        expect(isAnchorDate(first.contractNextBilling, plan)).toBe(true);
        expect(compareCivil(first.contractNextBilling, signup)).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it("a skip moves exactly one step: the next anchor of the plan, with none between", () => {
    fc.assert(
      fc.property(anchoredPlan, civil, (plan, from) => {
        const current = anchorOnOrAfterDate(from, plan);
        const skipped = skipDate(current, plan);
        expect(compareCivil(skipped, current)).toBeGreaterThan(0);
        expect(isAnchorDate(skipped, plan)).toBe(true);
        if (plan.anchorMonths.length) {
          // No anchor date strictly between the two.
          expect(compareCivil(anchorOnOrAfterDate(current, plan, true), skipped)).toBe(0);
        } else {
          const months = (skipped.year - current.year) * 12 + skipped.month - current.month;
          expect(months).toBe(plan.intervalCount);
        }
      }),
    );
  });

  it("a rolling skip is one interval, and two skips are two intervals from the same day", () => {
    fc.assert(
      fc.property(rollingPlan, civil, (plan, from) => {
        const once = skipDate(from, plan);
        expect(compareCivil(once, nextChargeDate(from, plan))).toBe(0);
        if (plan.interval === "DAY" || plan.interval === "WEEK") {
          const days = plan.intervalCount * (plan.interval === "WEEK" ? 7 : 1);
          expect(compareCivil(once, addDays(from, days))).toBe(0);
        } else {
          const months = plan.intervalCount * (plan.interval === "YEAR" ? 12 : 1);
          expect((once.year - from.year) * 12 + once.month - from.month).toBe(months);
          expect(once.day).toBeLessThanOrEqual(from.day);
        }
      }),
    );
  });

  it("a reschedule lands on the first anchor on or after the requested day", () => {
    fc.assert(
      fc.property(anchoredPlan, civil, (plan, requested) => {
        const target = rescheduleDate(requested, plan);
        expect(compareCivil(target, requested)).toBeGreaterThanOrEqual(0);
        expect(isAnchorDate(target, plan)).toBe(true);
        for (let d = requested; compareCivil(d, target) < 0; d = addDays(d, 1)) expect(isAnchorDate(d, plan)).toBe(false);
      }),
    );
  });

  it("moving an instant keeps its local time of day and moves its local date like the calendar", () => {
    const zones = ["UTC", "America/New_York", "Europe/Berlin", "Asia/Kolkata", "Australia/Sydney", "Pacific/Auckland"];
    fc.assert(
      fc.property(
        anchoredPlan,
        fc.constantFrom(...zones),
        // Hours away from the 01:00-04:00 band where DST changes happen.
        fc.date({ min: new Date(Date.UTC(2000, 0, 1)), max: new Date(Date.UTC(2090, 0, 1)), noInvalidDate: true }),
        (plan, tz, at) => {
          const w = wallClock(at, tz);
          fc.pre(w.timeMs >= 5 * 3_600_000);
          const moved = skipTarget(at, plan, tz);
          expect(localDate(moved, tz)).toEqual(skipDate(localDate(at, tz), plan));
          expect(wallClock(moved, tz).timeMs).toBe(w.timeMs);
        },
      ),
    );
  });
});
