// A shop with Storefront API data on both sides: products, a selling plan group and another
// app's group in the simulator; the mirrored plan, a bundle and a Mix & Match plan in the
// database; publishable and secret keys. The mirror's child plan id is deliberately stale, so a
// test that sees the live id knows it came from the platform.
import { prisma } from "../../app/db.server";

import type { Stack } from "./stack";
import { createBundle, createKey, createMixMatchPlan, createPlanGroup } from "./fixtures";

export const ALLOWED_ORIGIN = "https://brand.example";
export const STALE_PLAN_GID = "gid://shopify/SellingPlan/999999999";

type SimProduct = { id: string; variants: { id: string; price: string }[] };
type SimGroup = { id: string; sellingPlans: { id: string; name: string }[] };

export async function seedStorefrontShop(stack: Stack) {
  const { domain, shopId } = await stack.installShop();
  await prisma.shop.update({ where: { id: shopId }, data: { storefrontOrigins: [ALLOWED_ORIGIN] } });
  const shop = stack.control.shop(domain);
  const coffee = await stack.control.call<SimProduct>("POST", `${shop}/products`, {
    title: "Coffee",
    variants: [
      { title: "Light", price: "18.00" },
      { title: "Dark", price: "20.00" },
    ],
  });
  const tea = await stack.control.call<SimProduct>("POST", `${shop}/products`, { title: "Tea", variants: [{ title: "Green", price: "12.50" }] });
  const other = await stack.control.call<SimProduct>("POST", `${shop}/products`, { title: "Mug", variants: [{ title: "White", price: "9.00" }] });
  const [light, dark] = coffee.variants.map((v) => v.id);
  const green = tea.variants[0].id;
  const group = await stack.control.call<SimGroup>("POST", `${shop}/selling-plan-groups`, {
    name: "Monthly box",
    plans: [{ name: "Monthly, 10% off", interval: "MONTH", intervalCount: 1 }],
    variantIds: [light, dark, green],
  });
  const foreign = await stack.control.call<SimGroup>("POST", `${shop}/selling-plan-groups`, {
    name: "Another app's plan",
    app: "other",
    plans: [{ name: "Weekly" }],
    variantIds: [light],
  });
  const local = await createPlanGroup(shopId, { groupGid: group.id, name: "Monthly box", sellingPlanGids: [STALE_PLAN_GID] });
  const bundle = await createBundle({ shopId, groupId: local.id, title: "Roaster's box", kind: "CURATED", selectionCutoffDays: 4 });
  const mix = await createMixMatchPlan({
    shopId,
    groupId: local.id,
    title: "Pick three",
    cartGroupId: "mm-pick-three",
    priceCents: 4000,
    minItems: 2,
    maxItems: 3,
    categories: [
      {
        title: "Coffee",
        entries: [
          // Snapshot 17.00: the live price (18.00) must win in the preview.
          { variantGid: light, productTitle: "Coffee", variantTitle: "Light", priceCents: 1700 },
          { variantGid: dark, productTitle: "Coffee", variantTitle: "Dark", priceCents: 2000 },
        ],
      },
      { title: "Tea", entries: [{ variantGid: green, productTitle: "Tea", variantTitle: "Green", priceCents: 1250 }] },
    ],
  });
  const pk = await createKey({ shopId, name: "storefront", scopes: ["read:plans", "read:bundles", "read:mixmatch"], kind: "PUBLISHABLE" });
  const sk = await createKey({ shopId, name: "server", scopes: ["read:plans", "read:bundles", "read:mixmatch"], kind: "SECRET" });
  return {
    domain,
    shopId,
    group: { gid: group.id, planGid: group.sellingPlans[0].id, localId: local.id },
    foreignGroupGid: foreign.id,
    products: { coffee: coffee.id, tea: tea.id, other: other.id },
    variants: { light, dark, green, mug: other.variants[0].id },
    bundleId: bundle.id,
    mixId: mix.id,
    publishableKey: pk.key,
    secretKey: sk.key,
  };
}

export type StorefrontShop = Awaited<ReturnType<typeof seedStorefrontShop>>;
