// The Customer API's pure rules at their exact boundaries (docs/decisions/070-072): the box
// window, payment-method expiry, the reschedule anchor, save events and the preference map.
import { vi } from "vitest";
import { boxClosedReason, boxCutoff, periodOf } from "../../../app/domain/customer/box.server";
import { expiryState, noonUtc, preservedRevenueCents, saveEventType } from "../../../app/domain/customer/portal.server";
import { normalisePreferences, notificationActivity } from "../../../app/domain/customer/notification-preferences.server";

const DAY = 86_400_000;

describe("the box window", () => {
  const charge = new Date("2026-12-10T09:00:00Z");
  const open = { buildABox: true, status: "ACTIVE", nextBillingAt: charge, cutoffDays: 3, menuPublished: true };

  it("closes selection_cutoff_days before the charge, to the second", () => {
    const cutoff = boxCutoff(charge, 3);
    expect(cutoff.toISOString()).toBe("2026-12-07T09:00:00.000Z");
    expect(boxClosedReason({ ...open, now: new Date(cutoff.getTime() - 1000) })).toBeNull();
    expect(boxClosedReason({ ...open, now: cutoff })).toBe("past_cutoff");
    expect(boxClosedReason({ ...open, now: new Date(cutoff.getTime() + 1000) })).toBe("past_cutoff");
  });

  it("is closed before publication, without a charge, off build-a-box and on an inactive contract", () => {
    const now = new Date(charge.getTime() - 10 * DAY);
    expect(boxClosedReason({ ...open, now, menuPublished: false })).toBe("menu_not_published");
    expect(boxClosedReason({ ...open, now, nextBillingAt: null })).toBe("no_upcoming_charge");
    expect(boxClosedReason({ ...open, now, buildABox: false })).toBe("not_build_a_box");
    expect(boxClosedReason({ ...open, now, status: "PAUSED" })).toBe("subscription_inactive");
  });

  it("names the period by the charge's UTC month", () => {
    expect(periodOf(new Date("2026-12-31T23:30:00Z"))).toBe("2026-12");
    expect(periodOf(new Date("2027-01-01T00:00:00Z"))).toBe("2027-01");
  });
});

describe("payment-method expiry", () => {
  it("is valid through the last day of the expiry month, expiring within its last 60 days", () => {
    expect(expiryState(12, 2026, new Date("2026-12-31T23:59:59Z"))).toBe("expiring_soon");
    expect(expiryState(12, 2026, new Date("2027-01-01T00:00:00Z"))).toBe("expired");
    expect(expiryState(12, 2026, new Date("2026-11-02T00:00:00Z"))).toBe("expiring_soon");
    expect(expiryState(12, 2026, new Date("2026-11-01T00:00:00Z"))).toBe("valid");
    expect(expiryState(null, null)).toBe("not_applicable");
  });
});

describe("reschedule dates and save events", () => {
  it("anchors a calendar day at noon UTC", () => {
    expect(noonUtc("2027-02-28").toISOString()).toBe("2027-02-28T12:00:00.000Z");
  });

  it("counts anything but accepted as shown, and only an accepted offer preserves revenue", () => {
    expect(["accepted", "shown", "clicked", undefined].map(saveEventType)).toEqual(["accepted", "shown", "shown", "shown"]);
    expect(preservedRevenueCents("accepted", { monthlyAmountCents: 2599, chargeAmountCents: 7797 })).toBe(2599);
    expect(preservedRevenueCents("accepted", { monthlyAmountCents: null, chargeAmountCents: 7797 })).toBe(7797);
    expect(preservedRevenueCents("shown", { monthlyAmountCents: 2599, chargeAmountCents: 7797 })).toBe(0);
  });
});

describe("notification preferences", () => {
  it("keeps the four categories only, defaulting what is missing or not a boolean to on", () => {
    expect(normalisePreferences({ reminders: false, account: false, billing: false, box: "no", extra: true })).toEqual({
      reminders: false,
      orders: true,
      box: true,
      winback: true,
    });
  });

  it("answers an empty activity feed when the log cannot be read", async () => {
    const read = vi.fn(async () => {
      throw new Error("connection lost");
    });
    await expect(notificationActivity({ shopId: "s", customerId: "gid://shopify/Customer/1" }, read)).resolves.toEqual([]);
    expect(read).toHaveBeenCalledOnce();
  });
});
