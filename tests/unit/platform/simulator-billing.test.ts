// Billing dates of the simulated Shopify (simulator/subscription-billing.ts): a successful charge
// moves the contract one interval on, or to the next anchor on an anchored plan.
import { describe, expect, it } from "vitest";
import { emptyState, type Contract } from "../../../simulator/state";
import { createContract } from "../../../simulator/store/contracts";
import { installShop } from "../../../simulator/store/shops";
import { createBillingAttempt, followingBillingDate, nextAnchorAfter } from "../../../simulator/subscription-billing";

const now = new Date("2026-03-01T12:00:00Z");

function seed(policy: Partial<Contract["billingPolicy"]>, nextBillingDate: string) {
  const state = emptyState();
  const shop = installShop(state, { shop: "unit.myshopify.com" }, now);
  const outcome = createContract(state, shop, { nextBillingDate, billingPolicy: policy }, now);
  if (!outcome.ok) throw new Error("seed failed");
  return { state, shop, contract: outcome.value };
}

describe("the billing date after a charge", () => {
  it("rolling plans move one interval (month-end clamps like Shopify's)", () => {
    expect(followingBillingDate(seed({ interval: "MONTH", intervalCount: 1 }, "2031-01-10T00:00:00Z").contract, "2031-01-10T00:00:00.000Z")).toBe(
      "2031-02-10T00:00:00.000Z",
    );
    expect(followingBillingDate(seed({ interval: "WEEK", intervalCount: 2 }, "2031-01-10T00:00:00Z").contract, "2031-01-10T00:00:00.000Z")).toBe(
      "2031-01-24T00:00:00.000Z",
    );
  });

  it("anchored plans move to the first anchor after the charge (MONTHDAY, WEEKDAY, YEARDAY)", () => {
    const anchored = (anchors: Contract["billingPolicy"]["anchors"], interval: "MONTH" | "WEEK" | "YEAR" = "MONTH") =>
      seed({ interval, intervalCount: 1, anchors }, "2031-01-20T09:00:00Z").contract;
    expect(followingBillingDate(anchored([{ day: 1, month: null, type: "MONTHDAY" }]), "2031-01-20T09:00:00.000Z")).toBe("2031-02-01T09:00:00.000Z");
    expect(followingBillingDate(anchored([{ day: 20, month: null, type: "MONTHDAY" }]), "2031-01-20T09:00:00.000Z")).toBe("2031-02-20T09:00:00.000Z");
    expect(followingBillingDate(anchored([{ day: 31, month: null, type: "MONTHDAY" }]), "2031-01-31T09:00:00.000Z")).toBe("2031-02-28T09:00:00.000Z");
    // 2031-01-20 is a Monday; anchor 3 = Wednesday.
    expect(followingBillingDate(anchored([{ day: 3, month: null, type: "WEEKDAY" }], "WEEK"), "2031-01-20T09:00:00.000Z")).toBe("2031-01-22T09:00:00.000Z");
    expect(followingBillingDate(anchored([{ day: 15, month: 6, type: "YEARDAY" }], "YEAR"), "2031-01-20T09:00:00.000Z")).toBe("2031-06-15T09:00:00.000Z");
    expect(
      nextAnchorAfter(new Date("2031-01-20T09:00:00Z"), [
        { day: 25, month: null, type: "MONTHDAY" },
        { day: 5, month: null, type: "MONTHDAY" },
      ]).toISOString(),
    ).toBe("2031-01-25T09:00:00.000Z");
  });
});

describe("billing attempts", () => {
  it("one key, one attempt: repeating it changes nothing and sends nothing", () => {
    const { state, shop, contract } = seed({ interval: "MONTH", intervalCount: 1 }, "2031-01-10T00:00:00Z");
    const first = createBillingAttempt(state, shop, contract.id, { idempotencyKey: "k1" }, now, "http://sim");
    expect(first.ok && first.events.map((e) => e.topic)).toEqual(["subscription_contracts/update", "subscription_billing_attempts/success"]);
    const again = createBillingAttempt(state, shop, contract.id, { idempotencyKey: "k1" }, now, "http://sim");
    expect(again.ok && again.events).toEqual([]);
    expect(again.ok && first.ok && again.value.id).toBe(first.ok && first.value.id);
    expect(shop.contracts[contract.id].nextBillingDate).toBe("2031-02-10T00:00:00.000Z");
  });

  it("a revoked method fails with PAYMENT_METHOD_NOT_FOUND and an expired card with EXPIRED_PAYMENT_METHOD", () => {
    const { state, shop, contract } = seed({}, "2031-01-10T00:00:00Z");
    const method = shop.customers[contract.customerId].paymentMethods[0];
    method.revokedAt = now.toISOString();
    const revoked = createBillingAttempt(state, shop, contract.id, { idempotencyKey: "a" }, now, "http://sim");
    expect(revoked.ok && revoked.value).toMatchObject({ outcome: "failure", errorCode: "PAYMENT_METHOD_NOT_FOUND" });
    method.revokedAt = null;
    if (method.kind === "credit_card") method.expiryYear = 2025;
    const expired = createBillingAttempt(state, shop, contract.id, { idempotencyKey: "b" }, now, "http://sim");
    expect(expired.ok && expired.value).toMatchObject({ outcome: "failure", errorCode: "EXPIRED_PAYMENT_METHOD" });
    expect(shop.contracts[contract.id].nextBillingDate).toBe("2031-01-10T00:00:00Z");
  });
});
