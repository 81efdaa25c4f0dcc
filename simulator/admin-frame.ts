// Shopify admin around the embedded app, simulated: a page that frames the app exactly as admin
// does (embedded=1, shop, host, a fresh id_token signed with the API secret), renders the app's
// navigation (App Bridge's <ui-nav-menu>) as admin's sidebar, shows toasts, follows redirects
// of the top frame (billing confirmation), and a stand-in for App Bridge inside the app
// (window.shopify.idToken(), and a session-token Authorization header on the app's own fetches,
// which is how the embedded app's loaders and actions authenticate). docs/simulator.md.
//
// The two halves talk by postMessage, as App Bridge and admin do, each checking the other's
// origin: app → admin `svc-sim:nav` (menu items), `svc-sim:location` (the app's path, shown in
// the address bar), `svc-sim:toast`, `svc-sim:redirect` (window.open(url, "_top")); admin → app
// `svc-sim:navigate` (a sidebar click, delivered as App Bridge's `shopify:navigate` event).
import type { SimCore } from "./core";
import { mintSessionToken } from "./jwt";
import type { HttpAnswer } from "./http-answer";
import { PICKER_ADMIN_JS, PICKER_BRIDGE_JS } from "./resource-picker";
import { SAVE_BAR_ADMIN_JS, SAVE_BAR_BRIDGE_JS } from "./save-bar";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const html = (status: number, text: string): HttpAnswer => ({ status, body: null, text, headers: { "Content-Type": "text/html; charset=utf-8" } });

/** The store handle admin uses in its URLs: admin.shopify.com/store/<handle>/apps/<app>/<path>. */
export const storeHandle = (shopDomain: string) => shopDomain.replace(/\.myshopify\.com$/, "");

/**
 * Admin's page for the app. `appPath` is the app-relative path to open (admin URLs
 * /admin/<shop>/apps/<api key>/<path> deep-link into the app, as admin.shopify.com's do), and
 * `extra` carries query parameters through to the app (e.g. a billing return's charge_id).
 */
