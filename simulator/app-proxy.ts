// The simulated storefront's customer accounts and Shopify's app proxy (docs/simulator.md#app-proxy).
//
// A shop's storefront answers on its own host, `<shop domain>.localhost:<port>` (Chromium sends
// every *.localhost name to the loopback), so its root is "/" as on a real shop domain and the
// app proxy's `path_prefix` links work unchanged; the same pages also answer under
// /storefront/<shop>/ for clients that cannot pick a host.
//
// The proxy does what Shopify documents: /apps/<subpath>/* is forwarded to the app's proxy URL
// (shopify.app.toml [app_proxy]) with the shopper's query plus shop, path_prefix, timestamp,
// logged_in_customer_id and signature, a hex HMAC-SHA256 with the app's secret of the other
// parameters sorted by name and joined without separators (a repeated name joins its values
// with commas). Cookies never reach the app and none come back; an answer of type
// application/liquid is rendered with liquidjs inside the theme layout. This file signs on its
// own; it shares no code with the app's verification.
import { createHmac, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { Liquid } from "liquidjs";
import { parse as parseToml } from "smol-toml";
import type { SimCore } from "./core";
import type { HttpAnswer } from "./http-answer";
import type { ShopState } from "./state";

export interface AppProxyConfig {
  prefix: string;
  subpath: string;
  /** The path part of [app_proxy] url: joined to the app's URL, like webhook uris. */
  path: string;
}

export function readAppProxyConfig(tomlPath: string | undefined): AppProxyConfig | null {
  if (!tomlPath || !existsSync(tomlPath)) return null;
  const toml = parseToml(readFileSync(tomlPath, "utf8")) as { app_proxy?: { url?: string; prefix?: string; subpath?: string } };
  const p = toml.app_proxy;
  if (!p?.url || !p.prefix || !p.subpath) return null;
  return { prefix: p.prefix, subpath: p.subpath, path: new URL(p.url).pathname.replace(/\/$/, "") };
}

/** Shopify's app proxy signature over a query (without `signature`). */
export function signProxyQuery(params: [string, string][], secret: string): string {
  const grouped = new Map<string, string[]>();
  for (const [k, v] of params) grouped.set(k, [...(grouped.get(k) ?? []), v]);
  const message = [...grouped.keys()]
    .sort()
    .map((k) => `${k}=${grouped.get(k)!.join(",")}`)
    .join("");
  return createHmac("sha256", secret).update(message, "utf8").digest("hex");
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const SESSION_COOKIE = "sim_customer";
const sessionToken = (cookie: string | undefined) => new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([A-Za-z0-9_-]+)`).exec(cookie ?? "")?.[1];

/** The storefront customer signed in by this browser, if any. */
function signedIn(shop: ShopState, cookie: string | undefined) {
  const t = sessionToken(cookie);
  const id = t ? shop.storefrontSessions?.[t] : undefined;
  return id ? shop.customers[id] : undefined;
}

const liquid = new Liquid({ strictFilters: true });

/** The theme's layout (layout/theme.liquid): header, the page's content, footer. */
const LAYOUT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{{ page_title }} · {{ shop.name }}</title><link rel="icon" href="data:,">
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1a1a1a}header,main,footer{max-width:720px;margin:0 auto;padding:12px 16px}header{display:flex;flex-wrap:wrap;gap:12px;align-items:center;justify-content:space-between;border-bottom:1px solid #ddd}header a{color:#1a1a1a}footer{color:#555;font-size:14px}</style></head>
<body><header><a href="{{ routes.root_url }}"><strong>{{ shop.name }}</strong></a><nav aria-label="Account"><a href="{{ routes.account_url }}">{% if customer %}{{ customer.first_name }}'s account{% else %}Log in{% endif %}</a></nav></header>
<main id="MainContent">{{ content_for_layout }}</main><footer>© {{ shop.name }}</footer></body></html>`;

const page = (status: number, html: string, headers: Record<string, string> = {}): HttpAnswer => ({
  status,
  body: null,
  text: html,
  headers: { "Content-Type": "text/html; charset=utf-8", ...headers },
});

async function themed(shop: ShopState, base: string, cookie: string | undefined, title: string, content: string, status = 200): Promise<HttpAnswer> {
  const c = signedIn(shop, cookie);
  const html = await liquid.parseAndRender(LAYOUT, {
    ...liquidGlobals(shop, base, c),
    page_title: title,
    content_for_layout: content,
  });
  return page(status, html);
}

function liquidGlobals(shop: ShopState, base: string, c: ShopState["customers"][string] | undefined) {
  return {
    shop: { name: shop.name, permanent_domain: shop.domain, currency: shop.currencyCode },
    customer: c ? { id: Number(c.id.split("/").pop()), first_name: c.firstName, last_name: c.lastName, email: c.email } : null,
    routes: {
      root_url: `${base}/`,
      account_url: `${base}/account`,
      account_login_url: `${base}/account/login`,
      account_logout_url: `${base}/account/logout`,
    },
  };
}

const redirect = (location: string, headers: Record<string, string> = {}): HttpAnswer => ({
  status: 302,
  body: null,
  text: "",
  headers: { Location: location, ...headers },
});

/** A return path on this storefront only (never another host). */
const localPath = (raw: unknown, fallback: string) => (typeof raw === "string" && /^\/(?!\/)[^\\\s]*$/.test(raw) ? raw : fallback);

export interface ProxyRequest {
  core: SimCore;
  shop: ShopState;
  /** "" on the shop's own host; "/storefront/<shop>" in path mode. */
  base: string;
  /** The path below the storefront root, with the query. */
  path: string;
  search: URLSearchParams;
  method: string;
  rawBody: string;
  contentType: string | undefined;
  cookie: string | undefined;
  proxy: AppProxyConfig | null;
}

/** Account pages and the app proxy; null for any other storefront path. */
export async function handleAccountAndProxy(r: ProxyRequest): Promise<HttpAnswer | null> {
  const { shop, base, path, method } = r;
  if (path === "/account/login" && method === "GET") {
    const back = localPath(r.search.get("return_url"), `${base}/account`);
    const options = Object.values(shop.customers)
      .map((c) => `<option value="${esc(c.id)}">${esc(`${c.firstName} ${c.lastName}`.trim())}${c.email ? ` (${esc(c.email)})` : ""}</option>`)
      .join("");
    return themed(
      shop,
      base,
      r.cookie,
      "Log in",
      `<h1>Log in</h1><p>Demo store: pick one of the shop's customers (no password).</p>
<form method="post" action="${base}/account/login"><input type="hidden" name="return_url" value="${esc(back)}">
<label for="customer">Customer</label><br><select id="customer" name="customer_id">${options}</select>
<p><button type="submit">Sign in</button></p></form>`,
    );
  }
  if (path === "/account/login" && method === "POST") {
    const form = new URLSearchParams(r.rawBody);
    const id = form.get("customer_id") ?? "";
    if (!shop.customers[id]) return themed(shop, base, r.cookie, "Log in", '<h1>Log in</h1><p role="alert">No such customer.</p>', 422);
    const token = randomBytes(16).toString("base64url");
    shop.storefrontSessions = { ...(shop.storefrontSessions ?? {}), [token]: id };
    r.core.changed();
    return redirect(localPath(form.get("return_url"), `${base}/account`), {
      "Set-Cookie": `${SESSION_COOKIE}=${token}; Path=${base || "/"}; HttpOnly; SameSite=Lax`,
    });
  }
  if (path === "/account/logout" && method === "POST") {
    const t = sessionToken(r.cookie);
    if (t && shop.storefrontSessions?.[t]) {
      delete shop.storefrontSessions[t];
      r.core.changed();
    }
    return redirect(`${base}/`, { "Set-Cookie": `${SESSION_COOKIE}=; Path=${base || "/"}; Max-Age=0` });
  }
  if (path === "/account" && method === "GET") {
    const c = signedIn(shop, r.cookie);
    if (!c) return redirect(`${base}/account/login`);
    const portal = r.proxy ? `<p><a href="${base}/${r.proxy.prefix}/${r.proxy.subpath}">Manage subscriptions</a></p>` : "";
    return themed(
      shop,
      base,
      r.cookie,
      "Account",
      `<h1>Hello, ${esc(c.firstName)}</h1>${portal}<form method="post" action="${base}/account/logout"><button type="submit">Log out</button></form>`,
    );
  }
  if (path === "/" && method === "GET") {
    const products = Object.values(shop.products)
      .map((p) => `<li><a href="${base}/products/${esc(p.id.split("/").pop()!)}">${esc(p.title)}</a></li>`)
      .join("");
    return themed(shop, base, r.cookie, shop.name, `<h1>${esc(shop.name)}</h1><ul aria-label="Products">${products}</ul>`);
  }
  const proxy = r.proxy;
  if (!proxy) return null;
  const prefix = `/${proxy.prefix}/${proxy.subpath}`;
  if (path !== prefix && !path.startsWith(`${prefix}/`)) return null;
  return forward(r, proxy, prefix);
}

async function forward(r: ProxyRequest, proxy: AppProxyConfig, prefix: string): Promise<HttpAnswer> {
  const c = signedIn(r.shop, r.cookie);
  const params: [string, string][] = [...r.search.entries()].filter(([k]) => k !== "signature");
  // Shopify's parameters replace any the shopper sent under the same names.
  const own = new Set(["shop", "path_prefix", "timestamp", "logged_in_customer_id"]);
  const query = params.filter(([k]) => !own.has(k));
  query.push(
    ["shop", r.shop.domain],
    ["path_prefix", prefix],
    ["timestamp", String(Math.floor(Date.now() / 1000))],
    ["logged_in_customer_id", c ? c.id.split("/").pop()! : ""],
  );
  const signature = signProxyQuery(query, r.core.config.apiSecret);
  const target = new URL(`${r.core.config.appUrl.replace(/\/$/, "")}${proxy.path}${r.path.slice(prefix.length)}`);
  for (const [k, v] of query) target.searchParams.append(k, v);
  target.searchParams.set("signature", signature);
  const headers: Record<string, string> = { Accept: "text/html, application/liquid" };
  if (r.contentType) headers["Content-Type"] = r.contentType;
  let res: Response;
  try {
    res = await fetch(target, { method: r.method, headers, body: r.method === "GET" || r.method === "HEAD" ? undefined : r.rawBody, redirect: "manual" });
  } catch {
    return themed(r.shop, r.base, r.cookie, "Unavailable", "<h1>This page is unavailable</h1><p>The app did not answer.</p>", 502);
  }
  const text = await res.text();
  const location = res.headers.get("location");
  if (res.status >= 300 && res.status < 400 && location) {
    // The app's redirects are paths on the shop's domain; in path mode they get the storefront's base.
    return redirect(location.startsWith("/") && !location.startsWith("//") ? `${r.base}${location}` : location);
  }
  const type = res.headers.get("content-type") ?? "text/plain";
  if (!type.startsWith("application/liquid")) return { status: res.status, body: null, text, headers: { "Content-Type": type } };
  const layoutNone = /^\s*{%-?\s*layout\s+none\s*-?%}/.test(text);
  const body = await liquid.parseAndRender(text.replace(/^\s*{%-?\s*layout\s+none\s*-?%}/, ""), liquidGlobals(r.shop, r.base, c));
  if (layoutNone) return page(res.status, body);
  const title = /<h1[^>]*>([^<]*)<\/h1>/.exec(body)?.[1] ?? "Subscriptions";
  return themed(r.shop, r.base, r.cookie, title, body, res.status);
}
