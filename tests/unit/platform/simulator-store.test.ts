import { describe, expect, it, beforeEach } from "vitest";
import { emptyState, type ShopState, type SimState } from "../../../simulator/state";
import { commitDraft, createContract, openDraft, setNextBillingDate, setStatus, skipBillingCycle, updateDraftLine } from "../../../simulator/store/contracts";
import { setCustomerViaApi } from "../../../simulator/store/customers";
import { setMetafields } from "../../../simulator/store/metafields";
import { installShop } from "../../../simulator/store/shops";

const now = new Date("2026-03-01T12:00:00Z");
let state: SimState;
let shop: ShopState;

function contract(input: Parameters<typeof createContract>[2] = {}) {
  const outcome = createContract(state, shop, input, now);
  if (!outcome.ok) throw new Error("seed failed");
  return outcome.value;
}

beforeEach(() => {
  state = emptyState();
  shop = installShop(state, { shop: "unit.myshopify.com" }, now);
});

describe("contract status transitions", () => {
  it("pause → activate → cancel, each bumping the revision and emitting update webhooks", () => {
    const c = contract();
    const paused = setStatus(shop, c.id, "PAUSED", now);
    expect(paused.ok && paused.value.status).toBe("PAUSED");
    expect(paused.ok && paused.events.map((e) => e.topic)).toEqual(["subscription_contracts/update", "subscription_contracts/pause"]);
    expect(setStatus(shop, c.id, "ACTIVE", now).ok).toBe(true);
    expect(setStatus(shop, c.id, "CANCELLED", now).ok).toBe(true);
    expect(shop.contracts[c.id].revisionId).toBe(4);
  });

  it("pausing a paused contract is a successful no-op without webhooks", () => {
    const c = contract({ status: "PAUSED" });
    const again = setStatus(shop, c.id, "PAUSED", now);
    expect(again.ok).toBe(true);
    expect(again.ok && again.events).toEqual([]);
    expect(shop.contracts[c.id].revisionId).toBe(1);
  });

  it("any change of a cancelled contract is refused without a field", () => {
    const c = contract({ status: "CANCELLED" });
    for (const target of ["PAUSED", "ACTIVE", "CANCELLED"] as const) {
      const r = setStatus(shop, c.id, target, now);
      expect(r.ok).toBe(false);
      expect(!r.ok && r.userErrors[0]).toMatchObject({ field: null, code: "CONTRACT_TERMINATED" });
    }
    expect(shop.contracts[c.id].status).toBe("CANCELLED");
  });

  it("another app's contract is as good as missing (error with a field)", () => {
    const c = contract({ app: "other" });
    const r = setStatus(shop, c.id, "PAUSED", now);
    expect(!r.ok && r.userErrors[0].field).toEqual(["subscriptionContractId"]);
    expect(shop.contracts[c.id].status).toBe("ACTIVE");
  });
});

describe("billing dates", () => {
  it("refuses a next billing date in the past with field date", () => {
    const c = contract();
    const r = setNextBillingDate(shop, c.id, "2026-02-01T00:00:00Z", now);
    expect(!r.ok && r.userErrors[0].field).toEqual(["date"]);
    expect(setNextBillingDate(shop, c.id, "2026-05-01T00:00:00Z", now).ok).toBe(true);
    expect(shop.contracts[c.id].nextBillingDate).toBe("2026-05-01T00:00:00.000Z");
  });

  it("skipping the cycle due next moves the next billing date one interval on", () => {
    const c = contract({ billingPolicy: { interval: "WEEK", intervalCount: 2 } });
    const first = c.nextBillingDate;
    const r = skipBillingCycle(shop, c.id, { index: 1 }, now);
    expect(r.ok && r.value).toMatchObject({ contractId: c.id, cycleIndex: 1, cycleStartAt: c.createdAt, cycleEndAt: first, billingAttemptExpectedDate: first });
    expect(new Date(shop.contracts[c.id].nextBillingDate).getTime() - new Date(first).getTime()).toBe(14 * 86400_000);
    const byDate = skipBillingCycle(shop, c.id, { date: shop.contracts[c.id].nextBillingDate }, now);
    expect(byDate.ok && byDate.value).toMatchObject({ cycleIndex: 2, cycleStartAt: first });
    expect(!skipBillingCycle(shop, c.id, {}, now).ok).toBe(true);
  });
});

