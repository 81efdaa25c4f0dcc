// The simulator's own anchor rules for a checkout's first billing date (simulator/store/anchor-rules.ts),
// hand-checked: NEXT and ASAP with the cutoff, month ends, YEARDAY and WEEKDAY anchors, and the
// shop's time zone deciding which calendar day "today" is.
import { checkoutBillingDate, type DeliveryRules } from "../../../simulator/store/anchor-rules";

const monthly = (day: number, over: Partial<DeliveryRules> = {}): DeliveryRules => ({
  interval: "MONTH",
  intervalCount: 1,
  anchors: [{ type: "MONTHDAY", day, month: null }],
  cutoff: 3,
  preAnchorBehavior: "NEXT",
  ...over,
});

describe("the simulator's first billing date", () => {
  it.each([
    ["NEXT, outside the cutoff: the coming anchor", "2026-11-27T15:00:00Z", monthly(15), "UTC", "2026-12-15T15:00:00.000Z", false],
    ["NEXT, inside the cutoff: the anchor after", "2026-12-13T10:00:00Z", monthly(15), "UTC", "2027-01-15T10:00:00.000Z", false],
    [
      "ASAP, outside the cutoff: ships now, renews on the coming anchor",
      "2026-11-27T15:00:00Z",
      monthly(15, { preAnchorBehavior: "ASAP" }),
      "UTC",
      "2026-12-15T15:00:00.000Z",
      true,
    ],
    [
      "ASAP, inside the cutoff: waits, renews on the anchor after",
      "2026-12-14T15:00:00Z",
      monthly(15, { preAnchorBehavior: "ASAP" }),
      "UTC",
      "2027-01-15T15:00:00.000Z",
      false,
    ],
    ["anchor 31 in February is the 28th", "2027-02-02T12:00:00Z", monthly(31, { cutoff: 0 }), "UTC", "2027-02-28T12:00:00.000Z", false],
    ["anchor 31 in a leap February is the 29th", "2028-02-02T12:00:00Z", monthly(31, { cutoff: 0 }), "UTC", "2028-02-29T12:00:00.000Z", false],
    [
      "YEARDAY anchors: the next listed month",
      "2026-11-27T12:00:00Z",
      { ...monthly(1, { cutoff: 0 }), interval: "YEAR" as const, anchors: [3, 6, 9, 12].map((month) => ({ type: "YEARDAY" as const, day: 1, month })) },
      "UTC",
      "2026-12-01T12:00:00.000Z",
      false,
    ],
    [
      "WEEKDAY 1 is Monday (2026-11-27 is a Friday)",
      "2026-11-27T12:00:00Z",
      { ...monthly(1, { cutoff: 0 }), interval: "WEEK" as const, anchors: [{ type: "WEEKDAY" as const, day: 1, month: null }] },
      "UTC",
      "2026-11-30T12:00:00.000Z",
      false,
    ],
    // 20:00 UTC on the 14th is 09:00 on the 15th in Auckland: the anchor is today, inside a 3-day cutoff.
    ["Auckland: the anchor is today on the shop's calendar", "2026-12-14T20:00:00Z", monthly(15), "Pacific/Auckland", "2027-01-14T20:00:00.000Z", false],
    ["the same instant in UTC is a day before the anchor", "2026-12-14T20:00:00Z", monthly(15, { cutoff: 0 }), "UTC", "2026-12-15T20:00:00.000Z", false],
  ])("%s", (_label, now, rules, tz, next, shipsNow) => {
    expect(checkoutBillingDate(new Date(now), rules, tz)).toEqual({ nextBillingDate: next, shipsNow });
  });

  it("a plan without anchors bills one interval after the checkout", () => {
    expect(checkoutBillingDate(new Date("2027-01-15T09:00:00Z"), { ...monthly(1), anchors: [] }, "UTC").nextBillingDate).toBe("2027-02-15T09:00:00.000Z");
  });
});
