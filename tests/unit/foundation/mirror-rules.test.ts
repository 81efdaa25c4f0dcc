import { endedAt, eventForTransition, frequencyLabel, monthlyCents } from "../../../app/domain/subscriptions/mirror.server";

const policy = (interval: "DAY" | "WEEK" | "MONTH" | "YEAR", intervalCount: number, months: number[] = []) => ({
  interval,
  intervalCount,
  anchors: months.map((month) => ({ day: 15, month, type: "YEARDAY" })),
});

describe("monthly amount", () => {
  it("divides by the interval", () => {
    expect(monthlyCents(3000, policy("MONTH", 1))).toBe(3000);
    expect(monthlyCents(3000, policy("MONTH", 3))).toBe(1000);
    expect(monthlyCents(1200, policy("WEEK", 1))).toBe(5200); // 52 charges a year / 12
    expect(monthlyCents(12000, policy("YEAR", 1))).toBe(1000);
  });

  it("counts one charge per anchor month on an anchored yearly policy", () => {
    // anchored to Jan/Apr/Jul/Oct: four charges a year
    expect(monthlyCents(6000, policy("YEAR", 1, [1, 4, 7, 10]))).toBe(2000);
  });
});

describe("frequency label", () => {
  it("reads like the admin's", () => {
    expect(frequencyLabel(policy("MONTH", 1))).toBe("Every month");
    expect(frequencyLabel(policy("WEEK", 2))).toBe("Every 2 weeks");
    expect(frequencyLabel(policy("YEAR", 1, [3, 9]))).toBe("2 times a year");
  });
});

describe("which status change is announced", () => {
  it("announces creation once", () => {
    expect(eventForTransition(null, "ACTIVE", true)).toBe("subscription.created");
  });
  it("maps the three lifecycle changes of the spec", () => {
    expect(eventForTransition("ACTIVE", "PAUSED", false)).toBe("subscription.paused");
    expect(eventForTransition("ACTIVE", "CANCELLED", false)).toBe("subscription.cancelled");
    expect(eventForTransition("PAUSED", "ACTIVE", false)).toBe("subscription.reactivated");
    expect(eventForTransition("CANCELLED", "ACTIVE", false)).toBe("subscription.reactivated");
  });
  it("announces nothing when nothing changed", () => {
    expect(eventForTransition("PAUSED", "PAUSED", false)).toBeNull();
    expect(eventForTransition("ACTIVE", "ACTIVE", false)).toBeNull();
  });
});

describe("ended_at (docs/decisions/041-contract-ended-at.md)", () => {
  const at = (iso: string) => ({ updatedAt: iso });
  const first = new Date("2026-03-01T10:00:00Z");

  it("a change to CANCELLED, EXPIRED or FAILED ends the contract at the platform's time of the change", () => {
    for (const status of ["CANCELLED", "EXPIRED", "FAILED"] as const) {
      expect(endedAt({ status: "ACTIVE", endedAt: null }, { status, ...at("2026-03-01T10:00:00Z") })).toEqual(first);
      expect(endedAt(null, { status, ...at("2026-03-01T10:00:00Z") })).toEqual(first);
    }
  });

  it("keeps the first end while the contract stays ended, and clears it on reactivation or pause", () => {
    expect(endedAt({ status: "CANCELLED", endedAt: first }, { status: "EXPIRED", ...at("2026-05-01T00:00:00Z") })).toEqual(first);
    expect(endedAt({ status: "CANCELLED", endedAt: first }, { status: "CANCELLED", ...at("2026-05-01T00:00:00Z") })).toEqual(first);
    expect(endedAt({ status: "CANCELLED", endedAt: first }, { status: "ACTIVE", ...at("2026-05-01T00:00:00Z") })).toBeNull();
    expect(endedAt({ status: "ACTIVE", endedAt: null }, { status: "PAUSED", ...at("2026-05-01T00:00:00Z") })).toBeNull();
  });
});
