// Pure pieces of the kernel: digests, cursors, envelopes, request ids, route matching, bodies,
// customer session claims.
import fc from "fast-check";
import { z } from "zod";
import { digestsEqual, hashSecret, MINTABLE_SCOPES, UNBUILT_SCOPES, validateScopes } from "../../../app/domain/keys/keys.server";
import { issueCustomerSession, verifyCustomerSession } from "../../../app/domain/customer/session.server";
import { decodeCursor, encodeCursor } from "../../../app/http/cursor.server";
import { EncodedJson, errorEnvelope } from "../../../app/http/envelope.server";
import { newRequestId, REQUEST_ID_RE } from "../../../app/http/request-id.server";
import { compileRoutes, defineRoute, matchRoute } from "../../../app/http/route";
import { readBody, MAX_BODY_BYTES } from "../../../app/http/body.server";
import { ApiError } from "../../../app/infra/errors";

describe("key hashing", () => {
  it("the hash never equals or contains the secret and depends on salt and server secret", () => {
    const h = hashSecret("salt", "secret-part");
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(h).not.toContain("secret-part");
    expect(hashSecret("salt2", "secret-part")).not.toBe(h);
    expect(hashSecret("salt", "secret-part", "x".repeat(40))).not.toBe(h);
  });
  it("constant-time compare checks length first and never throws", () => {
    expect(digestsEqual("abc", "abc")).toBe(true);
    expect(digestsEqual("abc", "abd")).toBe(false);
    expect(digestsEqual("abc", "abcd")).toBe(false);
    expect(digestsEqual("", "")).toBe(true);
  });
  it("offers the vocabulary minus the five unbuilt write scopes", () => {
    expect(MINTABLE_SCOPES).toHaveLength(12);
    for (const s of UNBUILT_SCOPES) expect(() => validateScopes("SECRET", [s])).toThrow(ApiError);
    expect(validateScopes("SECRET", ["read:plans", "read:plans"])).toEqual(["read:plans"]);
  });
});

describe("cursors", () => {
  const k = { createdAt: new Date("2026-01-02T03:04:05.678Z"), id: "ck_1" };
  it("round-trips and is opaque", () => {
    const c = encodeCursor(k, "subs");
    expect(decodeCursor(c, "subs")).toEqual(k);
    expect(c).not.toContain("ck_1");
  });
  it("any alteration, another list's binding or garbage is invalid_cursor", () => {
    const c = encodeCursor(k, "subs");
    expect(() => decodeCursor(c, "plans")).toThrow(expect.objectContaining({ code: "invalid_cursor" }));
    fc.assert(
      fc.property(fc.nat({ max: c.length - 1 }), fc.constantFrom(..."ABCxyz019-_."), (i, ch) => {
        fc.pre(c[i] !== ch);
        const t = c.slice(0, i) + ch + c.slice(i + 1);
        expect(() => decodeCursor(t, "subs")).toThrow(expect.objectContaining({ code: "invalid_cursor" }));
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), (s) => {
        expect(() => decodeCursor(s, "subs")).toThrow(expect.objectContaining({ code: "invalid_cursor" }));
      }),
    );
  });
});

describe("envelope and request ids", () => {
  it("has exactly code, message, doc_url, request_id", () => {
    const e = errorEnvelope("not_found", "nope", "req_x");
    expect(Object.keys(e.error).sort()).toEqual(["code", "doc_url", "message", "request_id"]);
    expect(e.error.doc_url).toBe(`${process.env.SHOPIFY_APP_URL}/docs/api/errors#not_found`);
  });
  it("an already-encoded body stringifies to its own JSON (what the idempotency layer stores)", () => {
    const text = '{"data":[{"amount":"1.50","title":"caf\u00e9 \\"x\\""}],"next_cursor":null}';
    const body = new EncodedJson(Buffer.from(text));
    expect(JSON.stringify(body)).toBe(JSON.stringify(JSON.parse(text)));
    expect(JSON.parse(JSON.stringify({ body }))).toEqual({ body: JSON.parse(text) });
  });
  it("request ids are req_ + 26 chars and sort by time", () => {
    const a = newRequestId(1_700_000_000_000);
    const b = newRequestId(1_700_000_000_001);
    expect(a).toMatch(REQUEST_ID_RE);
    expect(a < b).toBe(true);
  });
  it("request ids never repeat within a millisecond, across refills of the random pool", () => {
    // 1,000 ids take 16,000 random bytes: the 4 KiB pool is refilled three times.
    const ids = Array.from({ length: 1000 }, () => newRequestId(1_700_000_000_000));
    expect(new Set(ids).size).toBe(1000);
    expect(new Set(ids.map((id) => id.slice(-16))).size).toBe(1000);
  });
});

