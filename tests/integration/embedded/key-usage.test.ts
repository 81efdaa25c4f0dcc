// The per-key usage counter the API keys page shows (decision 060): the kernel counts every
// answer to an authenticated key by outcome; 30 UTC days are summed; keys do not mix.
import { keyUsage, recordKeyUsage } from "../../../app/domain/keys/usage.server";
import { Redis } from "ioredis";
import { redis } from "../../../app/infra/redis.server";
import { api } from "../../support/admin-factories";
import { createKey, createShop } from "../../support/fixtures";

const keyId = (key: string) => key.split("_")[2];

describe("key usage", () => {
  it("counts requests, 4xx, 5xx and 429 per key from what the kernel answers", async () => {
    const shop = await createShop();
    const key = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:subscriptions"] })).key;
    const other = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:subscriptions"] })).key;
    expect((await api(key, "GET", "/subscriptions")).status).toBe(200);
    expect((await api(key, "GET", "/plans")).status).toBe(403);
    expect((await api(key, "GET", "/subscriptions?status=NOPE")).status).toBe(400);
    expect((await api(other, "GET", "/subscriptions")).status).toBe(200);
    await expect.poll(async () => (await keyUsage([keyId(key)])).get(keyId(key))).toEqual({ requests: 3, client_errors: 2, server_errors: 0, rate_limited: 0 });
    expect((await keyUsage([keyId(other)])).get(keyId(other))).toEqual({ requests: 1, client_errors: 0, server_errors: 0, rate_limited: 0 });
  });

  it("sums the last 30 days and leaves older days out", async () => {
    const id = `usage${Date.now()}`;
    const now = new Date();
    const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000);
    await recordKeyUsage(id, 500, { now });
    await recordKeyUsage(id, 429, { now: daysAgo(29) });
    await recordKeyUsage(id, 200, { now: daysAgo(30) }); // outside the window
    expect((await keyUsage([id], { now })).get(id)).toEqual({ requests: 2, client_errors: 1, server_errors: 1, rate_limited: 1 });
    expect(await redis().ttl(`${process.env.REDIS_PREFIX}:usage:${id}:${now.toISOString().slice(0, 10)}`)).toBeGreaterThan(30 * 86_400);
  });

  it("says a key's usage is unavailable (null), not zero, when Redis cannot be read", async () => {
    const down = new Redis({ port: 1, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    down.on("error", () => undefined);
    expect((await keyUsage(["any-key"], { client: down })).get("any-key")).toBeNull();
  });
});
