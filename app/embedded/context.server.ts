// What every embedded admin loader and action starts with: Shopify's own authentication of the
// request (authenticate.admin, exactly as in production), then the shop row it belongs to.
// Tenancy: every query a page makes is scoped by this shop's id, never by a parameter.
import { authenticate } from "../shopify.server";
import { shopForAdmin } from "../domain/shop/lifecycle.server";
import { withActor, type Actor } from "../infra/actor.server";

type AdminContext = Awaited<ReturnType<typeof authenticateAdmin>>;

async function authenticateAdmin(request: Request) {
  const { session, admin, sessionToken } = await authenticate.admin(request);
  const shop = await shopForAdmin(session.shop);
  // The staff member by Shopify user id: the session token's `sub` (docs/decisions/125-audit-log.md).
  const actor: Actor = { type: "staff", id: String(sessionToken?.sub ?? "unknown") };
  return { session, admin, shop, actor };
}

// One authentication per request, however many helpers ask for it (staffAction and the action itself).
const seen = new WeakMap<Request, Promise<AdminContext>>();

export function adminContext(request: Request): Promise<AdminContext> {
  let ctx = seen.get(request);
  if (!ctx) {
    ctx = authenticateAdmin(request);
    seen.set(request, ctx);
  }
  return ctx;
}

/**
 * An embedded admin action that changes something: it runs with the signed-in staff member as the
 * actor every audit row below it records (app/infra/actor.server.ts).
 */
// Called inside the route's own `action` function (not as its value), so Remix's client build can drop it.
export async function staffAction<A extends { request: Request }, R>(args: A, handler: (args: A) => Promise<R>): Promise<R> {
  const { actor } = await adminContext(args.request);
  return withActor(actor, () => handler(args));
}
