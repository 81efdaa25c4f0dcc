// The Pro plan through Shopify Billing (decision 064), across the real web server, the simulator
// and its webhook: a charge is requested, approved on the confirmation page, and the app learns
// it from app_subscriptions/update alone; a declined charge changes nothing; cancelling drops the
// shop to Free; a development store's approved test charge still fails the gate; the support
// override pins the plan until cleared.
import { prisma } from "../../../app/db.server";

import { cancelProPlan, requestProPlan, syncPlanFromBilling } from "../../../app/domain/shop/app-plan.server";
import { setAppPlan } from "../../../app/domain/shop/lifecycle.server";
import { recordInstallation } from "../../../app/domain/shop/lifecycle.server";
import { useStack } from "../../support/stack";
import { createKey } from "../../support/fixtures";

const stack = useStack({ workers: false });

/** A shop whose plan follows Billing (no support override). */
async function billingShop(opts: { partnerDevelopment?: boolean } = {}) {
  const domain = `bill-${Math.random().toString(36).slice(2, 10)}.myshopify.com`;
  const installed = await stack.control.installShop({ shop: domain, ...opts });
  await recordInstallation(domain, installed.accessToken, installed.scope);
  await setAppPlan(domain, null);
  const shop = await prisma.shop.findUniqueOrThrow({ where: { domain } });
  const { key } = await createKey({ shopId: shop.id, name: "k", scopes: ["read:subscriptions"], kind: "SECRET" });
  const call = async () => {
    const res = await fetch(`${stack.appUrl}/api/admin/v1/subscriptions`, { headers: { Authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { error?: { code: string } };
    return res.status === 200 ? "ok" : body.error?.code;
  };
  return { domain, shopId: shop.id, call };
}

/** The merchant's answer on the simulator's confirmation page; returns where Shopify sends them. */
async function answer(confirmationUrl: string, decision: "approve" | "decline"): Promise<string> {
  const page = await fetch(confirmationUrl);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("Approve subscription");
  const res = await fetch(confirmationUrl, { method: "POST", body: new URLSearchParams({ decision }), redirect: "manual" });
  expect(res.status).toBe(303);
  return res.headers.get("location")!;
}

const planOf = async (shopId: string) => (await prisma.shop.findUniqueOrThrow({ where: { id: shopId } })).appPlan;

it("an approved Pro charge reaches the gate through app_subscriptions/update alone", async () => {
  const shop = await billingShop();
  expect(await shop.call()).toBe("plan_upgrade_required");
  const { confirmationUrl } = await requestProPlan(shop.domain);
  expect(confirmationUrl).toMatch(new RegExp(`^${stack.sim.url}/admin/${shop.domain}/charges/\\d+/confirm$`));
  const back = await answer(confirmationUrl, "approve");
  // Shopify returns the merchant to the Plan page inside admin (the simulator's admin here).
  expect(back).toMatch(new RegExp(`^${stack.sim.url}/admin/${shop.domain}/apps/dev-api-key/app/plan\\?charge_id=\\d+$`));
  await stack.settled(shop.domain, async () => (await planOf(shop.shopId)) === "PRO");
  expect(await shop.call()).toBe("ok");
  const ops = await stack.control.call<Array<{ operation: string; outcome: string }>>("GET", `${stack.control.shop(shop.domain)}/operations`);
  expect(ops.map((o) => o.operation)).toEqual(expect.arrayContaining(["appSubscriptionCreate", "currentAppInstallation"]));

  // cancelling at Shopify drops the shop to Free at once
  expect((await cancelProPlan(shop.domain)).billingPlan).toBe("FREE");
  expect(await planOf(shop.shopId)).toBe("FREE");
  expect(await shop.call()).toBe("plan_upgrade_required");
});

it("a declined charge leaves the shop on Free", async () => {
  const shop = await billingShop();
  const { confirmationUrl } = await requestProPlan(shop.domain);
  await answer(confirmationUrl, "decline");
  await stack.sim.idle();
  expect((await syncPlanFromBilling(shop.domain)).billingPlan).toBe("FREE");
  expect(await shop.call()).toBe("plan_upgrade_required");
  // a charge is answered once
  const again = await fetch(confirmationUrl, { method: "POST", body: new URLSearchParams({ decision: "approve" }), redirect: "manual" });
  expect(again.status).toBe(409);
});

it("a development store gets a test charge, and Pro alone does not open the API", async () => {
  const shop = await billingShop({ partnerDevelopment: true });
  const { confirmationUrl } = await requestProPlan(shop.domain);
  expect(await (await fetch(confirmationUrl)).text()).toContain("test charge");
  await answer(confirmationUrl, "approve");
  await stack.settled(shop.domain, async () => (await planOf(shop.shopId)) === "PRO");
  const row = await prisma.shop.findUniqueOrThrow({ where: { id: shop.shopId } });
  expect({ partnerDevelopment: row.partnerDevelopment, platformPlanPaid: row.platformPlanPaid }).toEqual({ partnerDevelopment: true, platformPlanPaid: false });
  expect(await shop.call()).toBe("plan_upgrade_required");
});

it("the support override pins the plan whatever Billing says, until cleared", async () => {
  const shop = await billingShop();
  await setAppPlan(shop.domain, "PRO");
  expect(await shop.call()).toBe("ok");
  await syncPlanFromBilling(shop.domain); // Billing says Free
  expect(await planOf(shop.shopId)).toBe("PRO");
  await setAppPlan(shop.domain, null);
  expect(await planOf(shop.shopId)).toBe("FREE");
  expect(await shop.call()).toBe("plan_upgrade_required");
});
