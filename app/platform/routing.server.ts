// Simulator mode without a second code path: the global fetch is wrapped once so requests meant
// for Shopify (https://<shop>.myshopify.com/..., https://shopify.com/...) go to the simulator
// instead. The GraphQL adapter, the token exchange of @shopify/shopify-api and anything else that
// calls fetch stay byte-for-byte what runs in production.
import { setAbstractFetchFunc } from "@shopify/shopify-api/runtime";

/** Where a Shopify URL goes in simulator mode, or null when it is not a Shopify URL. */
export function rewriteShopifyUrl(url: string, simulatorUrl: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== "https:") return null;
  const base = simulatorUrl.replace(/\/+$/, "");
  const rest = `${parsed.pathname}${parsed.search}`;
  const host = parsed.hostname.toLowerCase();
  if (host.endsWith(".myshopify.com")) return `${base}/shops/${host}${rest}`;
  if (host === "shopify.com") return `${base}/shopify.com${rest}`;
  return null;
}

interface RoutingState {
  original: typeof fetch;
  simulatorUrl: string;
}

const KEY = Symbol.for("subscriptions.platform.simulatorRouting");
type GlobalWithRouting = typeof globalThis & { [KEY]?: RoutingState };

/**
 * Installs the routing (idempotent: a second call only changes the target). Safe across Remix
 * dev reloads because the state lives on globalThis, not in this module.
 */
export function installSimulatorRouting(simulatorUrl: string): void {
  const g = globalThis as GlobalWithRouting;
  const existing = g[KEY];
  if (existing) {
    existing.simulatorUrl = simulatorUrl;
    return;
  }
  const state: RoutingState = { original: globalThis.fetch, simulatorUrl };
  g[KEY] = state;

  const routed: typeof fetch = (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const target = rewriteShopifyUrl(url, state.simulatorUrl);
    if (!target) return state.original(input, init);
    // A Request carries method, headers and body; re-address it without touching them.
    if (typeof input !== "string" && !(input instanceof URL)) return state.original(new Request(target, input), init);
    return state.original(target, init);
  };
  globalThis.fetch = routed;

  // @shopify/shopify-api captures `fetch` when its runtime adapter is imported, which may be
  // before this ran. Point it at the live global so token exchange follows the routing too.
  setAbstractFetchFunc((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
}

/** Restores the original fetch (tests). */
export function uninstallSimulatorRouting(): void {
  const g = globalThis as GlobalWithRouting;
  const existing = g[KEY];
  if (!existing) return;
  globalThis.fetch = existing.original;
  delete g[KEY];
}

export function simulatorRoutingTarget(): string | null {
  return (globalThis as GlobalWithRouting)[KEY]?.simulatorUrl ?? null;
}
