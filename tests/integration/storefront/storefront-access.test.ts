// app.bundle_plan and app.mix_match are public-read through Shopify's Storefront API
// (/docs#section/Conventions, the cart gap; docs/decisions/123-storefront-metafield-definitions.md):
// a headless storefront with a storefront access token reads both from the simulator's Storefront
// API once their definitions grant storefront PUBLIC_READ, and cannot without. The app makes the
// definitions at install and reinstall (the embedded app's token exchange, afterAuth) and before
// every storefront sync. Real built app, real simulator, the production adapter.
import { randomUUID } from "node:crypto";
import { prisma } from "../../../app/db.server";
import { syncStorefrontMetafields } from "../../../app/domain/storefront/sync.server";
import { platformFor } from "../../../app/platform/index.server";
import { eventually, useStack } from "../../support/stack";
import { seedStorefrontShop } from "../../support/storefront-factories";

const stack = useStack({ workers: false }, 60_000);

type Definition = { namespace: string; key: string; ownerType: string; access: { storefront: string } };
const definitions = (domain: string) => stack.control.call<Definition[]>("GET", `${stack.control.shop(domain)}/metafield-definitions`);

/** A headless storefront: its own token, Shopify's Storefront API, the product's two metafields. */
async function storefront(domain: string) {
  const { accessToken } = await stack.control.call<{ accessToken: string }>("POST", `${stack.control.shop(domain)}/storefront-access-tokens`);
  return async (productId: string, namespace: string, token = accessToken) => {
    const res = await fetch(`${stack.sim.url}/shops/${domain}/api/2026-10/graphql.json`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Shopify-Storefront-Access-Token": token },
      body: JSON.stringify({
        query: `query P($id: ID!, $ns: String!) {
          product(id: $id) {
            title
            bundle: metafield(namespace: $ns, key: "bundle_plan") { type value }
            mix: metafield(namespace: $ns, key: "mix_match") { type value }
          }
        }`,
        variables: { id: productId, ns: namespace },
      }),
    });
    const body = (await res.json()) as {
      data?: { product: { title: string; bundle: { type: string; value: string } | null; mix: { type: string; value: string } | null } | null };
      errors?: unknown;
    };
    return { status: res.status, product: body.data?.product ?? null, errors: body.errors };
  };
}

const BROWSER = { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36" };

/** The merchant opens the app inside Shopify admin: the library exchanges the session token (install or reinstall). */
async function openApp(domain: string) {
  const { token } = await stack.control.call<{ token: string }>("POST", `${stack.control.shop(domain)}/session-token`, {});
  const host = Buffer.from(`admin.shopify.com/store/${domain.replace(".myshopify.com", "")}`).toString("base64url");
  const params = new URLSearchParams({ embedded: "1", shop: domain, host, id_token: token, locale: "en" });
  const res = await fetch(`${stack.appUrl}/app?${params}`, { headers: BROWSER, redirect: "manual" });
  expect(res.status, await res.text()).toBeLessThan(400);
}

describe("storefront access to app.bundle_plan and app.mix_match", () => {
  it("without a definition granting storefront access a headless storefront reads nothing; after the sync it reads both", async () => {
    const s = await seedStorefrontShop(stack);
    const port = await platformFor(s.domain);
    // The values are on the product (written without any definition): the Storefront API hides them.
    await port.setMetafields([
      { ownerId: s.products.coffee, namespace: "$app", key: "bundle_plan", type: "json", value: '{"selling_plan_id":null}' },
      { ownerId: s.products.coffee, namespace: "$app", key: "mix_match", type: "json", value: '{"selling_plan_id":null}' },
    ]);
    // A definition with the default storefront access (NONE) hides them too.
    const { namespace } = await port.ensureMetafieldDefinition({
      name: "Bundle plan",
      namespace: "$app",
      key: "bundle_plan",
      type: "json",
      ownerType: "PRODUCT",
      access: { storefront: "NONE" },
    });
    expect(namespace).toMatch(/^app--\d+$/);
    const read = await storefront(s.domain);
    const hidden = await read(s.products.coffee, namespace);
    expect(hidden).toMatchObject({ status: 200, product: { title: "Coffee", bundle: null, mix: null } });

    await syncStorefrontMetafields(s.domain);
    expect((await definitions(s.domain)).map((d) => [d.ownerType, d.namespace, d.key, d.access.storefront]).sort()).toEqual([
      ["PRODUCT", namespace, "bundle_plan", "PUBLIC_READ"],
      ["PRODUCT", namespace, "mix_match", "PUBLIC_READ"],
    ]);
    const shown = await read(s.products.coffee, namespace);
    expect(shown.product?.bundle?.type).toBe("json");
    expect(JSON.parse(shown.product!.bundle!.value)).toMatchObject({
      bundle_id: s.bundleId,
      selling_plan_id: s.group.planGid,
      selling_plan_group_id: s.group.gid,
    });
    expect(JSON.parse(shown.product!.mix!.value)).toMatchObject({ mix_match_id: s.mixId, selling_plan_id: s.group.planGid, cart_group_id: "mm-pick-three" });

    // Only with a storefront access token of the shop; `$app` means nothing to a storefront.
    expect((await read(s.products.coffee, namespace, "not-a-token")).status).toBe(401);
    expect((await read(s.products.coffee, "$app")).product).toMatchObject({ bundle: null, mix: null });
  });

  it("install and reinstall through the embedded app make both definitions with storefront PUBLIC_READ", async () => {
    const domain = `t-${randomUUID().slice(0, 12)}.myshopify.com`;
    await stack.control.installShop({ shop: domain });
    await openApp(domain);
    const made = await eventually(async () => {
      const defs = await definitions(domain);
      return defs.length === 2 ? defs : null;
    });
    expect(made.map((d) => [d.key, d.access.storefront]).sort()).toEqual([
      ["bundle_plan", "PUBLIC_READ"],
      ["mix_match", "PUBLIC_READ"],
    ]);

    // Uninstall, then install again: the app makes sure of them again (they exist: their access is set).
    await stack.control.call("POST", `${stack.control.shop(domain)}/uninstall`);
    await stack.settled(domain, async () => (await prisma.shop.findUniqueOrThrow({ where: { domain } })).installState === "UNINSTALLED");
    await stack.control.installShop({ shop: domain });
    const before = (await stack.control.operations(domain, { operation: "metafieldDefinitionUpdate" })).length;
    await openApp(domain);
    await eventually(async () => (await stack.control.operations(domain, { operation: "metafieldDefinitionUpdate" })).length === before + 2);
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain } })).installState).toBe("INSTALLED");
    expect((await definitions(domain)).map((d) => d.access.storefront)).toEqual(["PUBLIC_READ", "PUBLIC_READ"]);
  });
});
