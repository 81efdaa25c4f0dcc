import fc from "fast-check";
import { ApiError } from "../../../app/infra/errors";
import { parseIsoTimestamp } from "../../../app/surfaces/fields";
import { rangeQuery, readQuery, subscriptionListQuery } from "../../../app/surfaces/read-queries";
import { formatMinor, normalizeDecimal, parseDecimalToMinor } from "../../../app/domain/shared/money.server";
import { canonicalJson, requestHash } from "../../../app/http/idempotency.server";
import { checkRescheduleDate } from "../../../app/domain/subscriptions/writes.server";
import { adminRoutes } from "../../../app/surfaces/admin/routes";
import { clampLimit } from "../../../app/domain/shared/paging.server";

describe("ISO 8601 timestamps", () => {
  it.each([
    ["2025-01-31T10:00:00Z", "2025-01-31T10:00:00.000Z"],
    ["2025-01-31T10:00:00.123+02:00", "2025-01-31T08:00:00.123Z"],
    ["2025-01-31T10:00Z", "2025-01-31T10:00:00.000Z"],
    ["2025-01-31", "2025-01-31T00:00:00.000Z"],
    ["2024-02-29T00:00:00Z", "2024-02-29T00:00:00.000Z"],
  ])("accepts %s", (text, iso) => expect(parseIsoTimestamp(text)!.toISOString()).toBe(iso));

  it.each(["", "yesterday", "2025-02-29", "2025-13-01", "2025-01-31T10:00:00", "2025-01-31T25:00:00Z", "1700000000", "2025/01/31"])("refuses %s", (text) =>
    expect(parseIsoTimestamp(text)).toBeNull(),
  );
});

describe("enum parameters", () => {
  it("matches case-insensitively, defaults, and names an unknown value", () => {
    expect(readQuery(subscriptionListQuery, { status: "paused" }).status).toBe("PAUSED");
    expect(readQuery(rangeQuery, {})).toBe("30d");
    expect(readQuery(rangeQuery, { range: "" })).toBe("30d");
    expect(() => readQuery(subscriptionListQuery, { status: "nope" })).toThrow('Unknown status "nope": expected one of ACTIVE, PAUSED, CANCELLED, EXPIRED');
  });
});

describe("limit", () => {
  it("defaults to 50, clamps to 250, refuses non-integers", () => {
    expect(clampLimit(undefined)).toBe(50);
    expect(clampLimit("1000")).toBe(250);
    expect(clampLimit("1")).toBe(1);
    expect(() => clampLimit("0")).toThrow(ApiError);
    expect(() => clampLimit("abc")).toThrow(ApiError);
  });
});

describe("money", () => {
  it("formats minor units exactly, per currency exponent", () => {
    expect(formatMinor(1999, "USD")).toBe("19.99");
    expect(formatMinor(5, "USD")).toBe("0.05");
    expect(formatMinor(-150, "EUR")).toBe("-1.50");
    expect(formatMinor(1500, "JPY")).toBe("1500");
    expect(formatMinor(1500, "KWD")).toBe("1.500");
    expect(formatMinor(9_007_199_254_740_993n, "USD")).toBe("90071992547409.93");
  });
  it("property: decimal -> minor -> decimal round-trips in every exponent", () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), fc.constantFrom("USD", "JPY", "KWD", "EUR", "BHD", "KRW"), (n, currency) => {
        expect(parseDecimalToMinor(formatMinor(n, currency), currency)).toBe(n);
      }),
    );
  });
  it("parses the platform's decimals in the currency's own exponent (JPY 0, KWD 3, USD 2)", () => {
    expect(parseDecimalToMinor("1500", "JPY")).toBe(1500);
    expect(parseDecimalToMinor("1500.0", "JPY")).toBe(1500);
    expect(parseDecimalToMinor("12.345", "KWD")).toBe(12345);
    expect(parseDecimalToMinor("1.5", "KWD")).toBe(1500);
    expect(parseDecimalToMinor("18.5", "USD")).toBe(1850);
    expect(parseDecimalToMinor("0.07", "usd")).toBe(7);
    expect(parseDecimalToMinor(19.99, "USD")).toBe(1999); // a float the platform sent as a number
    expect(parseDecimalToMinor(0.1 + 0.2, "USD")).toBe(30);
    expect(parseDecimalToMinor("-2.50", "EUR")).toBe(-250);
  });
  it("rounds digits past the exponent half away from zero, exactly", () => {
    expect(parseDecimalToMinor("1.005", "USD")).toBe(101); // Math.round(1.005 * 100) is 100
    expect(parseDecimalToMinor("1.0049", "USD")).toBe(100);
    expect(parseDecimalToMinor("1499.5", "JPY")).toBe(1500);
    expect(parseDecimalToMinor("-1.005", "USD")).toBe(-101);
    expect(parseDecimalToMinor("0.0004", "KWD")).toBe(0);
  });
  it("refuses what is not a decimal", () => {
    for (const bad of ["", "abc", "1,50", "1e3", "1.2.3", "--1"]) expect(() => parseDecimalToMinor(bad, "USD")).toThrow();
    expect(() => parseDecimalToMinor(Number.NaN, "USD")).toThrow();
  });
  it("normalises a decimal to the currency's precision", () => {
    expect(normalizeDecimal("1500.0", "JPY")).toBe("1500");
    expect(normalizeDecimal("1.2345", "KWD")).toBe("1.235");
    expect(normalizeDecimal(12.5, "USD")).toBe("12.50");
  });
});

