// Who the subscribers are, for the merchant's screens: names and e-mails read live from Shopify and
// kept in this process for a minute, never written to the database (the mirror holds no names;
// docs/decisions/134-customer-names-live.md). The merchant sees the same in Shopify admin.
import { platformFor } from "../../platform/index.server";
import type { CustomerName } from "../../platform/port";
import { CUSTOMERS_SEARCH_MAX } from "../../platform/graphql/customers-search";

const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;
const cache = new Map<string, { at: number; name: CustomerName | null }>();

function remember(shopId: string, gid: string, name: CustomerName | null, now: number): void {
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(`${shopId}|${gid}`, { at: now, name });
}

/** The names and e-mails of these customers (absent: Shopify has no such customer). */
export async function customerNames(shop: { id: string; domain: string }, gids: readonly string[]): Promise<Map<string, CustomerName>> {
  const now = Date.now();
  const out = new Map<string, CustomerName>();
  const missing: string[] = [];
  for (const gid of new Set(gids)) {
    const hit = cache.get(`${shop.id}|${gid}`);
    if (hit && now - hit.at < TTL_MS) {
      if (hit.name) out.set(gid, hit.name);
    } else missing.push(gid);
  }
  if (missing.length) {
    const found = new Map((await (await platformFor(shop.domain)).getCustomers(missing)).map((c) => [c.id, c]));
    for (const gid of missing) {
      const c = found.get(gid);
      const name = c ? { id: c.id, firstName: c.firstName, lastName: c.lastName, email: c.email } : null;
      remember(shop.id, gid, name, now);
      if (name) out.set(gid, name);
    }
  }
  return out;
}

/**
 * The customers Shopify finds for what the merchant typed: an e-mail address exactly, otherwise
 * Shopify's search over names and e-mail (every word must match). Quotes and field prefixes are
 * taken as text, so a search cannot become another query.
 */
export async function customersMatching(shop: { id: string; domain: string }, text: string): Promise<CustomerName[]> {
  const words = text.replace(/["\\:()]/g, " ").trim();
  if (!words) return [];
  const query = /^\S+@\S+$/.test(words) ? `email:"${words}"` : words;
  const found = await (await platformFor(shop.domain)).searchCustomers(query, CUSTOMERS_SEARCH_MAX);
  for (const c of found) remember(shop.id, c.id, c, Date.now());
  return found;
}

export const displayName = (c: CustomerName | undefined): string | null => (c ? [c.firstName, c.lastName].filter(Boolean).join(" ") || c.email : null);
