// Seeding (control API): shops and products.
import { newGid, nextNumericId, randomToken, type ShopState, type SimState, type Variant } from "../state";

export interface ShopInput {
  shop: string;
  name?: string;
  email?: string;
  currencyCode?: string;
  /** Shopify's shop { ianaTimezone } (default UTC). */
  ianaTimezone?: string;
  plan?: string;
  partnerDevelopment?: boolean;
  shopifyPlus?: boolean;
  accessToken?: string;
  scope?: string;
}

export const DEFAULT_SCOPE =
  "read_own_subscription_contracts,write_own_subscription_contracts,read_customers,read_products,write_products,read_customer_payment_methods";

/** Creates the shop if new, and installs the app (keeping a live token, minting one otherwise). */
export function installShop(state: SimState, input: ShopInput, now: Date): ShopState {
  let shop = state.shops[input.shop];
  if (!shop) {
    const partnerDevelopment = input.partnerDevelopment ?? false;
    shop = {
      domain: input.shop,
      numericId: nextNumericId(state),
      name: input.name ?? input.shop.replace(/\.myshopify\.com$/, ""),
      email: input.email ?? `owner@${input.shop}`,
      currencyCode: input.currencyCode ?? "USD",
      ianaTimezone: input.ianaTimezone ?? "UTC",
      plan: {
        displayName: input.plan ?? (partnerDevelopment ? "Developer Preview" : "Basic"),
        partnerDevelopment,
        shopifyPlus: input.shopifyPlus ?? false,
      },
      createdAt: now.toISOString(),
      installation: null,
      products: {},
      variants: {},
      sellingPlanGroups: {},
      customers: {},
      contracts: {},
      drafts: {},
      customerAccessTokens: {},
      metafields: {},
      emails: [],
      operations: [],
      failures: [],
      deliveries: [],
    };
    state.shops[input.shop] = shop;
  } else {
    if (input.plan !== undefined) shop.plan.displayName = input.plan;
    if (input.partnerDevelopment !== undefined) shop.plan.partnerDevelopment = input.partnerDevelopment;
    if (input.shopifyPlus !== undefined) shop.plan.shopifyPlus = input.shopifyPlus;
  }
  const token = input.accessToken ?? shop.installation?.accessToken ?? randomToken("shpat_");
  shop.installation = {
    accessToken: token,
    scope: input.scope ?? shop.installation?.scope ?? DEFAULT_SCOPE,
    installedAt: shop.installation?.installedAt ?? now.toISOString(),
  };
  return shop;
}

export interface ProductInput {
  title: string;
  imageUrl?: string | null;
  variants?: { title?: string; price?: string; sku?: string | null; available?: boolean; imageUrl?: string | null }[];
}

export function createProduct(state: SimState, shop: ShopState, input: ProductInput) {
  const productId = newGid(state, "Product");
  const variants: Variant[] = (input.variants?.length ? input.variants : [{}]).map((v) => ({
    id: newGid(state, "ProductVariant"),
    productId,
    title: v.title ?? "Default Title",
    price: v.price ?? "10.00",
    sku: v.sku ?? null,
    available: v.available ?? true,
    imageUrl: v.imageUrl ?? null,
  }));
  for (const v of variants) shop.variants[v.id] = v;
  shop.products[productId] = { id: productId, title: input.title, imageUrl: input.imageUrl ?? null, variantIds: variants.map((v) => v.id) };
  return { ...shop.products[productId], variants };
}
