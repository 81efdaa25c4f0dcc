import { describe, expect, it } from "vitest";
import { fromUserErrors, PlatformError, toApiErrorCode, assertNoUserErrors } from "../../../app/platform/errors";

describe("PlatformError mapping from userErrors", () => {
  it("a userError naming a field is invalid_request, keeping field and code", () => {
    const err = fromUserErrors([{ field: ["date"], message: "Next billing date must be in the future", code: "INVALID_DATE" }]);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe("invalid_request");
    expect(err.field).toEqual(["date"]);
    expect(err.code).toBe("INVALID_DATE");
  });

  it("a userError without field (null or empty) is state_conflict", () => {
    expect(fromUserErrors([{ field: null, message: "terminated", code: "CONTRACT_TERMINATED" }]).kind).toBe("state_conflict");
    expect(fromUserErrors([{ field: [], message: "terminated" }]).kind).toBe("state_conflict");
  });

  it("joins every message so none is thrown away", () => {
    const err = fromUserErrors([
      { field: ["a"], message: "first" },
      { field: null, message: "second" },
    ]);
    expect(err.message).toBe("first; second");
    expect(err.kind).toBe("invalid_request");
  });

  it("assertNoUserErrors passes on an empty list and throws otherwise", () => {
    expect(() => assertNoUserErrors([])).not.toThrow();
    expect(() => assertNoUserErrors(null)).not.toThrow();
    expect(() => assertNoUserErrors([{ field: null, message: "x" }])).toThrow(PlatformError);
  });

  it("maps each kind to an API error code of app/infra/errors.ts", () => {
    expect(toApiErrorCode(new PlatformError("invalid_request", "x"))).toBe("invalid_request");
    expect(toApiErrorCode(new PlatformError("state_conflict", "x"))).toBe("state_conflict");
    expect(toApiErrorCode(new PlatformError("shop_unavailable", "x"))).toBe("shop_unavailable");
    expect(toApiErrorCode(new PlatformError("unavailable", "x"))).toBe("internal_error");
  });
});
