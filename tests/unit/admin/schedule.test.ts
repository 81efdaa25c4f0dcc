import fc from "fast-check";
import { addInterval, addMonths, anchorOnOrAfter, rescheduleTarget, skipTarget, type AnchoredSchedule } from "../../../app/domain/shared/schedule.server";

const utc = (y: number, m: number, d: number, h = 0) => new Date(Date.UTC(y, m - 1, d, h));

describe("schedule math", () => {
  it("adds months clamping to the month's end", () => {
    expect(addMonths(utc(2025, 1, 31, 10), 1)).toEqual(utc(2025, 2, 28, 10));
    expect(addMonths(utc(2024, 1, 31), 1)).toEqual(utc(2024, 2, 29));
    expect(addMonths(utc(2025, 11, 15), 3)).toEqual(utc(2026, 2, 15));
  });

  it("rolling skip adds exactly one billing interval", () => {
    const d = utc(2025, 3, 10, 9);
    expect(skipTarget(d, { mode: "rolling", interval: "WEEK", intervalCount: 2 })).toEqual(utc(2025, 3, 24, 9));
    expect(skipTarget(d, { mode: "rolling", interval: "MONTH", intervalCount: 3 })).toEqual(utc(2025, 6, 10, 9));
    expect(skipTarget(d, { mode: "rolling", interval: "YEAR", intervalCount: 1 })).toEqual(utc(2026, 3, 10, 9));
    expect(skipTarget(d, { mode: "rolling", interval: "DAY", intervalCount: 10 })).toEqual(utc(2025, 3, 20, 9));
    expect(rescheduleTarget(utc(2025, 4, 2), { mode: "rolling", interval: "MONTH", intervalCount: 1 })).toEqual(utc(2025, 4, 2));
  });

  it("anchored skip goes to the next anchor; reschedule to the first anchor on or after", () => {
    const s: AnchoredSchedule = { mode: "anchored", anchorDay: 15, anchorMonths: [3, 9] };
    expect(skipTarget(utc(2025, 3, 15, 9), s)).toEqual(utc(2025, 9, 15, 9));
    expect(skipTarget(utc(2025, 9, 15, 9), s)).toEqual(utc(2026, 3, 15, 9));
    expect(rescheduleTarget(utc(2025, 3, 15, 9), s)).toEqual(utc(2025, 3, 15, 9));
    expect(rescheduleTarget(utc(2025, 3, 16, 9), s)).toEqual(utc(2025, 9, 15, 9));
    expect(rescheduleTarget(utc(2025, 1, 1), s)).toEqual(utc(2025, 3, 15));
    const monthly: AnchoredSchedule = { mode: "anchored", anchorDay: 31, anchorMonths: [] };
    expect(skipTarget(utc(2025, 1, 31), monthly)).toEqual(utc(2025, 2, 28));
    expect(skipTarget(utc(2025, 2, 28), monthly)).toEqual(utc(2025, 3, 31));
    expect(rescheduleTarget(utc(2025, 4, 5), monthly)).toEqual(utc(2025, 4, 30));
  });

  it("property: an anchored target is an anchor, on/after the input, and no anchor lies between", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("2020-01-01"), max: new Date("2035-01-01"), noInvalidDate: true }),
        fc.integer({ min: 1, max: 31 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { maxLength: 12 }),
        fc.boolean(),
        (from, day, months, strict) => {
          const s: AnchoredSchedule = { mode: "anchored", anchorDay: day, anchorMonths: months };
          const a = anchorOnOrAfter(from, s, { strict });
          expect(strict ? a > from : a >= from).toBe(true);
          const allowed = months.length ? months : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
          expect(allowed).toContain(a.getUTCMonth() + 1);
          const dim = new Date(Date.UTC(a.getUTCFullYear(), a.getUTCMonth() + 1, 0)).getUTCDate();
          expect(a.getUTCDate()).toBe(Math.min(day, dim));
          // Within 12 months plus a day of the input.
          expect(a.getTime() - from.getTime()).toBeLessThanOrEqual(366 * 86_400_000 + 1);
        },
      ),
    );
  });

  it("property: rolling skip is strictly later and lands the same time of day", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("2020-01-01"), max: new Date("2035-01-01"), noInvalidDate: true }),
        fc.constantFrom("DAY", "WEEK", "MONTH", "YEAR" as const),
        fc.integer({ min: 1, max: 12 }),
        (d, interval, count) => {
          const t = addInterval(d, interval, count);
          expect(t > d).toBe(true);
          expect(t.getUTCHours() * 3600 + t.getUTCMinutes() * 60 + t.getUTCSeconds()).toBe(d.getUTCHours() * 3600 + d.getUTCMinutes() * 60 + d.getUTCSeconds());
        },
      ),
    );
  });
});
