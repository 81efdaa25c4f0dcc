// Operator CLI (`npm run cli -- <command>`): the same domain functions the admin UI calls.
//   keys mint --shop D --name N --scopes a,b [--expires ISO] [--publishable]   -> {"id","key"} (key shown once)
//   keys list --shop D
//   keys revoke --id ID
//   shops plan --shop D --plan pro|free|billing   (support override of Shopify Billing; billing = clear it)
//   shops list
//   mirror reconcile --shop D          (rebuild the shop's mirror from the platform, inline)
//   storefront sync --shop D           (rewrite the shop's storefront metafields, inline)
//   sessions reseal                    (seal every Shopify token under the current ENCRYPTION_KEY)
import { parseArgs } from "node:util";
import { applyLocalDefaults } from "./local-env";

applyLocalDefaults();
const { prisma } = await import("../app/db.server");
const keys = await import("../app/domain/keys.server");
const lifecycle = await import("../app/domain/shop-lifecycle.server");
const { reconcileShop } = await import("../app/domain/mirror.server");
const { syncStorefrontMetafields } = await import("../app/domain/storefront-sync.server");
const { resealSessionTokens } = await import("../app/session-tokens.server");

const USAGE = `usage:
  keys mint --shop DOMAIN --name NAME --scopes a,b [--expires ISO-8601] [--publishable]
  keys list --shop DOMAIN
  keys revoke --id KEY_ID
  shops plan --shop DOMAIN --plan pro|free|billing   support override: pins the plan whatever Shopify Billing
                                                   says (merchants upgrade on the app's Plan page); billing clears it
  shops list
  mirror reconcile --shop DOMAIN
  storefront sync --shop DOMAIN
  sessions reseal`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    shop: { type: "string" },
    name: { type: "string" },
    scopes: { type: "string" },
    expires: { type: "string" },
    publishable: { type: "boolean", default: false },
    id: { type: "string" },
    plan: { type: "string" },
  },
});

function need(name: keyof typeof values): string {
  const v = values[name];
  if (typeof v !== "string" || v === "") throw new Error(`--${name} is required\n${USAGE}`);
  return v;
}

const print = (value: unknown) => console.log(JSON.stringify(value, null, 2));

async function main(): Promise<void> {
  const command = positionals.join(" ");
  switch (command) {
    case "keys mint": {
      const expires = values.expires ? new Date(values.expires) : undefined;
      if (expires && Number.isNaN(expires.getTime())) throw new Error(`--expires is not an ISO 8601 timestamp: ${values.expires}`);
      const minted = await keys.mintKey({
        shopId: await lifecycle.shopIdFor(need("shop")),
        name: need("name"),
        scopes: need("scopes").split(",").map((s) => s.trim()).filter(Boolean),
        kind: values.publishable ? "PUBLISHABLE" : "SECRET",
        expiresAt: expires,
      });
      return print({ id: minted.id, key: minted.key });
    }
    case "keys list":
      return print(await keys.listKeys(await lifecycle.shopIdFor(need("shop"))));
    case "keys revoke": {
      const id = need("id");
      if (!(await keys.revokeKey(id))) throw new Error(`No active key ${id}`);
      return print({ id, revoked: true });
    }
    case "shops plan": {
      // A support override: merchants get Pro through Shopify Billing on the Plan page (decision 064).
      const plan = need("plan").toUpperCase();
      if (plan !== "PRO" && plan !== "FREE" && plan !== "BILLING") throw new Error(`--plan must be pro, free or billing, not ${values.plan}`);
      await lifecycle.setAppPlan(need("shop"), plan === "BILLING" ? null : plan);
      const shop = await prisma.shop.findUniqueOrThrow({ where: { domain: need("shop") }, select: { appPlan: true, billingPlan: true, planOverride: true } });
      return print({ shop: values.shop, plan: shop.appPlan.toLowerCase(), billing_plan: shop.billingPlan.toLowerCase(), override: shop.planOverride?.toLowerCase() ?? null });
    }
    case "shops list":
      return print(await prisma.shop.findMany({ select: { domain: true, installState: true, appPlan: true, billingPlan: true, planOverride: true, partnerDevelopment: true }, orderBy: { domain: "asc" } }));
    case "mirror reconcile":
      return print(await reconcileShop(need("shop")));
    case "storefront sync":
      return print(await syncStorefrontMetafields(need("shop"), { force: true }));
    case "sessions reseal":
      return print(await resealSessionTokens());
    default:
      throw new Error(USAGE);
  }
}

try {
  await main();
  await prisma.$disconnect();
  process.exit(0);
} catch (err) {
  console.error((err as Error).message);
  await prisma.$disconnect();
  process.exit(1);
}