describe("idempotency request hash", () => {
  it("property: key order never changes the canonical form", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (obj) => {
        const reversed = Object.fromEntries(Object.entries(obj).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(obj));
        expect(JSON.parse(canonicalJson(obj))).toEqual(JSON.parse(JSON.stringify(obj)));
      }),
    );
  });
  it("separates method, path and body", () => {
    const h = requestHash("POST", "/api/admin/v1/subscriptions/x/pause", "");
    expect(requestHash("post", "/api/admin/v1/subscriptions/x/pause", "")).toBe(h);
    expect(requestHash("POST", "/api/admin/v1/subscriptions/x/cancel", "")).not.toBe(h);
    expect(requestHash("POST", "/api/admin/v1/subscriptions/gid%3A%2F%2Fshopify%2FSubscriptionContract%2F1/pause", "")).toBe(
      requestHash("POST", "/api/admin/v1/subscriptions/gid://shopify/SubscriptionContract/1/pause", ""),
    );
    expect(requestHash("PATCH", "/p", '{"a":1,"b":{"d":2,"c":3}}')).toBe(requestHash("PATCH", "/p", '{"b":{"c":3,"d":2},"a":1}'));
    expect(requestHash("PATCH", "/p", '{"a":1}')).not.toBe(requestHash("PATCH", "/p", '{"a":2}'));
  });
});

describe("write bodies (the route entries' zod schemas) and the reschedule window (the domain)", () => {
  const bodyOf = (method: string, path: string) => {
    const schema = adminRoutes.find((r) => r.method === method && r.path === path)?.body;
    if (!schema) throw new Error(`no body schema on ${method} ${path}`);
    return schema;
  };
  const reschedule = bodyOf("POST", "/subscriptions/:contract_gid/reschedule");
  const lineEdit = bodyOf("PATCH", "/subscriptions/:contract_gid/lines/:line_gid");
  const now = new Date("2026-01-01T00:00:00Z");

  it("reschedule takes an ISO 8601 timestamp and hands the domain a Date", () => {
    expect(reschedule.parse({ next_billing_at: "2026-02-01T00:00:00+01:00" })).toEqual({ next_billing_at: new Date("2026-01-31T23:00:00Z") });
    for (const v of [undefined, null, 5, "tomorrow", "2026-02-01T00:00:00"]) {
      expect(reschedule.safeParse({ next_billing_at: v }).success, String(v)).toBe(false);
    }
    expect(reschedule.safeParse({ next_billing_at: "2026-02-01T00:00:00Z", extra: 1 }).success).toBe(false);
  });
  it("the reschedule date must be in the future and within five years", () => {
    expect(() => checkRescheduleDate(new Date("2026-02-01T00:00:00Z"), now)).not.toThrow();
    expect(() => checkRescheduleDate(new Date("2031-01-01T00:00:00Z"), now)).not.toThrow();
    for (const v of ["2025-12-31T23:59:59Z", "2026-01-01T00:00:00Z", "2031-01-01T00:00:01Z"]) {
      expect(() => checkRescheduleDate(new Date(v), now), v).toThrow(ApiError);
    }
  });
  it("line change needs quantity >= 1 and/or a variant gid, nothing else", () => {
    expect(lineEdit.parse({ quantity: 2 })).toEqual({ quantity: 2 });
    expect(lineEdit.parse({ variant_id: "gid://shopify/ProductVariant/9", quantity: null })).toEqual({
      variant_id: "gid://shopify/ProductVariant/9",
      quantity: null,
    });
    for (const b of [
      {},
      null,
      [],
      { quantity: 0 },
      { quantity: 1.5 },
      { quantity: "2" },
      { variant_id: "9" },
      { quantity: 1, price: 3 },
      { quantity: null, variant_id: null },
    ]) {
      expect(lineEdit.safeParse(b).success, JSON.stringify(b)).toBe(false);
    }
  });
});
