// The simulator rounds prices with its own code (simulator/decimal.ts), apart from the app's money
// module; the two must agree on every amount Shopify would accept (docs/decisions/092-rooms-and-layers.md).
import fc from "fast-check";
import { normalizeDecimal as appNormalize } from "../../../app/domain/shared/money.server";
import { normalizeDecimal } from "../../../simulator/decimal";

describe("the simulator's decimal rounding", () => {
  it("keeps a price to its currency's precision: none in JPY, three in KWD, two in USD", () => {
    expect(normalizeDecimal("1500.0", "JPY")).toBe("1500");
    expect(normalizeDecimal("1500.5", "JPY")).toBe("1501");
    expect(normalizeDecimal("1.2345", "KWD")).toBe("1.235");
    expect(normalizeDecimal(12.5, "USD")).toBe("12.50");
    expect(normalizeDecimal(".5", "usd")).toBe("0.50");
    expect(normalizeDecimal("-0.001", "USD")).toBe("0.00");
    expect(normalizeDecimal("-2.005", "EUR")).toBe("-2.01");
    for (const bad of ["", ".", "-", "1e3", "abc", "1.2.3"]) expect(() => normalizeDecimal(bad, "USD")).toThrow();
    expect(() => normalizeDecimal(Number.NaN, "USD")).toThrow();
  });

  it("agrees with the app's conversion on any decimal, in any precision", () => {
    const currency = fc.constantFrom("USD", "EUR", "JPY", "KRW", "KWD", "BHD", "CLP");
    const text = fc
      .tuple(fc.constantFrom("", "-", "+"), fc.stringMatching(/^\d{0,9}$/), fc.option(fc.stringMatching(/^\d{0,6}$/)))
      .map(([sign, int, frac]) => `${sign}${int}${frac === null ? "" : `.${frac}`}`);
    const outcome = (f: () => string) => {
      try {
        return f();
      } catch {
        return "refused";
      }
    };
    fc.assert(
      fc.property(fc.oneof(text, fc.double({ min: -1e9, max: 1e9, noNaN: true })), currency, (amount, code) => {
        expect(outcome(() => normalizeDecimal(amount, code))).toBe(outcome(() => appNormalize(amount, code)));
      }),
      { numRuns: 2000 },
    );
  });
});
