// The wire form of the shared subscription filters (app/surfaces/subscription-filters.ts):
// every filter (docs/decisions/055) parsed to typed options, every refusal naming the filter and value.
import { filtersToQuery, parseSubscriptionFilterInput, parseSubscriptionFilterQuery } from "../../../app/surfaces/subscription-filters";
import { likePattern } from "../../../app/domain/subscriptions/filters.server";

const ok = (input: unknown) => {
  const r = parseSubscriptionFilterInput(input);
  if (!r.ok) throw new Error(`refused: ${r.message}`);
  return r.filters;
};
const refused = (input: unknown) => {
  const r = parseSubscriptionFilterInput(input);
  if (r.ok) throw new Error(`accepted: ${JSON.stringify(r.filters)}`);
  return r.message;
};

describe("subscription filters: parsing", () => {
  it("takes every filter of the spec into typed options", () => {
    expect(
      ok({
        status: "paused",
        plan: "gid://shopify/SellingPlan/7",
        customer_id: "gid://shopify/Customer/42",
        product: "Coffee",
        frequency: "Every month",
        amount_min: "5",
        amount_max: "19.99",
        next_from: "2026-01-01",
        next_to: "2026-01-31",
        q: "#1001",
        view: "renewals",
      }),
    ).toEqual({
      status: "PAUSED",
      sellingPlanGid: "gid://shopify/SellingPlan/7",
      customerGid: "gid://shopify/Customer/42",
      product: "Coffee",
      frequency: "Every month",
      amountMin: "5",
      amountMax: "19.99",
      nextFrom: "2026-01-01",
      nextTo: "2026-01-31",
      q: "#1001",
      view: "renewals",
    });
  });

  it("a NUL character in free text is refused, naming the filter", () => {
    for (const name of ["product", "frequency", "q"]) expect(refused({ [name]: "cof\u0000fee" })).toMatch(new RegExp(`${name}.*NUL`));
  });

  it("an empty object, and empty strings, mean no filter", () => {
    expect(ok({})).toEqual({});
    expect(ok({ status: "", q: "", plan: "" })).toEqual({});
  });

  it("customer_id takes a bare number and a gid; plan takes a plan or a plan group gid", () => {
    expect(ok({ customer_id: "123" })).toEqual({ customerGid: "gid://shopify/Customer/123" });
    expect(ok({ customer_id: 123 })).toEqual({ customerGid: "gid://shopify/Customer/123" });
    expect(ok({ plan: "gid://shopify/SellingPlanGroup/9" })).toEqual({ sellingPlanGroupGid: "gid://shopify/SellingPlanGroup/9" });
  });

  it("JSON numbers are accepted for amounts", () => {
    expect(ok({ amount_min: 5, amount_max: 12.5 })).toEqual({ amountMin: "5", amountMax: "12.5" });
  });

  it.each([
    [{ colour: "red" }, /Unknown filter "colour"/],
    [{ status: "DONE" }, /status.*"DONE"/],
    [{ status: "FAILED" }, /"FAILED"/],
    [{ plan: "gid://shopify/Product/1" }, /plan "gid:\/\/shopify\/Product\/1"/],
    [{ plan: "7" }, /plan "7"/],
    [{ customer_id: "gid://shopify/Order/1" }, /customer_id "gid:\/\/shopify\/Order\/1"/],
    [{ customer_id: "12a" }, /customer_id "12a"/],
    [{ amount_min: "-1" }, /amount_min "-1"/],
    [{ amount_max: "1e3" }, /amount_max "1e3"/],
    [{ amount_min: "20", amount_max: "10" }, /amount_min "20" is greater than amount_max "10"/],
    [{ next_from: "2026-02-30" }, /next_from "2026-02-30"/],
    [{ next_to: "2026-1-5" }, /next_to "2026-1-5"/],
    [{ next_from: "2026-03-01", next_to: "2026-02-01" }, /next_from "2026-03-01" is after next_to "2026-02-01"/],
    [{ view: "churned" }, /view "churned"/],
    [{ q: "x".repeat(201) }, /q is longer than 200/],
    [{ status: true }, /status/],
  ])("refuses %j naming it", (input, message) => {
    expect(refused(input)).toMatch(message);
  });

  it("parses a page URL's query, leaving the page's own parameters out", () => {
    const params = new URLSearchParams("status=ACTIVE&cursor=abc&q=beans");
    expect(parseSubscriptionFilterQuery(params, ["cursor"])).toEqual({ ok: true, filters: { status: "ACTIVE", q: "beans" } });
    expect(parseSubscriptionFilterQuery(params)).toMatchObject({ ok: false, message: expect.stringMatching(/"cursor"/) });
  });

  it("typed options go back to the same wire form", () => {
    const wire = {
      status: "ACTIVE",
      plan: "gid://shopify/SellingPlanGroup/3",
      customer_id: "gid://shopify/Customer/5",
      product: "Tea",
      frequency: "Every week",
      amount_min: "1.5",
      amount_max: "9",
      next_from: "2026-01-01",
      next_to: "2026-12-31",
      q: "x",
      view: "renewals",
    };
    expect(filtersToQuery(ok(wire))).toEqual(wire);
  });

  it("LIKE patterns take %, _ and \\ literally", () => {
    expect(likePattern("50%_off\\")).toBe("%50\\%\\_off\\\\%");
  });
});