describe("route matching", () => {
  const table = compileRoutes([
    defineRoute({ method: "GET", path: "/subscriptions/:contract_gid", scopes: [], response: z.null(), summary: "", handler: () => ({ body: null }) }),
    defineRoute({ method: "GET", path: "/exports/:id", scopes: [], response: z.string(), summary: "", handler: () => ({ body: "id" }) }),
    defineRoute({ method: "GET", path: "/exports/datasets", scopes: [], response: z.string(), summary: "", handler: () => ({ body: "datasets" }) }),
  ]);
  it("decodes a percent-encoded gid exactly once", () => {
    const m = matchRoute(table, "GET", "/subscriptions/gid%3A%2F%2Fshopify%2FSubscriptionContract%2F1%2525");
    expect(m).toMatchObject({ kind: "found", params: { contract_gid: "gid://shopify/SubscriptionContract/1%25" } });
  });
  it("prefers the more literal route, 405 lists allowed methods, bare base is 404", () => {
    const m = matchRoute(table, "GET", "/exports/datasets");
    expect(m.kind === "found" && m.route.path).toBe("/exports/datasets");
    expect(matchRoute(table, "POST", "/exports/1")).toEqual({ kind: "method_not_allowed", allowed: ["GET"] });
    expect(matchRoute(table, "GET", "")).toEqual({ kind: "not_found" });
    expect(matchRoute(table, "GET", "/subscriptions//x")).toEqual({ kind: "not_found" });
    expect(matchRoute(table, "GET", "/subscriptions/%E0%A4%A")).toEqual({ kind: "bad_encoding" });
  });
});

describe("bodies", () => {
  const post = (body: BodyInit, type = "application/json", extra: Record<string, string> = {}) =>
    new Request("http://x/", { method: "POST", body, headers: { "Content-Type": type, ...extra } });
  it("parses JSON and tolerates an empty body", async () => {
    expect(await readBody(post('{"a":1}'))).toEqual({ raw: '{"a":1}', json: { a: 1 } });
    expect((await readBody(new Request("http://x/", { method: "POST" }))).json).toBeUndefined();
  });
  it("refuses oversize (by count and by declared length), non-JSON types and bad JSON", async () => {
    await expect(readBody(post("x".repeat(MAX_BODY_BYTES + 1)))).rejects.toMatchObject({ code: "invalid_request" });
    await expect(readBody(post("{}", "application/json", { "Content-Length": String(MAX_BODY_BYTES + 1) }))).rejects.toMatchObject({ code: "invalid_request" });
    await expect(readBody(post("{}", "text/plain"))).rejects.toMatchObject({ code: "invalid_request" });
    await expect(readBody(post("{"))).rejects.toMatchObject({ code: "invalid_request" });
  });
});

describe("customer session claims", () => {
  const secret = "s".repeat(40);
  it("verifies for its own shop and key only, expires after 30 minutes, dies with the secret", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    const s = issueCustomerSession({ shopId: "shop1", customerId: "gid://shopify/Customer/1", keyId: "k1" }, { now, secret });
    expect(s.token).toMatch(/^svc_cst_/);
    expect(verifyCustomerSession(s.token, { shopId: "shop1", keyId: "k1" }, { now, secret })).toMatchObject({
      ok: true,
      customerId: "gid://shopify/Customer/1",
    });
    expect(verifyCustomerSession(s.token, { shopId: "shop2", keyId: "k1" }, { now, secret })).toEqual({ ok: false, reason: "invalid" });
    expect(verifyCustomerSession(s.token, { shopId: "shop1", keyId: "k2" }, { now, secret })).toEqual({ ok: false, reason: "invalid" });
    expect(verifyCustomerSession(s.token, { shopId: "shop1", keyId: "k1" }, { now: new Date(now.getTime() + 1800_000), secret })).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(verifyCustomerSession(s.token, { shopId: "shop1", keyId: "k1" }, { now, secret: "t".repeat(40) })).toEqual({ ok: false, reason: "invalid" });
    expect(verifyCustomerSession(s.token.slice(0, -2) + "AA", { shopId: "shop1", keyId: "k1" }, { now, secret })).toEqual({ ok: false, reason: "invalid" });
  });
});
