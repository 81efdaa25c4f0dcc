// Shopify admin around the embedded app, simulated: a page that frames the app exactly as admin
// does (embedded=1, shop, host, a fresh id_token signed with the API secret) and a stand-in for
// App Bridge (window.shopify.idToken(), and a session-token Authorization header on the app's
// own fetches, which is how the embedded app's loaders and actions authenticate).
import type { HttpAnswer } from "./admin-graphql";
import type { SimCore } from "./core";
import { mintSessionToken } from "./jwt";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function adminFramePage(core: SimCore, shopDomain: string): HttpAnswer {
  const shop = core.shop(shopDomain);
  if (!shop?.installation) {
    return { status: 404, body: null, text: `<h1>No installed shop ${escapeHtml(shopDomain)} in the simulator</h1>`, headers: { "Content-Type": "text/html; charset=utf-8" } };
  }
  const { appUrl, apiKey, apiSecret } = core.config;
  const host = Buffer.from(`admin.shopify.com/store/${shopDomain.replace(/\.myshopify\.com$/, "")}`).toString("base64url");
  const token = mintSessionToken({ shop: shopDomain, apiKey, apiSecret, now: core.now() });
  const src = `${appUrl}/app?${new URLSearchParams({ embedded: "1", shop: shopDomain, host, id_token: token, locale: "en" })}`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(shop.name)} · Shopify admin (simulated)</title>
<style>body{margin:0;font-family:system-ui,sans-serif;background:#f1f1f1}header{padding:10px 16px;background:#1a1a1a;color:#fff;font-size:14px}
iframe{border:0;width:100%;height:calc(100vh - 40px);display:block;background:#fff}</style></head>
<body><header>Shopify admin (simulated) · ${escapeHtml(shopDomain)} · Apps › Subscriptions Service</header>
<iframe id="app-iframe" title="Subscriptions Service" src="${escapeHtml(src)}"></iframe></body></html>`;
  return { status: 200, body: null, text: html, headers: { "Content-Type": "text/html; charset=utf-8" } };
}

/** The App Bridge stand-in; `simUrl` is this simulator's public address. */
export function appBridgeScript(simUrl: string): HttpAnswer {
  const js = `// App Bridge stand-in served by the platform simulator (never in production).
(function () {
  var SIM = ${JSON.stringify(simUrl)};
  var params = new URLSearchParams(location.search);
  var shop = params.get("shop") || sessionStorage.getItem("svc-sim-shop");
  if (shop) sessionStorage.setItem("svc-sim-shop", shop);
  async function idToken() {
    var res = await nativeFetch(SIM + "/_sim/shops/" + encodeURIComponent(shop) + "/session-token", { method: "POST", body: "{}" });
    return (await res.json()).token;
  }
  var nativeFetch = window.fetch.bind(window);
  window.fetch = async function (input, init) {
    var url = new URL(typeof input === "string" || input instanceof URL ? String(input) : input.url, location.href);
    if (url.origin === location.origin && shop) {
      init = Object.assign({}, init);
      var headers = new Headers(init.headers || (input instanceof Request ? input.headers : undefined));
      if (!headers.has("Authorization")) headers.set("Authorization", "Bearer " + (await idToken()));
      init.headers = headers;
    }
    return nativeFetch(input, init);
  };
  var script = document.currentScript;
  window.shopify = {
    config: { shop: shop, apiKey: script && script.dataset.apiKey },
    idToken: idToken,
    toast: { show: function (message) { console.log("[toast]", message); } },
  };
})();
`;
  return { status: 200, body: null, text: js, headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-store" } };
}
