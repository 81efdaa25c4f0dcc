// What every embedded admin loader and action starts with: Shopify's own authentication of the
// request (authenticate.admin, exactly as in production), then the shop row it belongs to.
// Tenancy: every query a page makes is scoped by this shop's id, never by a parameter.
import { authenticate } from "../shopify.server";
import { shopForAdmin } from "../domain/shop/lifecycle.server";

export async function adminContext(request: Request) {
  const { session, admin } = await authenticate.admin(request);
  const shop = await shopForAdmin(session.shop);
  return { session, admin, shop };
}
