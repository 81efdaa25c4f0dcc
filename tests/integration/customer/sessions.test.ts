// Customer API sessions, CORS and the per-shop bucket over real HTTP. A session is a stateless
// signed claim (app/domain/customer/session.server.ts): tampered, expired, cross-shop,
// revoked-key and rotated-secret sessions are refused, and one token works on any web process.
import { issueCustomerSession } from "../../../app/domain/customer/session.server";
import { revokeKey } from "../../../app/domain/keys/keys.server";
import { startStack, type Stack } from "../../support/stack";
import { startWebProcess } from "../../support/processes";
import { customerToken, seedCustomerShop, type CustomerShop } from "../../support/customer-factories";
import { client, type Json } from "./helpers";
import { createKey } from "../../support/fixtures";

const ORIGIN = "https://portal.example";
let stack: Stack;
let s: CustomerShop;
let other: CustomerShop;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  stack = await startStack({ workers: false });
  s = await seedCustomerShop(stack.control, stack.installShop, { origins: [ORIGIN] });
  other = await seedCustomerShop(stack.control, stack.installShop);
  api = client(stack, () => s);
}, 90_000);
afterAll(async () => {
  await stack?.close();
});

const expectRefused = (res: { status: number; body: Json }, code: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(401);
  expect(res.body.error.code).toBe(code);
};

describe("POST /session", () => {
  it("issues a 30-minute svc_cst_ session for the token's customer", async () => {
    const token = await customerToken(stack.control, s.domain, s.customers.a);
    const res = await api.call("POST", "/session", { body: { customer_access_token: token } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ customer_id: s.customers.a, expires_in: 1800, session_header: "X-Service-Session" });
    expect(res.body.session_token).toMatch(/^svc_cst_/);
  });

  it("refuses an expired, an unknown and another shop's customer token with the same 401", async () => {
    const expired = await customerToken(stack.control, s.domain, s.customers.a, 1);
    await new Promise((r) => setTimeout(r, 1_200));
    const foreign = await customerToken(stack.control, other.domain, other.customers.a);
    const answers = [];
    for (const token of [expired, "not-a-token", foreign]) {
      const res = await api.call("POST", "/session", { body: { customer_access_token: token } });
      expectRefused(res, "invalid_credential");
      answers.push(res.body.error.message);
    }
    expect(new Set(answers).size).toBe(1);
  });
});

describe("presented sessions", () => {
  it("a session without the publishable key, or the key without a session, is refused", async () => {
    const session = await api.sessionFor(s.customers.a);
    expectRefused(await api.call("GET", "/subscriptions", { key: null, session }), "missing_credential");
    expectRefused(await api.call("GET", "/subscriptions", {}), "missing_credential");
  });

  it("a tampered session is 401 invalid_credential (the claim and the signature)", async () => {
    const session = await api.sessionFor(s.customers.a);
    const [payload, mac] = session.slice("svc_cst_".length).split(".");
    const claim = JSON.parse(Buffer.from(payload, "base64url").toString());
    const swapped = Buffer.from(JSON.stringify({ ...claim, c: s.customers.b })).toString("base64url");
    expectRefused(await api.call("GET", "/subscriptions", { session: `svc_cst_${swapped}.${mac}` }), "invalid_credential");
    const flipped = mac.slice(0, -1) + (mac.endsWith("A") ? "B" : "A");
    expectRefused(await api.call("GET", "/subscriptions", { session: `svc_cst_${payload}.${flipped}` }), "invalid_credential");
  });

  it("an expired session is 401 credential_expired", async () => {
    const old = issueCustomerSession({ shopId: s.shopId, customerId: s.customers.a, keyId: s.keyId }, { now: new Date(Date.now() - 31 * 60_000) });
    expectRefused(await api.call("GET", "/subscriptions", { session: old.token }), "credential_expired");
  });

  it("a session from another shop is refused with this shop's key, and this shop's session with the other's key", async () => {
    const foreign = await client(stack, () => other).sessionFor(other.customers.a);
    expectRefused(await api.call("GET", "/subscriptions", { session: foreign }), "invalid_credential");
    const mine = await api.sessionFor(s.customers.a);
    expectRefused(await api.call("GET", "/subscriptions", { key: other.publishableKey, session: mine }), "invalid_credential");
  });

  it("revoking the publishable key ends every session minted under it", async () => {
    const { key, id } = await createKey({ shopId: s.shopId, name: "to revoke", scopes: [], kind: "PUBLISHABLE" });
    const token = await customerToken(stack.control, s.domain, s.customers.a);
    const session = (await api.call("POST", "/session", { key, body: { customer_access_token: token } })).body.session_token as string;
    expect((await api.call("GET", "/subscriptions", { key, session })).status).toBe(200);
    await revokeKey(id);
    expectRefused(await api.call("GET", "/subscriptions", { key, session }), "credential_revoked");
    // Another key of the same shop does not adopt the session either.
    expectRefused(await api.call("GET", "/subscriptions", { session }), "invalid_credential");
  });

  it("a session signed with another server secret (before a rotation) is refused", async () => {
    const rotated = issueCustomerSession({ shopId: s.shopId, customerId: s.customers.a, keyId: s.keyId }, { secret: "the-secret-before-rotation-0123456789" });
    expectRefused(await api.call("GET", "/subscriptions", { session: rotated.token }), "invalid_credential");
  });

  it("one token works across two web processes, and a process on a rotated secret refuses it", async () => {
    const session = await api.sessionFor(s.customers.a);
    const mine = await api.call("GET", "/subscriptions", { session });
    const port = Number(process.env.PORT) + 60;
    let web = await startWebProcess(port, { LOG_LEVEL: "warn" });
    try {
      const there = await api.call("GET", "/subscriptions", { session, baseUrl: web.url });
      expect(there.status).toBe(200);
      expect(there.body).toEqual(mine.body);
    } finally {
      await web.stop();
    }
    web = await startWebProcess(port, { LOG_LEVEL: "warn", SERVICE_SECRET: "rotated-service-secret-0123456789abcdef" });
    try {
      const res = await api.call("GET", "/subscriptions", { session, baseUrl: web.url });
      expect(res.status).toBe(401);
    } finally {
      await web.stop();
    }
  }, 120_000);
});

