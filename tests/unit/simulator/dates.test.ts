import { describe, expect, it } from "vitest";
import { addInterval } from "../../../simulator/store/dates";

describe("the simulator's billing interval arithmetic", () => {
  it.each([
    ["2027-01-31T10:00:00.000Z", "MONTH", 1, "2027-02-28T10:00:00.000Z"],
    ["2028-01-31T10:00:00.000Z", "MONTH", 1, "2028-02-29T10:00:00.000Z"],
    ["2027-01-31T10:00:00.000Z", "MONTH", 3, "2027-04-30T10:00:00.000Z"],
    ["2027-03-31T00:00:00.000Z", "MONTH", -1, "2027-02-28T00:00:00.000Z"],
    ["2027-11-30T00:00:00.000Z", "MONTH", 2, "2028-01-30T00:00:00.000Z"],
    ["2028-02-29T08:30:00.000Z", "YEAR", 1, "2029-02-28T08:30:00.000Z"],
    ["2027-01-15T00:00:00.000Z", "MONTH", 1, "2027-02-15T00:00:00.000Z"],
    ["2027-01-31T00:00:00.000Z", "WEEK", 1, "2027-02-07T00:00:00.000Z"],
    ["2027-02-28T00:00:00.000Z", "DAY", 1, "2027-03-01T00:00:00.000Z"],
  ] as const)("%s + %s x %i is %s (a month's day clamps to its last day)", (from, interval, count, expected) => {
    expect(addInterval(from, interval, count)).toBe(expected);
  });
});
