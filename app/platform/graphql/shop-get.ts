// shop: identity and plan of the shop the token belongs to (its numeric id addresses the
// Customer Account API; partnerDevelopment tells development stores apart).
import type { PlatformShop } from "../port";

export const SHOP_GET = /* GraphQL */ `
  query ShopGet {
    shop {
      id
      name
      myshopifyDomain
      currencyCode
      ianaTimezone
      plan {
        publicDisplayName
        partnerDevelopment
      }
    }
  }
`;

export interface ShopGetResult {
  shop: {
    id: string;
    name: string;
    myshopifyDomain: string;
    currencyCode: string;
    ianaTimezone: string;
    plan: { publicDisplayName: string; partnerDevelopment: boolean };
  };
}

export const mapShopGet = (r: ShopGetResult): PlatformShop => ({
  id: r.shop.id,
  name: r.shop.name,
  myshopifyDomain: r.shop.myshopifyDomain,
  currencyCode: r.shop.currencyCode,
  planDisplayName: r.shop.plan.publicDisplayName,
  partnerDevelopment: r.shop.plan.partnerDevelopment,
  ianaTimezone: r.shop.ianaTimezone,
});