describe("drafts", () => {
  it("a refused line update changes neither draft nor contract; a good one commits once", () => {
    const c = contract({ lines: [] });
    const lineId = c.lines[0].id;
    const d = openDraft(state, shop, c.id, now);
    if (!d.ok) throw new Error("draft");
    const bad = updateDraftLine(shop, d.value.id, lineId, { quantity: 3, productVariantId: "gid://shopify/ProductVariant/999999" });
    expect(!bad.ok && bad.userErrors[0].field).toEqual(["input", "productVariantId"]);
    expect(shop.drafts[d.value.id].lines[0].quantity).toBe(1);
    expect(updateDraftLine(shop, d.value.id, lineId, { quantity: 3 }).ok).toBe(true);
    expect(shop.contracts[c.id].lines[0].quantity).toBe(1);
    const committed = commitDraft(shop, d.value.id, now);
    expect(committed.ok && committed.value.lines[0].quantity).toBe(3);
    expect(shop.drafts[d.value.id]).toBeUndefined();
  });

  it("custom attributes replace the line's list at commit; a malformed list is refused with its field", () => {
    const c = contract({ lines: [] });
    const lineId = c.lines[0].id;
    const d = openDraft(state, shop, c.id, now);
    if (!d.ok) throw new Error("draft");
    const bad = updateDraftLine(shop, d.value.id, lineId, { customAttributes: [{ key: "", value: "x" }] });
    expect(!bad.ok && bad.userErrors[0].field).toEqual(["input", "customAttributes"]);
    expect(updateDraftLine(shop, d.value.id, lineId, { customAttributes: [{ key: "_box_items", value: "a:1" }] }).ok).toBe(true);
    expect(shop.contracts[c.id].lines[0].customAttributes).toBeUndefined();
    const committed = commitDraft(shop, d.value.id, now);
    expect(committed.ok && committed.value.lines[0].customAttributes).toEqual([{ key: "_box_items", value: "a:1" }]);
  });

  it("a draft of an older revision is refused at commit (state conflict)", () => {
    const c = contract();
    const d = openDraft(state, shop, c.id, now);
    if (!d.ok) throw new Error("draft");
    setStatus(shop, c.id, "PAUSED", now);
    const r = commitDraft(shop, d.value.id, now);
    expect(!r.ok && r.userErrors[0]).toMatchObject({ field: null, code: "STALE_CONTRACT" });
  });
});

describe("metafieldsSet", () => {
  it("is all-or-nothing and names the bad input's field", () => {
    const r = setMetafields(
      state,
      shop,
      [
        { ownerId: "gid://shopify/Product/1", namespace: "app", key: "bundle_plan", type: "json", value: "{}" },
        { ownerId: "gid://shopify/Product/1", namespace: "app", key: "n", type: "json", value: "{" },
      ],
      now,
    );
    expect(!r.ok && r.userErrors[0].field).toEqual(["metafields", "1", "key"]);
    expect(Object.keys(shop.metafields)).toHaveLength(0);
  });
});

describe("customerSet", () => {
  const address = { address1: "1 Harbor Street", city: "Toronto", provinceCode: "ON", countryCode: "CA", zip: "M5V" };

  it("without an identifier creates the customer with their address; a taken e-mail or phone is TAKEN on the input field", () => {
    const made = setCustomerViaApi(state, shop, { email: "ada@example.com", firstName: "Ada", phone: "+15550001", addresses: [address] }, null);
    expect(made.ok && made.value).toMatchObject({ email: "ada@example.com", firstName: "Ada", address: { address1: "1 Harbor Street", country: "CA" } });
    const again = setCustomerViaApi(state, shop, { email: "ADA@example.com" }, null);
    expect(again).toEqual({ ok: false, userErrors: [{ field: ["input", "email"], message: "Email has already been taken", code: "TAKEN" }] });
    const phone = setCustomerViaApi(state, shop, { email: "bea@example.com", phone: "+15550001" }, null);
    expect(phone).toEqual({ ok: false, userErrors: [{ field: ["input", "phone"], message: "Phone has already been taken", code: "TAKEN" }] });
    expect(setCustomerViaApi(state, shop, { email: "not-an-email" }, null)).toMatchObject({
      ok: false,
      userErrors: [{ field: ["input", "email"], code: "INVALID" }],
    });
    expect(setCustomerViaApi(state, shop, {}, null)).toMatchObject({ ok: false, userErrors: [{ field: null, code: "BLANK" }] });
    expect(Object.keys(shop.customers).length).toBe(1);
  });

  it("with an identifier updates the customer it names (the addresses list replaces theirs), or creates one when it names nobody", () => {
    const made = setCustomerViaApi(state, shop, { email: "ada@example.com", firstName: "Ada", addresses: [address] }, null);
    const id = made.ok ? made.value.id : "";
    const updated = setCustomerViaApi(state, shop, { lastName: "Lovelace", addresses: [] }, { email: "ada@example.com" });
    expect(updated.ok && updated.value).toMatchObject({ id, firstName: "Ada", lastName: "Lovelace", address: null });
    expect(setCustomerViaApi(state, shop, { email: "other@example.com" }, { email: "ada@example.com" })).toMatchObject({
      ok: false,
      userErrors: [{ field: ["input", "email"], code: "INPUT_MISMATCH" }],
    });
    expect(setCustomerViaApi(state, shop, {}, { id: "gid://shopify/Customer/999999" })).toMatchObject({ ok: false, userErrors: [{ code: "NOT_FOUND" }] });
    const fresh = setCustomerViaApi(state, shop, { firstName: "Bea" }, { email: "bea@example.com" });
    expect(fresh.ok && fresh.value).toMatchObject({ email: "bea@example.com", firstName: "Bea" });
    expect(Object.keys(shop.customers).length).toBe(2);
  });
});
