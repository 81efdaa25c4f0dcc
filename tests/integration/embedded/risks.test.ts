// Risk Center checks (app/domain/shop/risks.server.ts): each finds its risk from real rows, and the
// list comes most severe first. Nothing found on a healthy shop.
import { prisma } from "../../../app/db.server";

import { openRisks } from "../../../app/domain/shop/risks.server";
import { createContracts, createShop, createKey } from "../../support/fixtures";

const DAY = 86_400_000;
const ids = async (shopId: string, now?: Date) => (await openRisks(shopId, now)).map((r) => r.id.split(":")[0]);

describe("Risk Center", () => {
  it("a healthy Pro shop with a read-only key in use has no open risk", async () => {
    const shop = await createShop();
    const { id } = await createKey({ shopId: shop.id, name: "reader", scopes: ["read:subscriptions"], kind: "SECRET" });
    await prisma.apiKey.update({ where: { id }, data: { lastUsedAt: new Date() } });
    await createContracts(shop.id, 2, () => ({ monthlyAmountCents: 1000 }));
    expect(await openRisks(shop.id)).toEqual([]);
  });

  it("finds every kind of risk and orders them critical, high, medium, low", async () => {
    const shop = await createShop();
    const now = new Date();
    await prisma.shop.update({ where: { id: shop.id }, data: { appPlan: "FREE" } });
    const writer = await createKey({ shopId: shop.id, name: "ops", scopes: ["write:subscriptions"], kind: "SECRET" });
    await createKey({ shopId: shop.id, name: "soon", scopes: ["read:plans"], kind: "SECRET", expiresAt: new Date(now.getTime() + 3 * DAY) });
    const old = await createKey({ shopId: shop.id, name: "old", scopes: ["read:plans"], kind: "SECRET" });
    await prisma.apiKey.update({
      where: { id: old.id },
      data: { createdAt: new Date(now.getTime() - 200 * DAY), lastUsedAt: new Date(now.getTime() - 100 * DAY) },
    });
    // revoked keys and far expiries raise nothing
    const revoked = await createKey({ shopId: shop.id, name: "gone", scopes: ["write:subscriptions"], kind: "SECRET" });
    await prisma.apiKey.update({ where: { id: revoked.id }, data: { revokedAt: now } });
    await createKey({ shopId: shop.id, name: "later", scopes: ["read:plans"], kind: "SECRET", expiresAt: new Date(now.getTime() + 30 * DAY) });
    const secret = "x";
    await prisma.webhookEndpoint.create({
      data: { shopId: shop.id, url: "https://a.example/hook", events: [], secretCiphertext: secret, enabled: false, disabledReason: "exhausted" },
    });
    await prisma.webhookEndpoint.create({
      data: { shopId: shop.id, url: "https://b.example/hook", events: [], secretCiphertext: secret, consecutiveExhausted: 2 },
    });
    await prisma.webhookEndpoint.create({
      data: { shopId: shop.id, url: "https://c.example/hook", events: [], secretCiphertext: secret, enabled: false, disabledReason: "merchant" },
    });
    await createContracts(shop.id, 3, () => ({ monthlyAmountCents: null }));
    await createContracts(shop.id, 1, () => ({ monthlyAmountCents: null, status: "CANCELLED" }));
    await prisma.exportJob.create({
      data: { shopId: shop.id, dataset: "subscriptions", format: "csv", status: "failed", activeSlot: null, errorMessage: "disk full" },
    });

    const risks = await openRisks(shop.id, now);
    expect(risks.map((r) => [r.severity, r.id.split(":")[0]])).toEqual([
      ["critical", "endpoint_disabled"],
      ["critical", "plan_below_pro"],
      ["high", "endpoint_failing"],
      ["high", "key_expiring"],
      ["medium", "key_write_scope"],
      ["medium", "contracts_missing_amount"],
      ["medium", "export_failed"],
      ["low", "key_unused"],
    ]);
    expect(risks.find((r) => r.id === `key_write_scope:${writer.id}`)?.title).toBe('API key "ops" can change subscriptions (write:subscriptions)');
    expect(risks.find((r) => r.id === "contracts_missing_amount")?.title).toMatch(/^3 active subscriptions have no monthly amount/);
    expect(risks.find((r) => r.id === "plan_below_pro")?.link.url).toBe("/app/plan");
    for (const r of risks) expect(r.action.length).toBeGreaterThan(10);
  });

  it("a Pro development store not on a paid platform plan is told why its keys are refused", async () => {
    const shop = await createShop();
    await prisma.shop.update({ where: { id: shop.id }, data: { partnerDevelopment: true, platformPlanPaid: false } });
    await createKey({ shopId: shop.id, name: "k", scopes: ["read:plans"], kind: "SECRET" });
    const [risk] = await openRisks(shop.id);
    expect(risk.id).toBe("plan_below_pro");
    expect(risk.title).toMatch(/development store/);
  });

  it("only the shop's own rows count", async () => {
    const mine = await createShop();
    const other = await createShop();
    await createKey({ shopId: other.id, name: "theirs", scopes: ["write:subscriptions"], kind: "SECRET" });
    await createContracts(other.id, 1, () => ({ monthlyAmountCents: null }));
    expect(await ids(mine.id)).toEqual([]);
    expect(await ids(other.id)).toEqual(["key_write_scope", "contracts_missing_amount"]);
  });
});
