// Hand-checked dates of the schedule engine (docs/decisions/110-schedule-engine.md): each row was
// worked out on a calendar, not by running the code.
import {
  chargeSequence,
  civilIso,
  isAnchorDate,
  nextChargeAfter,
  nextChargeDate,
  parseCivil,
  rescheduleDate,
  rescheduleTarget,
  shipmentDate,
  signupDates,
  skipDate,
  skipTarget,
  type AnchoredSchedule,
  type Schedule,
} from "../../../app/domain/shared/schedule";

const d = (s: string) => {
  const c = parseCivil(s);
  if (!c) throw new Error(`bad date ${s}`);
  return c;
};
const anchored = (anchorDay: number, more: Partial<AnchoredSchedule> = {}): AnchoredSchedule => ({ mode: "anchored", anchorDay, anchorMonths: [], ...more });
const on15Next3 = anchored(15, { cutoffDays: 3, preAnchorBehavior: "NEXT" });
const on15Asap3 = anchored(15, { cutoffDays: 3, preAnchorBehavior: "ASAP" });
const on31 = anchored(31, { preAnchorBehavior: "NEXT" });
const quarterly1st = anchored(1, { anchorMonths: [3, 6, 9, 12], preAnchorBehavior: "NEXT" });
const monthly = (intervalCount = 1): Schedule => ({ mode: "rolling", interval: "MONTH", intervalCount });

describe("first charge of a sign-up (NEXT, ASAP, cutoff)", () => {
  const rows: [string, Schedule, string, string, string, string][] = [
    // label, plan, sign-up, first charge, first shipment, contract next billing
    ["NEXT, 18 days before the 15th", on15Next3, "2026-11-27", "2026-12-15", "2026-12-15", "2026-12-15"],
    ["NEXT, exactly the cutoff (3 days) before", on15Next3, "2026-12-12", "2026-12-15", "2026-12-15", "2026-12-15"],
    ["NEXT, inside the cutoff skips to the following anchor", on15Next3, "2026-12-13", "2027-01-15", "2027-01-15", "2027-01-15"],
    ["NEXT, on the anchor day itself (inside a 3-day cutoff)", on15Next3, "2026-12-15", "2027-01-15", "2027-01-15", "2027-01-15"],
    ["NEXT, the day after an anchor", on15Next3, "2026-12-16", "2027-01-15", "2027-01-15", "2027-01-15"],
    ["ASAP, outside the cutoff: charged and shipped now, renews on the 15th", on15Asap3, "2026-11-27", "2026-11-27", "2026-11-27", "2026-12-15"],
    ["ASAP, inside the cutoff: ships with the 15th's batch, renews a month later", on15Asap3, "2026-12-13", "2026-12-13", "2026-12-15", "2027-01-15"],
    ["anchor 31 in a common-year February", on31, "2027-02-01", "2027-02-28", "2027-02-28", "2027-02-28"],
    ["anchor 31 in a leap-year February", on31, "2028-02-01", "2028-02-29", "2028-02-29", "2028-02-29"],
    ["anchor 31 in April", on31, "2027-04-05", "2027-04-30", "2027-04-30", "2027-04-30"],
    ["anchor 30 in February", anchored(30, { preAnchorBehavior: "NEXT" }), "2027-02-10", "2027-02-28", "2027-02-28", "2027-02-28"],
    ["anchor 29 in 2100 (not a leap year)", anchored(29, { preAnchorBehavior: "NEXT" }), "2100-02-01", "2100-02-28", "2100-02-28", "2100-02-28"],
    ["anchor 29 in 2000 (a leap year)", anchored(29, { preAnchorBehavior: "NEXT" }), "2000-02-01", "2000-02-29", "2000-02-29", "2000-02-29"],
    ["quarterly months, from late November", quarterly1st, "2026-11-27", "2026-12-01", "2026-12-01", "2026-12-01"],
    ["quarterly months, on the anchor day with no cutoff", quarterly1st, "2026-12-01", "2026-12-01", "2026-12-01", "2026-12-01"],
    ["quarterly months, inside a 5-day cutoff", { ...quarterly1st, cutoffDays: 5 }, "2026-11-28", "2027-03-01", "2027-03-01", "2027-03-01"],
    [
      "February only, anchor 31, from March",
      anchored(31, { anchorMonths: [2], preAnchorBehavior: "NEXT" }),
      "2027-03-01",
      "2028-02-29",
      "2028-02-29",
      "2028-02-29",
    ],
    ["ship day 18 after a charge on the 15th", { ...on15Next3, shipDay: 18 }, "2026-11-27", "2026-12-15", "2026-12-18", "2026-12-15"],
    ["rolling monthly: charged now, renews a month on", monthly(), "2027-01-31", "2027-01-31", "2027-01-31", "2027-02-28"],
    ["ASAP is the default when unset", anchored(15), "2026-11-27", "2026-11-27", "2026-11-27", "2026-12-15"],
  ];
  it.each(rows)("%s", (_label, plan, signup, charge, ship, next) => {
    const r = signupDates(d(signup), plan);
    expect([civilIso(r.firstCharge), civilIso(r.firstShipment), civilIso(r.contractNextBilling)]).toEqual([charge, ship, next]);
  });
});