export function adminFramePage(core: SimCore, shopDomain: string, simUrl: string, appPath = "/app", extra?: URLSearchParams): HttpAnswer {
  const shop = core.shop(shopDomain);
  if (!shop?.installation) return html(404, `<h1>No installed shop ${escapeHtml(shopDomain)} in the simulator</h1>`);
  const { appUrl, apiKey, apiSecret } = core.config;
  const host = Buffer.from(`admin.shopify.com/store/${storeHandle(shopDomain)}`).toString("base64url");
  const token = mintSessionToken({ shop: shopDomain, apiKey, apiSecret, now: core.now() });
  const params = new URLSearchParams(extra);
  for (const [k, v] of Object.entries({ embedded: "1", shop: shopDomain, host, id_token: token, locale: "en" })) params.set(k, v);
  const path = appPath.startsWith("/") ? appPath : `/${appPath}`;
  const src = `${appUrl}${path}?${params}`;
  const adminBase = `/admin/${encodeURIComponent(shopDomain)}/apps/${encodeURIComponent(apiKey)}`;
  const config = { appOrigin: new URL(appUrl).origin, simOrigin: new URL(simUrl).origin, adminBase, shop: shopDomain };
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(shop.name)} · Shopify admin (simulated)</title><link rel="icon" href="data:,">
<style>
*{box-sizing:border-box}body{margin:0;font-family:system-ui,sans-serif;background:#f1f1f1;color:#1a1a1a}
header{display:flex;align-items:center;gap:12px;padding:8px 16px;background:#1a1a1a;color:#fff;font-size:14px;min-height:44px}
header .title{flex:1;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
#menu-toggle{display:none;background:#303030;color:#fff;border:1px solid #616161;border-radius:8px;padding:6px 12px;font:inherit;cursor:pointer}
.shell{display:grid;grid-template-columns:220px 1fr;height:calc(100vh - 44px)}
nav#app-nav{background:#ebebeb;border-right:1px solid #d4d4d4;padding:12px 8px;overflow-y:auto}
nav#app-nav h2{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:#4a4a4a;margin:4px 8px 8px}
nav#app-nav ul{list-style:none;margin:0;padding:0}
nav#app-nav a{display:block;padding:8px 10px;border-radius:8px;color:#1a1a1a;text-decoration:none;font-size:14px}
nav#app-nav a:hover{background:#e3e3e3}nav#app-nav a[aria-current=page]{background:#fff;font-weight:600}
iframe{border:0;width:100%;height:100%;display:block;background:#fff}
#toasts{position:fixed;bottom:24px;left:50%;transform:translateX(-50%);display:flex;flex-direction:column;gap:8px;z-index:10}
#toasts div{background:#1a1a1a;color:#fff;padding:10px 16px;border-radius:8px;font-size:14px}
@media (max-width:768px){#menu-toggle{display:block}.shell{grid-template-columns:1fr;grid-template-rows:auto 1fr}.shell>main{grid-row:2;min-height:0}
nav#app-nav{display:none;border-right:0;border-bottom:1px solid #d4d4d4}nav#app-nav.open{display:block}}
</style></head>
<body><header><span class="title">Shopify admin (simulated) · ${escapeHtml(shopDomain)} · Apps › Subscriptions Service</span>
<button id="menu-toggle" type="button" aria-expanded="false" aria-controls="app-nav">Menu</button></header>
<div class="shell"><nav id="app-nav" aria-label="Subscriptions Service"><h2>Subscriptions Service</h2><ul></ul></nav>
<main><iframe id="app-iframe" title="Subscriptions Service" allow="clipboard-write" src="${escapeHtml(src)}"></iframe></main></div>
<div id="toasts" role="status" aria-live="polite"></div>
<script>
(function () {
  var CFG = ${JSON.stringify(config).replace(/</g, "\\u003c")};
  var frame = document.getElementById("app-iframe");
  var nav = document.getElementById("app-nav");
  var list = nav.querySelector("ul");
  var toggle = document.getElementById("menu-toggle");
  var items = [];
  var current = ${JSON.stringify(path).replace(/</g, "\\u003c")};
  toggle.addEventListener("click", function () {
    var open = nav.classList.toggle("open");
    toggle.setAttribute("aria-expanded", String(open));
  });
  function render() {
    list.textContent = "";
    items.forEach(function (item) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.textContent = item.label;
      a.href = CFG.adminBase + item.href;
      var active = item.href === current || (item.href !== "/app" && current.indexOf(item.href + "/") === 0);
      if (active) a.setAttribute("aria-current", "page");
      a.addEventListener("click", function (e) {
        e.preventDefault();
        nav.classList.remove("open");
        toggle.setAttribute("aria-expanded", "false");
        leaveGuard(function () { frame.contentWindow.postMessage({ type: "svc-sim:navigate", href: item.href }, CFG.appOrigin); });
      });
      li.appendChild(a);
      list.appendChild(li);
    });
  }
  function toast(message) {
    var box = document.getElementById("toasts");
    var div = document.createElement("div");
    div.textContent = message;
    box.appendChild(div);
    setTimeout(function () { div.remove(); }, 5000);
  }
${PICKER_ADMIN_JS}
${SAVE_BAR_ADMIN_JS}
  window.addEventListener("message", function (e) {
    if (e.origin !== CFG.appOrigin || e.source !== frame.contentWindow || !e.data) return;
    var m = e.data;
    if (m.type === "svc-sim:nav" && Array.isArray(m.items)) { items = m.items; render(); }
    else if (m.type === "svc-sim:location" && typeof m.path === "string") {
      current = m.path;
      history.replaceState(null, "", CFG.adminBase + m.path + (m.search || ""));
      render();
    }
    else if (m.type === "svc-sim:toast") toast(String(m.message));
    else if (m.type === "svc-sim:resource-picker" && typeof m.id === "string") openPicker(m);
    else if (m.type === "svc-sim:save-bar" || m.type === "svc-sim:leave-confirmation") onSaveBarMessage(m);
    else if (m.type === "svc-sim:redirect" && typeof m.url === "string") {
      var target = new URL(m.url, location.href);
      // Only this simulator's own pages (billing confirmation) or the app: never elsewhere.
      if (target.origin === CFG.simOrigin || target.origin === CFG.appOrigin) location.assign(target.href);
    }
  });
})();
</script></body></html>`;
  return html(200, page);
}

/** The App Bridge stand-in; `simUrl` is this simulator's public address. */
export function appBridgeScript(simUrl: string): HttpAnswer {
  const js = `// App Bridge stand-in served by the platform simulator (never in production).
(function () {
  var SIM = ${JSON.stringify(simUrl)};
  var SIM_ORIGIN = new URL(SIM).origin;
  var params = new URLSearchParams(location.search);
  var shop = params.get("shop") || sessionStorage.getItem("svc-sim-shop");
  if (shop) sessionStorage.setItem("svc-sim-shop", shop);
  var nativeFetch = window.fetch.bind(window);
  async function idToken() {
    var res = await nativeFetch(SIM + "/_sim/shops/" + encodeURIComponent(shop) + "/session-token", { method: "POST", body: "{}" });
    return (await res.json()).token;
  }
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

  var framed = window.parent !== window;
  function toAdmin(message) { if (framed) window.parent.postMessage(message, SIM_ORIGIN); }

  // <ui-nav-menu>: admin renders it, the app's document does not.
  if (!customElements.get("ui-nav-menu")) customElements.define("ui-nav-menu", class extends HTMLElement {});
  var style = document.createElement("style");
  style.textContent = "ui-nav-menu{display:none}";
  document.head.appendChild(style);
  function menuLinks() { return Array.prototype.slice.call(document.querySelectorAll("ui-nav-menu a[href]")); }
  function sendMenu() {
    toAdmin({ type: "svc-sim:nav", items: menuLinks().map(function (a) {
      return { label: a.textContent.trim(), href: a.getAttribute("href"), home: a.getAttribute("rel") === "home" };
    }) });
  }
  function sendLocation() { toAdmin({ type: "svc-sim:location", path: location.pathname, search: "" }); }
  var lastMenu = "";
  new MutationObserver(function () {
    var now = menuLinks().map(function (a) { return a.getAttribute("href") + "|" + a.textContent; }).join(",");
    if (now !== lastMenu) { lastMenu = now; sendMenu(); }
  }).observe(document, { childList: true, subtree: true, characterData: true });
  document.addEventListener("DOMContentLoaded", function () { sendMenu(); sendLocation(); });
  ["pushState", "replaceState"].forEach(function (name) {
    var original = history[name];
    history[name] = function () { var r = original.apply(this, arguments); sendLocation(); return r; };
  });
  window.addEventListener("popstate", sendLocation);

  window.addEventListener("message", function (e) {
    if (e.origin !== SIM_ORIGIN || e.source !== window.parent || !e.data) return;
    if (e.data.type === "svc-sim:navigate") {
      var link = menuLinks().find(function (a) { return a.getAttribute("href") === e.data.href; });
      if (link) link.dispatchEvent(new CustomEvent("shopify:navigate", { bubbles: true }));
    }
  });

  // open(url, "_top") is how an embedded app leaves the frame (billing confirmation): admin does it.
  var nativeOpen = window.open.bind(window);
  window.open = function (url, target, features) {
    if (framed && (target === "_top" || target === "_parent")) {
      toAdmin({ type: "svc-sim:redirect", url: new URL(String(url), location.href).href });
      return null;
    }
    return nativeOpen(url, target, features);
  };

${PICKER_BRIDGE_JS}
${SAVE_BAR_BRIDGE_JS}
  var script = document.currentScript;
  window.shopify = {
    config: { shop: shop, apiKey: script && script.dataset.apiKey },
    idToken: idToken,
    toast: { show: function (message) { toAdmin({ type: "svc-sim:toast", message: String(message) }); } },
    resourcePicker: resourcePicker,
    saveBar: saveBarApi,
  };
})();
`;
  return { status: 200, body: null, text: js, headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-store" } };
}
