// A shop ready for the Customer API over real HTTP: on the simulator a catalogue, a regular
// selling plan group and a build-a-box group, two customers (A with a card, B too) and their
// contracts; in the database the mirrored plan groups, a build-a-box bundle with a published
// menu for the period of the box contract's next charge, the mirrored contracts and a
// publishable key. Shared by tests/integration/customer/*, the response-schema test, the e2e
// portal's Playwright test and bench/customer.ts.
import { prisma } from "../../app/db.server";

import { reconcileContract } from "../../app/domain/subscriptions/mirror.server";
import { periodOf } from "../../app/domain/customer/box.server";
import type { SimulatorControl } from "../../simulator/control-client";
import { createBundle, createBundleBox, createKey, createPlanGroup } from "./fixtures";

const DAY = 86_400_000;

type SimProduct = { id: string; variants: { id: string; price: string }[] };
type SimGroup = { id: string; sellingPlans: { id: string; name: string }[] };
type SimContract = { id: string; lines: { id: string }[] };

export interface CustomerShop {
  domain: string;
  shopId: string;
  publishableKey: string;
  keyId: string;
  variants: { light: string; dark: string; decaf: string; boxBase: string; menu: string[]; offMenu: string };
  groups: { coffee: string; coffeePlan: string; box: string; boxPlan: string };
  bundleId: string;
  customers: { a: string; b: string };
  contracts: { a: SimContract; aBox: SimContract; b: SimContract; bBox: SimContract };
}

export interface SeedOptions {
  /** Origins the shop allows besides its own domain (the portal's page). */
  origins?: string[];
  /** Next charge of the box contracts (default: 10 days ahead, well before the cutoff). */
  boxNextBilling?: Date;
  cutoffDays?: number;
}

export async function seedCustomerShop(
  control: SimulatorControl,
  installShop: () => Promise<{ domain: string; shopId: string }>,
  opts: SeedOptions = {},
): Promise<CustomerShop> {
  const { domain, shopId } = await installShop();
  if (opts.origins) await prisma.shop.update({ where: { id: shopId }, data: { storefrontOrigins: opts.origins } });
  const shop = control.shop(domain);
  const coffee = await control.call<SimProduct>("POST", `${shop}/products`, {
    title: "Coffee",
    variants: [
      { title: "Light", price: "18.00" },
      { title: "Dark", price: "20.00" },
      { title: "Decaf", price: "19.00" },
    ],
  });
  const treats = await control.call<SimProduct>("POST", `${shop}/products`, {
    title: "Treats",
    variants: [
      { title: "Box", price: "30.00" },
      { title: "Cookie", price: "3.00" },
      { title: "Brownie", price: "4.00" },
      { title: "Muffin", price: "3.50" },
      { title: "Scone", price: "3.25" },
    ],
  });
  const [light, dark, decaf] = coffee.variants.map((v) => v.id);
  const [boxBase, cookie, brownie, muffin, scone] = treats.variants.map((v) => v.id);
  const coffeeGroup = await control.call<SimGroup>("POST", `${shop}/selling-plan-groups`, {
    name: "Monthly coffee",
    plans: [{ name: "Monthly", interval: "MONTH", intervalCount: 1 }],
    variantIds: [light, dark],
  });
  const boxGroup = await control.call<SimGroup>("POST", `${shop}/selling-plan-groups`, {
    name: "Treat box",
    plans: [{ name: "Monthly box", interval: "MONTH", intervalCount: 1 }],
    variantIds: [boxBase],
  });
  const coffeePlan = coffeeGroup.sellingPlans[0].id;
  const boxPlan = boxGroup.sellingPlans[0].id;
  await createPlanGroup(shopId, { groupGid: coffeeGroup.id, name: "Monthly coffee", sellingPlanGids: [coffeePlan] });
  const localBox = await createPlanGroup(shopId, { groupGid: boxGroup.id, name: "Treat box", sellingPlanGids: [boxPlan] });
  const cutoffDays = opts.cutoffDays ?? 3;
  const bundle = await createBundle({
    shopId,
    groupId: localBox.id,
    title: "Treat box",
    kind: "BUILD_A_BOX",
    selectionCutoffDays: cutoffDays,
    boxSizeMin: 2,
    boxSizeMax: 4,
  });

  const a = await control.call<{ id: string }>("POST", `${shop}/customers`, { firstName: "Ada" });
  const b = await control.call<{ id: string }>("POST", `${shop}/customers`, { firstName: "Bo" });
  const boxNext = opts.boxNextBilling ?? new Date(Date.now() + 10 * DAY);
  const contract = (customerId: string, variantId: string, sellingPlanId: string, nextBillingDate: Date) =>
    control.call<SimContract>("POST", `${shop}/contracts`, {
      customerId,
      lines: [{ variantId, quantity: 1, sellingPlanId }],
      billingPolicy: { interval: "MONTH", intervalCount: 1 },
      nextBillingDate: nextBillingDate.toISOString(),
      originOrderName: `#${Math.floor(Math.random() * 1e6)}`,
      webhooks: false,
    });
  const contracts = {
    a: await contract(a.id, light, coffeePlan, new Date(Date.now() + 12 * DAY)),
    aBox: await contract(a.id, boxBase, boxPlan, boxNext),
    b: await contract(b.id, light, coffeePlan, new Date(Date.now() + 12 * DAY)),
    bBox: await contract(b.id, boxBase, boxPlan, boxNext),
  };
  for (const c of Object.values(contracts)) await reconcileContract(domain, c.id);

  await publishMenu(bundle.id, periodOf(boxNext), [cookie, brownie, muffin]);
  const { key, id: keyId } = await createKey({ shopId, name: "portal", scopes: [], kind: "PUBLISHABLE" });
  return {
    domain,
    shopId,
    publishableKey: key,
    keyId,
    variants: { light, dark, decaf, boxBase, menu: [cookie, brownie, muffin], offMenu: scone },
    groups: { coffee: coffeeGroup.id, coffeePlan, box: boxGroup.id, boxPlan },
    bundleId: bundle.id,
    customers: { a: a.id, b: b.id },
    contracts,
  };
}

/** A menu for one period of the bundle (published unless told otherwise). */
export async function publishMenu(bundleId: string, period: string, variantGids: string[], published = true) {
  await prisma.bundleBox.deleteMany({ where: { bundleId, period } });
  return createBundleBox({
    bundleId,
    period,
    published,
    items: variantGids.map((variantGid, position) => ({
      variantGid,
      productTitle: "Treats",
      variantTitle: `Treat ${position + 1}`,
      imageUrl: `https://cdn.example/treat-${position + 1}.png`,
      priceCents: 300 + position * 50,
    })),
  });
}

/** A fresh customer access token from the simulator (what the shopper's storefront holds). */
export async function customerToken(control: SimulatorControl, domain: string, customerId: string, ttlSeconds?: number): Promise<string> {
  const t = await control.call<{ accessToken: string }>("POST", `${control.shop(domain)}/customer-access-tokens`, { customerId, ttlSeconds });
  return t.accessToken;
}
