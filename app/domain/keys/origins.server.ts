// The shop's allowed origins (docs/decisions/132-allowed-origins.md): the web addresses, besides
// the shop's own, whose pages may call the Storefront and Customer APIs with a publishable key
// (a headless storefront, a customer portal). Kept on the shop's portal_configs row and read by
// the one authentication query (keys.server.ts) into the CORS check (app/http/cors.server.ts).
// Edited on the Storefront access page; every save leaves an audit row.
import { prisma } from "../../db.server";
import { auditResult, diffFields } from "../audit/audit.server";

export const ORIGIN_LIMITS = { maxOrigins: 20, maxLength: 200 } as const;

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export type OriginsCheck = { ok: true; origins: string[] } | { ok: false; error: string };

/**
 * One origin per entry: scheme and host (and port), nothing after. https only, except a computer's
 * own address (localhost) during development. Answers the origins normalised (lower case, no
 * default port, no trailing slash) and once each, or the first problem in a sentence.
 */
export function checkOrigins(entries: string[]): OriginsCheck {
  const origins: string[] = [];
  const given = entries.map((e) => e.trim()).filter(Boolean);
  if (given.length > ORIGIN_LIMITS.maxOrigins) return { ok: false, error: `List at most ${ORIGIN_LIMITS.maxOrigins} addresses.` };
  for (const entry of given) {
    const quoted = `“${entry.length > 60 ? `${entry.slice(0, 60)}…` : entry}”`;
    if (entry.length > ORIGIN_LIMITS.maxLength) return { ok: false, error: `${quoted} is too long for a web address.` };
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      return { ok: false, error: `${quoted} is not a web address. Write it with its scheme, such as https://shop.example.com.` };
    }
    if (url.protocol !== "https:" && url.protocol !== "http:")
      return { ok: false, error: `${quoted} is not a web address. Write it with its scheme, such as https://shop.example.com.` };
    if (url.protocol === "http:" && !LOCAL_HOSTS.has(url.hostname))
      return { ok: false, error: `${quoted} must start with https:// (plain http is accepted only for localhost, while you develop).` };
    if (url.username || url.password) return { ok: false, error: `${quoted} must not contain a user name or password.` };
    if (url.pathname !== "/" || url.search || url.hash || /[?#]/.test(entry))
      return { ok: false, error: `${quoted} has a path after the host. Write only the scheme and host, such as ${url.origin}.` };
    if (!origins.includes(url.origin)) origins.push(url.origin);
  }
  return { ok: true, origins };
}

export async function allowedOrigins(shopId: string): Promise<string[]> {
  const row = await prisma.portalConfig.findUnique({ where: { shopId }, select: { allowedOrigins: true } });
  return row?.allowedOrigins ?? [];
}

/** The origins allowed whatever the list says: the shop's own domain and its storefront domains as Shopify names them. */
export async function alwaysAllowedOrigins(shopId: string): Promise<string[]> {
  const shop = await prisma.shop.findUniqueOrThrow({ where: { id: shopId }, select: { domain: true, storefrontOrigins: true } });
  const own = `https://${shop.domain}`;
  return [own, ...shop.storefrontOrigins.filter((o) => o !== own)];
}

/** Validates and stores the whole list; the audit row names the list before and after (or the refusal). */
export async function saveAllowedOrigins(shopId: string, entries: string[]): Promise<OriginsCheck> {
  const before = await allowedOrigins(shopId);
  return auditResult(
    { shopId, action: "settings.allowed_origins", target: { type: "settings", id: "allowed_origins" } },
    async () => {
      const checked = checkOrigins(entries);
      if (!checked.ok) return checked;
      await prisma.portalConfig.upsert({
        where: { shopId },
        create: { shopId, allowedOrigins: checked.origins },
        update: { allowedOrigins: checked.origins },
      });
      return checked;
    },
    (r) => ({ ok: r.ok, changes: r.ok ? diffFields({ allowedOrigins: before }, { allowedOrigins: r.origins }, ["allowedOrigins"]) : {} }),
  );
}
