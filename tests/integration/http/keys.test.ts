// API keys against the real database: minting, hashing, listing, revocation, expiry.
import { prisma } from "../../../app/db.server";
import { authenticateKey, hashSecret, listKeys, mintKey, revokeKey, revokeAllKeys } from "../../../app/domain/keys/keys.server";
import { createShop } from "../../support/fixtures";

describe("API keys", () => {
  it("stores only a salted HMAC, never the key, and authenticates the key", async () => {
    const shop = await createShop();
    const { id, key } = await mintKey({ shopId: shop.id, name: "ci", scopes: ["read:subscriptions"], kind: "SECRET" });
    expect(key).toMatch(new RegExp(`^svc_sk_${id}_[A-Za-z0-9_-]{43}$`));
    const row = await prisma.apiKey.findUniqueOrThrow({ where: { id } });
    const secret = key.slice(`svc_sk_${id}_`.length);
    expect(row.secretHash).not.toBe(key);
    expect(row.secretHash).not.toContain(secret);
    expect(row.secretHash).toBe(hashSecret(row.salt, secret));
    expect(JSON.stringify(row)).not.toContain(secret);
    const ok = await authenticateKey(key, { kind: "SECRET" });
    expect(ok).toMatchObject({ ok: true, key: { id, kind: "SECRET", scopes: ["read:subscriptions"] }, shop: { id: shop.id, domain: shop.domain } });
    expect(await authenticateKey(key, { kind: "PUBLISHABLE" })).toEqual({ ok: false, reason: "invalid" });
  });

  it("refuses unknown and unbuilt scopes, never defaults write:subscriptions, limits publishable keys to catalogue reads, wants a scope on a secret key", async () => {
    const shop = await createShop();
    await expect(mintKey({ shopId: shop.id, name: "x", scopes: ["read:everything"], kind: "SECRET" })).rejects.toMatchObject({ code: "invalid_request" });
    await expect(mintKey({ shopId: shop.id, name: "x", scopes: ["write:plans"], kind: "SECRET" })).rejects.toMatchObject({ code: "invalid_request" });
    await expect(mintKey({ shopId: shop.id, name: "x", scopes: ["read:customers"], kind: "PUBLISHABLE" })).rejects.toMatchObject({ code: "invalid_request" });
    await expect(mintKey({ shopId: shop.id, name: "x", scopes: [], kind: "SECRET" })).rejects.toMatchObject({
      code: "invalid_request",
      message: expect.stringContaining("at least one scope"),
    });
    const { id } = await mintKey({ shopId: shop.id, name: "x", scopes: ["read:subscriptions"], kind: "SECRET" });
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id } })).scopes).toEqual(["read:subscriptions"]);
    const publishable = await mintKey({ shopId: shop.id, name: "portal", scopes: [], kind: "PUBLISHABLE" });
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: publishable.id } })).scopes).toEqual([]);
  });

  it("lists without hashes, revokes immediately, expires", async () => {
    const shop = await createShop();
    const a = await mintKey({ shopId: shop.id, name: "a", scopes: ["read:plans"], kind: "SECRET" });
    const b = await mintKey({ shopId: shop.id, name: "b", scopes: ["read:plans"], kind: "PUBLISHABLE", expiresAt: new Date(Date.now() + 60_000) });
    const list = await listKeys(shop.id);
    expect(list.map((k) => k.id).sort()).toEqual([a.id, b.id].sort());
    for (const k of list) {
      expect(k).not.toHaveProperty("secretHash");
      expect(k).not.toHaveProperty("salt");
      expect(k.hint).toMatch(/^svc_(sk|pk)_[0-9a-f]{24}_…$/);
    }
    expect(await revokeKey(a.id, { shopId: "another-shop" })).toBe(false);
    expect(await revokeKey(a.id)).toBe(true);
    expect(await authenticateKey(a.key)).toEqual({ ok: false, reason: "revoked" });
    expect(await authenticateKey(b.key, { now: new Date(Date.now() + 120_000) })).toEqual({ ok: false, reason: "expired" });
    expect((await authenticateKey(b.key)).ok).toBe(true);
    await expect(mintKey({ shopId: shop.id, name: "c", scopes: ["read:plans"], kind: "SECRET", expiresAt: new Date(Date.now() - 1) })).rejects.toMatchObject({
      code: "invalid_request",
    });
    expect(await revokeAllKeys(shop.id)).toBe(1);
    expect(await authenticateKey(b.key)).toEqual({ ok: false, reason: "revoked" });
  });

  it("rotating SERVICE_SECRET invalidates every key", async () => {
    const shop = await createShop();
    const { id, key } = await mintKey({ shopId: shop.id, name: "a", scopes: ["read:plans"], kind: "SECRET" });
    const row = await prisma.apiKey.findUniqueOrThrow({ where: { id } });
    const secret = key.slice(`svc_sk_${id}_`.length);
    expect(hashSecret(row.salt, secret, "another-service-secret-0123456789abcdef")).not.toBe(row.secretHash);
  });
});
