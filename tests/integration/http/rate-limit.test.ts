// Token buckets under load (real Redis): a fresh bucket admits exactly its burst, per shop,
// per surface. The clock is frozen so refill cannot blur "exactly".
import { Redis } from "ioredis";
import { ADMIN_SURFACE, CUSTOMER_SURFACE } from "../../../app/surfaces/config";
import { bucketKey, takeToken, resetLocalBuckets, ADMIN_BUCKET } from "../../../app/http/rate-limit.server";
import { principalFor, readyRedis, req, testSurface, keyFor, envelopeOf } from "./helpers";
import { issueCustomerSession } from "../../../app/domain/customer/session.server";

describe("rate limits", () => {
  it("500 parallel requests from one shop admit exactly the burst (120); the rest get 429 + Retry-After", async () => {
    await readyRedis();
    const now = Date.now();
    // Redis counts every one of the 500, however loaded the machine: on a busy one, a burst of 500
    // took longer than the limiter's 500 ms wait for Redis, and the late answers came from the
    // in-process fallback (tested on its own below).
    const surface = testSurface(ADMIN_SURFACE, { now: () => now, rateLimitTimeoutMs: 30_000 });
    const { shop, creds } = await principalFor(ADMIN_SURFACE);
    const responses = await Promise.all(Array.from({ length: 500 }, () => surface.handle(req(ADMIN_SURFACE, "GET", "/things/x", creds))));
    const ok = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    expect(ok.length).toBe(120);
    expect(limited.length).toBe(380);
    for (const r of limited) {
      expect(Number(r.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
      expect((await envelopeOf(r)).code).toBe("rate_limited");
    }
    const remaining = ok.map((r) => Number(r.headers.get("X-Service-RateLimit-Remaining"))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 120 }, (_, i) => i)); // every token handed out once
    // It really was Redis (not the in-process fallback) that counted.
    expect(await (await readyRedis()).hget(bucketKey(ADMIN_BUCKET, shop.id), "tokens")).toBe("0");

    // Another shop has its own bucket.
    const b = await principalFor(ADMIN_SURFACE);
    expect((await surface.handle(req(ADMIN_SURFACE, "GET", "/things/x", b.creds))).status).toBe(200);

    // The same shop's Customer bucket is separate from its Admin bucket.
    const pk = await keyFor(shop.id, "PUBLISHABLE");
    const session = issueCustomerSession({ shopId: shop.id, customerId: "gid://shopify/Customer/9", keyId: pk.id }).token;
    const customer = testSurface(CUSTOMER_SURFACE, { now: () => now });
    const res = await customer.handle(req(CUSTOMER_SURFACE, "GET", "/things/x", { token: pk.key, session }));
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Service-RateLimit-Remaining")).toBe("179");
  });

  it("refills at the sustained rate (60/min = one token per second)", async () => {
    await readyRedis();
    const { shop } = await principalFor(ADMIN_SURFACE);
    const t0 = Date.now();
    for (let i = 0; i < 120; i++) expect((await takeToken(ADMIN_BUCKET, shop.id, { now: t0 })).allowed).toBe(true);
    const refused = await takeToken(ADMIN_BUCKET, shop.id, { now: t0 });
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    expect((await takeToken(ADMIN_BUCKET, shop.id, { now: t0 + 1000 })).allowed).toBe(true);
    expect((await takeToken(ADMIN_BUCKET, shop.id, { now: t0 + 1000 })).allowed).toBe(false);
    const later = await takeToken(ADMIN_BUCKET, shop.id, { now: t0 + 10_000 });
    expect(later).toMatchObject({ allowed: true, remaining: 8, degraded: false });
  });

  it("Redis down: fails open to an in-process bucket with the same parameters", async () => {
    resetLocalBuckets();
    const dead = new Redis("redis://127.0.0.1:1", { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    dead.on("error", () => undefined);
    const t0 = Date.now();
    const results = [];
    for (let i = 0; i < 121; i++) results.push(await takeToken(ADMIN_BUCKET, "shop-redis-down", { now: t0, client: dead, timeoutMs: 50 }));
    expect(results.every((r) => r.degraded)).toBe(true);
    expect(results.filter((r) => r.allowed).length).toBe(120);
    expect(results[120]).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    dead.disconnect();
  });
});
