// The plan gate is at most 60 seconds stale (/docs#section/Conventions; docs/decisions/121-plan-gate-freshness.md),
// over real HTTP against the built app and the simulator, with the webhook that would have told
// the app lost: a Pro charge cancelled at Shopify (app_subscriptions/update never arrives) is
// enforced from the first request after the row is older than 60 s; a development store that moves
// to a paid Shopify plan (Shopify sends nothing) is let in the same way. The row's age is the
// clock: the test ages plan_checked_at instead of waiting a minute. The request that finds the row
// stale is answered from the row without waiting on Shopify; one re-read per shop per minute,
// whichever replica (this test process stands in for a second one) sees it first.
import { prisma } from "../../../app/db.server";
import { env } from "../../../app/env.server";
import { redis } from "../../../app/infra/redis.server";
import { requestProPlan } from "../../../app/domain/shop/app-plan.server";
import { recordInstallation, setAppPlan } from "../../../app/domain/shop/lifecycle.server";
import { refreshPlanIfStale } from "../../../app/domain/shop/plan-freshness.server";
import { platformFor } from "../../../app/platform/index.server";
import { createKey } from "../../support/fixtures";
import { eventually, useStack } from "../../support/stack";

const stack = useStack({ workers: false });

async function billingShop(opts: { partnerDevelopment?: boolean } = {}) {
  const domain = `fresh-${Math.random().toString(36).slice(2, 10)}.myshopify.com`;
  const installed = await stack.control.installShop({ shop: domain, ...opts });
  await recordInstallation(domain, installed.accessToken, installed.scope);
  await setAppPlan(domain, null);
  const shop = await prisma.shop.findUniqueOrThrow({ where: { domain } });
  const { key } = await createKey({ shopId: shop.id, scopes: ["read:subscriptions"] });
  const call = async () => {
    const res = await fetch(`${stack.appUrl}/api/admin/v1/subscriptions`, { headers: { Authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { error?: { code: string } };
    return res.status === 200 ? "ok" : body.error?.code;
  };
  return { domain, shopId: shop.id, call };
}

/** Pro through Billing: the charge approved on the confirmation page, its webhook delivered. */
async function approvePro(shop: { domain: string; shopId: string }) {
  const { confirmationUrl } = await requestProPlan(shop.domain);
  const res = await fetch(confirmationUrl, { method: "POST", body: new URLSearchParams({ decision: "approve" }), redirect: "manual" });
  expect(res.status).toBe(303);
  await stack.settled(shop.domain, async () => (await prisma.shop.findUniqueOrThrow({ where: { id: shop.shopId } })).appPlan === "PRO");
}

const checkedAt = async (shopId: string) => (await prisma.shop.findUniqueOrThrow({ where: { id: shopId } })).planCheckedAt!.getTime();
/** The clock: the row's plan facts become `seconds` old. */
const age = (shopId: string, seconds: number) =>
  prisma.$executeRaw`UPDATE shops SET plan_checked_at = now() - make_interval(secs => ${seconds}) WHERE id = ${shopId}`;
const reads = async (domain: string) => (await stack.control.operations(domain, { operation: "currentAppInstallation" })).length;
/** A fresh lock window: the Redis lock of the last re-read is dropped, as a minute passing would. */
const minutePasses = async (shopId: string) => {
  const { redis } = await import("../../../app/infra/redis.server");
  const { env } = await import("../../../app/env.server");
  await redis().del(`${env().REDIS_PREFIX}:plan-refresh:${shopId}`);
};

it("a downgrade whose webhook was lost is enforced within 60 s of the next request", async () => {
  const shop = await billingShop();
  await approvePro(shop);
  expect(await shop.call()).toBe("ok");

  // Shopify cancels the charge; the app_subscriptions/update webhook is lost on the way.
  await stack.control.failNext(shop.domain, { operation: "appSubscriptionCancel", webhooksLost: true });
  const port = await platformFor(shop.domain);
  for (const c of await port.activeAppCharges()) await port.cancelAppCharge(c.id);
  await stack.sim.idle();
  expect((await prisma.shop.findUniqueOrThrow({ where: { id: shop.shopId } })).appPlan).toBe("PRO");

  // Within 60 s of the last read nothing is re-read: the row stands.
  const before = await reads(shop.domain);
  expect(await shop.call()).toBe("ok");
  expect(await reads(shop.domain)).toBe(before);

  // Older than 60 s: that request starts the re-read, and the gate holds from then on.
  await age(shop.shopId, 61);
  const stale = await checkedAt(shop.shopId);
  await shop.call();
  await eventually(async () => (await checkedAt(shop.shopId)) > stale);
  expect(await reads(shop.domain)).toBe(before + 1);
  expect(await shop.call()).toBe("plan_upgrade_required");
});

it("a development store that moves to a paid plan (Shopify sends no webhook) is let in within 60 s of the next request", async () => {
  const shop = await billingShop({ partnerDevelopment: true });
  await approvePro(shop);
  expect(await shop.call()).toBe("plan_upgrade_required");

  await stack.control.call("PATCH", `${stack.control.shop(shop.domain)}/plan`, { partnerDevelopment: false, displayName: "Basic" });
  expect(await shop.call()).toBe("plan_upgrade_required"); // the row is fresh: not re-read yet

  await age(shop.shopId, 61);
  const stale = await checkedAt(shop.shopId);
  await shop.call();
  await eventually(async () => (await checkedAt(shop.shopId)) > stale);
  expect(await shop.call()).toBe("ok");
});

it("the request that finds the row stale does not wait on Shopify, and one re-read per minute serves every replica", async () => {
  const shop = await billingShop();
  await approvePro(shop);
  await age(shop.shopId, 61);
  const before = await reads(shop.domain);
  // Shopify answers the re-read only after 4 s.
  await stack.control.failNext(shop.domain, { operation: "currentAppInstallation", delayMs: 4_000 });

  const started = Date.now();
  // Twenty requests at once on the web replica; once it holds the re-read's lock, this process
  // asks as a second replica and finds the lock taken. Timed: the requests' own answers.
  const calls = Promise.all(Array.from({ length: 20 }, () => shop.call())).then((answers) => ({ answers, answeredInMs: Date.now() - started }));
  await eventually(async () => (await redis().exists(`${env().REDIS_PREFIX}:plan-refresh:${shop.shopId}`)) === 1, 5_000);
  const here = await refreshPlanIfStale({ id: shop.shopId, domain: shop.domain, planCheckedAt: new Date(Date.now() - 61_000) });
  const { answers, answeredInMs } = await calls;
  expect(here).toBe(false);
  expect(answeredInMs).toBeLessThan(3_000);
  expect(new Set(answers)).toEqual(new Set(["ok"]));

  const stale = Date.now() - 61_000;
  await eventually(async () => (await checkedAt(shop.shopId)) > stale, 15_000);
  await eventually(async () => (await reads(shop.domain)) === before + 1);

  // Stale again within the same minute: the lock holds, nothing more is read.
  await age(shop.shopId, 61);
  await shop.call();
  expect(await refreshPlanIfStale({ id: shop.shopId, domain: shop.domain, planCheckedAt: new Date(0) })).toBe(false);
  expect(await reads(shop.domain)).toBe(before + 1);

  // A minute later the next stale request reads again.
  await minutePasses(shop.shopId);
  const again = await checkedAt(shop.shopId);
  await shop.call();
  await eventually(async () => (await checkedAt(shop.shopId)) > again);
  expect(await reads(shop.domain)).toBe(before + 2);
});
