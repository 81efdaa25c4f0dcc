// Shopify access tokens are sealed at rest with ENCRYPTION_KEY (decision 038):
// a copy of the database holds no usable token, while the app still reaches the platform.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { Session } from "@shopify/shopify-api";
import { prisma } from "../../../app/db.server";
import { env } from "../../../app/env.server";
import { platformFor } from "../../../app/platform/index.server";
import { currentKeyId, sealedKeyId } from "../../../app/infra/secret-box.server";
import { openSessionToken } from "../../../app/shopify/session-tokens.server";
import { sessionStorage } from "../../../app/shopify.server";
import { useStack } from "../../support/stack";

const stack = useStack({ workers: false });

const rowOf = (domain: string) => prisma.session.findUniqueOrThrow({ where: { id: `offline_${domain}` } });

it("an installed shop's token is not in the database in clear, and the platform adapter still uses it", async () => {
  const domain = `t-${randomUUID().slice(0, 12)}.myshopify.com`;
  const installed = await stack.control.installShop({ shop: domain });
  const { recordInstallation } = await import("../../../app/domain/shop/lifecycle.server");
  await recordInstallation(domain, installed.accessToken, installed.scope);

  const row = await rowOf(domain);
  expect(row.accessToken).not.toContain(installed.accessToken);
  expect(row.accessToken).toMatch(/^enc:v1:/);
  // The whole row, as a dump would show it.
  expect(JSON.stringify(row, (_, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain(installed.accessToken);
  // A platform call authenticates with the opened token (the simulator checks it).
  await expect((await platformFor(domain)).getShop()).resolves.toBeTruthy();
});

it("the Shopify library's session storage seals on store and opens on load", async () => {
  const domain = `t-${randomUUID().slice(0, 12)}.myshopify.com`;
  const token = `shpat_${randomUUID().replace(/-/g, "")}`;
  const session = new Session({ id: `offline_${domain}`, shop: domain, state: "", isOnline: false, scope: "read_products", accessToken: token });
  expect(await sessionStorage.storeSession(session)).toBe(true);
  const row = await rowOf(domain);
  expect(row.accessToken).toMatch(/^enc:v1:/);
  expect(row.accessToken).not.toContain(token);
  expect((await sessionStorage.loadSession(session.id))?.accessToken).toBe(token);
  expect((await sessionStorage.findSessionsByShop(domain)).map((s) => s.accessToken)).toEqual([token]);
});

it("a sealed token moved to another session row does not open", async () => {
  const a = `t-${randomUUID().slice(0, 12)}.myshopify.com`;
  const b = `t-${randomUUID().slice(0, 12)}.myshopify.com`;
  for (const shop of [a, b]) {
    await sessionStorage.storeSession(new Session({ id: `offline_${shop}`, shop, state: "", isOnline: false, accessToken: `shpat_${shop}` }));
  }
  const stolen = (await rowOf(a)).accessToken;
  expect(() => openSessionToken(`offline_${b}`, stolen)).toThrow(/does not open/);
});

/** `npm run cli -- sessions reseal` as a real process, with the given keys. */
function reseal(keys: { ENCRYPTION_KEY: string; ENCRYPTION_KEYS_PREVIOUS: string }): { resealed: number; total: number } {
  const out = execFileSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", "sessions", "reseal"], {
    env: { ...process.env, ...keys },
    encoding: "utf8",
  });
  return JSON.parse(out);
}

it("key rotation: the old key still opens during the rotation, `sessions reseal` moves every row to the new key", async () => {
  const domain = `t-${randomUUID().slice(0, 12)}.myshopify.com`;
  const token = `shpat_${randomUUID().replace(/-/g, "")}`;
  const legacy = `t-${randomUUID().slice(0, 12)}.myshopify.com`;
  await sessionStorage.storeSession(new Session({ id: `offline_${domain}`, shop: domain, state: "", isOnline: false, accessToken: token }));
  // A row written before encryption existed, in clear: the reseal seals it too.
  await prisma.session.create({ data: { id: `offline_${legacy}`, shop: legacy, state: "", isOnline: false, accessToken: "shpat_legacy" } });
  const oldKey = env().ENCRYPTION_KEY;
  const newKey = "ff".repeat(32);
  const oldId = currentKeyId();
  try {
    const first = reseal({ ENCRYPTION_KEY: newKey, ENCRYPTION_KEYS_PREVIOUS: oldKey });
    expect(first.resealed).toBe(first.total);
    for (const d of [domain, legacy]) {
      const sealed = (await rowOf(d)).accessToken;
      expect(sealedKeyId(sealed)).not.toBe(oldId);
      // This process still has only the old key: the row no longer opens with it.
      expect(() => openSessionToken(`offline_${d}`, sealed)).toThrow(/neither ENCRYPTION_KEY/);
    }
    expect(reseal({ ENCRYPTION_KEY: newKey, ENCRYPTION_KEYS_PREVIOUS: "" }).resealed).toBe(0); // nothing left under the old key
  } finally {
    // Back under the run's key, for the other tests sharing this database.
    reseal({ ENCRYPTION_KEY: oldKey, ENCRYPTION_KEYS_PREVIOUS: newKey });
  }
  expect((await sessionStorage.loadSession(`offline_${domain}`))?.accessToken).toBe(token);
  expect(openSessionToken(`offline_${legacy}`, (await rowOf(legacy)).accessToken)).toBe("shpat_legacy");
}, 180_000);