describe("CORS, cache and the bucket", () => {
  it("an allowlisted origin reads answers and errors alike; a foreign origin is 401 invalid_credential without CORS headers", async () => {
    const session = await api.sessionFor(s.customers.a);
    const ok = await api.call("GET", "/subscriptions", { session, origin: ORIGIN });
    expect(ok.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    const err = await api.call("GET", "/subscriptions/gid%3A%2F%2Fshopify%2FSubscriptionContract%2F1/box", { session, origin: ORIGIN });
    expect(err.status).toBe(404);
    expect(err.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(err.headers.get("x-service-ratelimit-limit")).toBeTruthy();
    const evil = await api.call("GET", "/subscriptions", { session, origin: "https://evil.example" });
    expect(evil.status).toBe(401);
    expect(evil.body).toMatchObject({ error: { code: "invalid_credential" } });
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("answers a preflight for the portal's write with the session header allowed", async () => {
    const res = await fetch(`${stack.appUrl}/api/customer/v1/subscriptions/x/reschedule`, {
      method: "OPTIONS",
      headers: { Origin: ORIGIN, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, x-service-session, content-type" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-headers")).toContain("X-Service-Session");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("has its own per-shop bucket: burst 180 then 429 with Retry-After and CORS; the Admin bucket is untouched", async () => {
    const shop = await seedCustomerShop(stack.control, stack.installShop, { origins: [ORIGIN] });
    const mine = client(stack, () => shop);
    const session = await mine.sessionFor(shop.customers.a); // one token spent here
    let first429 = -1;
    let limited: Awaited<ReturnType<typeof mine.call>> | undefined;
    for (let i = 1; i <= 400 && first429 < 0; i++) {
      const res = await mine.call("GET", "/config", { session, origin: ORIGIN });
      if (res.status === 429) {
        first429 = i;
        limited = res;
      }
    }
    // 180 tokens, one spent on the session, plus the refill (2 a second) during the loop.
    expect(first429).toBeGreaterThanOrEqual(180);
    expect(first429, "no 429 within 400 requests").toBeGreaterThan(0); // refill is 2/s: a slow loop admits a few more
    expect(limited!.body.error.code).toBe("rate_limited");
    expect(limited!.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(limited!.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(limited!.headers.get("x-service-ratelimit-limit")).toBe("180");
    expect(limited!.headers.get("ratelimit-policy")).toMatch(/q=180;w=90$/); // 180 tokens refilled at 120 a minute
    const { key } = await createKey({ shopId: shop.shopId, name: "admin", scopes: ["read:subscriptions"], kind: "SECRET" });
    const admin = await fetch(`${stack.appUrl}/api/admin/v1/subscriptions`, { headers: { Authorization: `Bearer ${key}` } });
    expect(admin.status).toBe(200);
  }, 60_000);
});