describe("the charge after a charge", () => {
  const rows: [string, Schedule, string, string][] = [
    ["anchor 31 from February's clamped 28th back to the 31st", on31, "2027-02-28", "2027-03-31"],
    ["anchor 31 from a leap February 29th", on31, "2028-02-29", "2028-03-31"],
    ["anchor 31 from April 30th", on31, "2027-04-30", "2027-05-31"],
    ["anchor 30 from February 28th", anchored(30), "2027-02-28", "2027-03-30"],
    ["quarterly months, December to March", quarterly1st, "2026-12-01", "2027-03-01"],
    ["February only, leap year to common year", anchored(31, { anchorMonths: [2] }), "2028-02-29", "2029-02-28"],
    ["an off-anchor date rejoins at the next anchor", on15Next3, "2026-12-20", "2027-01-15"],
    ["every second month from the 10th", anchored(10, { intervalCount: 2 }), "2026-03-10", "2026-05-10"],
    ["rolling every 10 days across the year end", { mode: "rolling", interval: "DAY", intervalCount: 10 }, "2026-12-25", "2027-01-04"],
    ["rolling yearly from a leap day", { mode: "rolling", interval: "YEAR", intervalCount: 1 }, "2028-02-29", "2029-02-28"],
    ["rolling every 3 months from November 30th", monthly(3), "2026-11-30", "2027-02-28"],
    ["rolling every 2 weeks across the year end", { mode: "rolling", interval: "WEEK", intervalCount: 2 }, "2026-12-28", "2027-01-11"],
  ];
  it.each(rows)("%s", (_label, plan, from, to) => {
    expect(civilIso(nextChargeDate(d(from), plan))).toBe(to);
    expect(civilIso(skipDate(d(from), plan))).toBe(to);
  });
});

describe("sequences, reschedules, shipments", () => {
  it("a rolling monthly plan from the 31st keeps the 31st where the month has one", () => {
    expect(chargeSequence(d("2027-01-31"), monthly(), 4).map(civilIso)).toEqual(["2027-01-31", "2027-02-28", "2027-03-31", "2027-04-30"]);
    expect(chargeSequence(d("2028-01-31"), monthly(), 3).map(civilIso)).toEqual(["2028-01-31", "2028-02-29", "2028-03-31"]);
  });
  it("every second month from the subscriber's first anchor", () => {
    expect(chargeSequence(d("2026-01-05"), anchored(10, { intervalCount: 2, preAnchorBehavior: "NEXT" }), 3).map(civilIso)).toEqual([
      "2026-01-10",
      "2026-03-10",
      "2026-05-10",
    ]);
  });
  it("NEXT, 15th, cutoff 3: six charges from a late-November sign-up", () => {
    expect(chargeSequence(d("2026-11-27"), on15Next3, 6).map(civilIso)).toEqual([
      "2026-12-15",
      "2027-01-15",
      "2027-02-15",
      "2027-03-15",
      "2027-04-15",
      "2027-05-15",
    ]);
  });
  const reschedules: [string, Schedule, string, string][] = [
    ["the day after an anchor goes to the next month's", on15Next3, "2027-01-16", "2027-02-15"],
    ["an anchor day stays", on15Next3, "2027-01-15", "2027-01-15"],
    ["a listed-months plan jumps to the next listed month", anchored(15, { anchorMonths: [3, 9] }), "2027-03-16", "2027-09-15"],
    ["a rolling plan takes the day as sent", monthly(), "2027-01-16", "2027-01-16"],
  ];
  it.each(reschedules)("reschedule: %s", (_l, plan, from, to) => expect(civilIso(rescheduleDate(d(from), plan))).toBe(to));
  const ships: [number, string, string][] = [
    [18, "2026-12-15", "2026-12-18"],
    [10, "2026-12-15", "2027-01-10"],
    [31, "2027-01-31", "2027-01-31"],
    [30, "2027-02-20", "2027-02-28"],
  ];
  it.each(ships)("ship day %i after a charge on %s is %s", (shipDay, charge, ship) => {
    expect(civilIso(shipmentDate(d(charge), anchored(15, { shipDay })))).toBe(ship);
  });
  it("February 28th is an anchor-31 date in 2027 but not in 2028", () => {
    expect(isAnchorDate(d("2027-02-28"), on31)).toBe(true);
    expect(isAnchorDate(d("2028-02-28"), on31)).toBe(false);
  });
});

describe("instants in the shop's time zone", () => {
  const rows: [string, string, (at: Date, s: Schedule, tz: string) => Date, Schedule, string, string][] = [
    ["New York winter, 09:00 EST stays 09:00", "America/New_York", nextChargeAfter, on15Next3, "2026-12-15T14:00:00Z", "2027-01-15T14:00:00Z"],
    ["New York across the March DST change", "America/New_York", nextChargeAfter, on15Next3, "2027-02-15T14:00:00Z", "2027-03-15T13:00:00Z"],
    ["Auckland: the 15th local is the 14th in UTC", "Pacific/Auckland", nextChargeAfter, on15Next3, "2026-12-14T20:00:00Z", "2027-01-14T20:00:00Z"],
    ["Los Angeles evening: the 16th in UTC is the 15th local", "America/Los_Angeles", skipTarget, on15Next3, "2026-12-16T05:00:00Z", "2027-01-16T05:00:00Z"],
    ["London across the October DST change", "Europe/London", nextChargeAfter, on15Next3, "2026-10-15T08:00:00Z", "2026-11-15T09:00:00Z"],
    [
      "Kolkata: a reschedule to the 16th local moves to February 15th",
      "Asia/Kolkata",
      rescheduleTarget,
      on15Next3,
      "2027-01-15T20:00:00Z",
      "2027-02-14T20:00:00Z",
    ],
    ["UTC: anchor 31 skips to February 28th", "UTC", skipTarget, on31, "2027-01-31T10:00:00Z", "2027-02-28T10:00:00Z"],
    ["Sydney across the October DST start", "Australia/Sydney", nextChargeAfter, anchored(16), "2026-09-15T23:00:00Z", "2026-10-15T22:00:00Z"],
  ];
  it.each(rows)("%s", (_l, tz, f, plan, from, to) => {
    expect(f(new Date(from), plan, tz).toISOString()).toBe(new Date(to).toISOString());
  });
});
