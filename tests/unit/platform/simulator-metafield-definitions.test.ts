// The simulator's metafield definitions (simulator/store/metafield-definitions.ts): `$app`
// resolved to the app's reserved namespace, TAKEN on a second definition, access updated in
// place, and a product metafield visible to the Storefront API only under PUBLIC_READ.
import { emptyState, type ShopState, type SimState } from "../../../simulator/state";
import { setMetafields } from "../../../simulator/store/metafields";
import { installShop } from "../../../simulator/store/shops";
import {
  appClientIdOf,
  createMetafieldDefinition,
  resolveNamespace,
  storefrontMetafield,
  updateMetafieldDefinition,
} from "../../../simulator/store/metafield-definitions";

const now = new Date("2026-03-01T12:00:00Z");
const app = appClientIdOf("dev-api-key");
let state: SimState;
let shop: ShopState;
beforeEach(() => {
  state = emptyState();
  shop = installShop(state, { shop: "defs.myshopify.com" }, now);
});

const def = (storefront?: "NONE" | "PUBLIC_READ") => ({
  name: "Bundle plan",
  namespace: "$app",
  key: "bundle_plan",
  type: "json",
  ownerType: "PRODUCT",
  ...(storefront ? { access: { storefront } } : {}),
});

describe("metafield definitions", () => {
  it("resolves $app and $app:<sub> to the app's reserved namespace", () => {
    expect(resolveNamespace("$app", app)).toBe(`app--${app}`);
    expect(resolveNamespace("$app:x", app)).toBe(`app--${app}--x`);
    expect(resolveNamespace("custom", app)).toBe("custom");
  });

  it("a second definition of the same owner type, namespace and key is TAKEN; bad input changes nothing", () => {
    const first = createMetafieldDefinition(state, shop, def("PUBLIC_READ"), app, now);
    expect(first.ok && first.value).toMatchObject({ namespace: `app--${app}`, access: { storefront: "PUBLIC_READ", admin: "MERCHANT_READ" } });
    const again = createMetafieldDefinition(state, shop, def(), app, now);
    expect(again.ok ? null : again.userErrors[0].code).toBe("TAKEN");
    const bad = createMetafieldDefinition(state, shop, { ...def(), key: "k", namespace: "$app:other" }, app, now);
    expect(bad.ok ? null : bad.userErrors[0]).toMatchObject({ field: ["definition", "key"], code: "TOO_SHORT" });
    expect(Object.keys(shop.metafieldDefinitions ?? {})).toHaveLength(1);
  });

  it("the Storefront API sees a product metafield only under storefront PUBLIC_READ", () => {
    const product = "gid://shopify/Product/1";
    setMetafields(state, shop, [{ ownerId: product, namespace: "$app", key: "bundle_plan", type: "json", value: "{}" }], now);
    const seen = () => storefrontMetafield(shop, "PRODUCT", product, `app--${app}`, "bundle_plan", app);
    expect(seen()).toBeNull(); // no definition
    createMetafieldDefinition(state, shop, def(), app, now);
    expect(seen()).toBeNull(); // default NONE
    const updated = updateMetafieldDefinition(
      shop,
      { namespace: "$app", key: "bundle_plan", ownerType: "PRODUCT", access: { storefront: "PUBLIC_READ" } },
      app,
    );
    expect(updated.ok).toBe(true);
    expect(seen()?.value).toBe("{}");
    expect(storefrontMetafield(shop, "PRODUCT", product, "$app", "bundle_plan", app)).toBeNull();
  });
});
