// Entry point of the platform layer: a ShopifyPort for a shop, using its offline token.
import { prisma } from "../db.server";
import { openSessionToken } from "../shopify/session-tokens.server";
import { env } from "../env.server";
import { PlatformError } from "./errors";
import { createGraphqlAdapter } from "./graphql/adapter.server";
import { installSimulatorRouting } from "./routing.server";
import type { ShopifyPort } from "./port";
import type { CallPriority } from "./budget.server";

export type { ShopifyPort } from "./port";
export type { CallPriority } from "./budget.server";
export { knownBucket } from "./budget.server";
export { PlatformError, toApiErrorCode, isPlatformError } from "./errors";

/** Call once at process start (web, workers, CLI); platformFor also calls it. Idempotent. */
export function ensurePlatformRouting(): void {
  const url = env().SHOPIFY_SIMULATOR_URL;
  if (url) installSimulatorRouting(url);
}

export const offlineSessionId = (shop: string) => `offline_${shop}`;

/**
 * The shop's port. Every call it makes waits its turn at the shop's shared budget with `priority`
 * (docs/decisions/096-shop-budget.md): interactive unless the caller is background work.
 */
export async function platformFor(shopDomain: string, priority: CallPriority = "interactive"): Promise<ShopifyPort> {
  ensurePlatformRouting();
  const session = await prisma.session.findUnique({
    where: { id: offlineSessionId(shopDomain) },
    select: { accessToken: true },
  });
  if (!session?.accessToken) {
    throw new PlatformError("shop_unavailable", `No offline access token for ${shopDomain}: the app is not installed there`);
  }
  return createGraphqlAdapter(shopDomain, openSessionToken(offlineSessionId(shopDomain), session.accessToken), { priority });
}
