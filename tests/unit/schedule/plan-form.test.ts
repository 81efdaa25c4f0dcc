// The plan builder's form (docs/decisions/111-selling-plan-writes.md): generated labels, Shopify's
// anchors for a schedule, and the form field each of Shopify's userError paths lands on.
import { anchorsOf, checkForm, formFieldOf, generatedLabel, planWriteOf, type PlanOptionForm, type ScheduleForm } from "../../../app/domain/catalog/plan-form";

const option: PlanOptionForm = {
  id: null,
  interval: "MONTH",
  intervalCount: 1,
  pricing: { type: "PERCENTAGE", value: "10", afterCycle: null, afterType: null, afterValue: null },
  minCycles: null,
  maxCycles: null,
  giftable: false,
  label: "",
};
const on15: ScheduleForm = { mode: "anchored", anchorDay: 15, anchorMonths: [], cutoffDays: 3, preAnchorBehavior: "NEXT", shipDay: null };

describe("the plan form", () => {
  it("generates labels from cadence and pricing", () => {
    expect(generatedLabel(option, on15)).toBe("Charged on the 15th, every month, 10% off");
    expect(generatedLabel({ ...option, interval: "WEEK", intervalCount: 2 }, { ...on15, mode: "rolling" })).toBe("Delivered every 2 weeks, 10% off");
    expect(generatedLabel(option, { ...on15, anchorDay: 1, anchorMonths: [12, 3] })).toBe("On the 1st of Mar, Dec, 10% off");
    expect(
      generatedLabel(
        { ...option, pricing: { type: "FIXED_AMOUNT", value: "2.00", afterCycle: 4, afterType: "PRICE", afterValue: "15.00" } },
        { ...on15, anchorDay: 22 },
      ),
    ).toBe("Charged on the 22nd, every month, 2.00 off, then for 15.00 from order 4");
  });

  it("sends one MONTHDAY anchor, or one YEARDAY anchor per listed month on a one-year interval", () => {
    expect(anchorsOf(on15)).toEqual([{ type: "MONTHDAY", day: 15 }]);
    expect(anchorsOf({ ...on15, anchorMonths: [9, 3] })).toEqual([
      { type: "YEARDAY", day: 15, month: 3 },
      { type: "YEARDAY", day: 15, month: 9 },
    ]);
    expect(anchorsOf({ ...on15, mode: "rolling" })).toEqual([]);
    const w = planWriteOf(option, { ...on15, anchorMonths: [3, 9] }, 0);
    expect([w.interval, w.intervalCount, w.cutoff, w.preAnchorBehavior]).toEqual(["YEAR", 1, 3, "NEXT"]);
    expect(w.billingAnchors).toEqual(w.deliveryAnchors);
  });

  it.each([
    [["input", "sellingPlansToCreate", "0", "billingPolicy", "recurring", "anchors"], "schedule.anchorDay"],
    [["input", "sellingPlansToCreate", "1", "deliveryPolicy", "recurring", "anchors", "0", "cutoffDay"], "schedule.cutoffDays"],
    [["input", "sellingPlansToCreate"], "plans"],
    [["input", "sellingPlansToCreate", "1", "pricingPolicies"], "plans.2.pricing"],
    [["input", "sellingPlansToUpdate", "0", "billingPolicy", "recurring", "maxCycles"], "plans.0.maxCycles"],
    [["input", "sellingPlansToUpdate", "0", "name"], "plans.0.label"],
    [["input", "name"], "name"],
    [["input", "merchantCode"], "merchantCode"],
    [["resources", "productIds"], "products"],
    [["productVariantIds"], "products"],
    [["id"], "form"],
    [undefined, "form"],
  ])("userError field %j lands on %s", (field, expected) => {
    expect(formFieldOf(field as string[] | undefined, { create: [1, 2], update: [0] })).toBe(expected);
  });

  it("checks the form before Shopify: names, amounts, percentages", () => {
    const base = { name: "Club", merchantCode: "club", productIds: [], variantIds: [], schedule: on15, plans: [option] };
    expect(checkForm(base).errors).toBeNull();
    expect(checkForm({ ...base, name: "" }).errors).toEqual({ name: "Enter a name" });
    expect(checkForm({ ...base, plans: [] }).errors).toEqual({ plans: "Add at least one plan" });
    expect(checkForm({ ...base, plans: [{ ...option, pricing: { ...option.pricing, value: "120" } }] }).errors).toEqual({
      "plans.0.pricing": "Enter a percentage from 0 to 100",
    });
    expect(checkForm({ ...base, plans: [{ ...option, pricing: { ...option.pricing, type: "PRICE", value: "12.5.0" } }] }).errors).toEqual({
      "plans.0.pricing": "Enter an amount like 12.50",
    });
  });
});
