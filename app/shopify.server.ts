// The Shopify app: OAuth/token exchange, embedded-admin auth, session storage, webhook HMAC.
// Webhook subscriptions themselves are declared in shopify.app.toml (app-specific webhooks).
import "@shopify/shopify-app-remix/adapters/node";
import { AppDistribution, LogSeverity, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { EncryptedSessionStorage } from "./shopify/encrypted-session-storage.server";
import { prisma } from "./db.server";
import { env } from "./env.server";
import { LIBRARY_API_VERSION } from "./platform/api-version";
import { ensurePlatformRouting } from "./platform/index.server";
import { markInstalled } from "./domain/shop/lifecycle.server";
import { ensureStorefrontDefinitions } from "./domain/storefront/definitions.server";
import { log } from "./infra/log.server";

// In simulator mode, *.myshopify.com traffic (token exchange included) goes to the simulator.
ensurePlatformRouting();

const config = env();

const shopify = shopifyApp({
  apiKey: config.SHOPIFY_API_KEY,
  apiSecretKey: config.SHOPIFY_API_SECRET,
  // Pinned with the adapter to one version (docs/decisions/031-shopify-api-version.md).
  apiVersion: LIBRARY_API_VERSION,
  scopes: config.SCOPES.split(","),
  appUrl: config.SHOPIFY_APP_URL,
  authPathPrefix: "/auth",
  // Access tokens sealed at rest (docs/decisions/038-secrets-at-rest.md).
  sessionStorage: new EncryptedSessionStorage(new PrismaSessionStorage(prisma)),
  distribution: AppDistribution.AppStore,
  future: { unstable_newEmbeddedAuthStrategy: true },
  isEmbeddedApp: true,
  // The library logs an INFO line for every app proxy request (each hosted portal page): noise at
  // the portal's rate, and a console write per request. Warnings and errors still print
  // (docs/decisions/140-hosted-portal-app-proxy.md).
  logger: { level: LogSeverity.Warning },
  hooks: {
    // Token exchange just stored the offline session: the shop is (re)installed. Keys revoked
    // by an earlier uninstall stay revoked.
    afterAuth: async ({ session }) => {
      await markInstalled(session.shop);
      // Install and reinstall: the storefront metafield definitions (decision 123). Not awaited:
      // the merchant's first page does not wait on it, and every storefront sync makes them too.
      void ensureStorefrontDefinitions(session.shop).catch((err: unknown) =>
        log.warn("storefront metafield definitions not made at install; the next storefront sync makes them", { shop: session.shop, err }),
      );
    },
  },
});

export default shopify;
/** Shopify's frame headers; in simulator mode the simulated admin (its own origin) may frame the app too. */
export function addDocumentResponseHeaders(request: Request, headers: Headers): void {
  shopify.addDocumentResponseHeaders(request, headers);
  const csp = headers.get("Content-Security-Policy");
  if (config.SHOPIFY_SIMULATOR_URL && csp) {
    headers.set("Content-Security-Policy", csp.replace("frame-ancestors", `frame-ancestors ${new URL(config.SHOPIFY_SIMULATOR_URL).origin}`));
  }
  // The library preloads App Bridge from Shopify's CDN; in simulator mode the stand-in is loaded instead.
  if (config.SHOPIFY_SIMULATOR_URL) headers.delete("Link");
}

/** App Bridge: Shopify's CDN script, or the simulator's stand-in (docs/simulator.md). */
export const appBridgeSrc = (): string =>
  config.SHOPIFY_SIMULATOR_URL ? `${config.SHOPIFY_SIMULATOR_URL}/app-bridge.js` : "https://cdn.shopify.com/shopifycloud/app-bridge.js";
export const authenticate = shopify.authenticate;
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
export const sessionStorage = shopify.sessionStorage;
