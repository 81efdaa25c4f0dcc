// A newcomer's first minutes, over real HTTP against the built app: `/` says what this is and
// where to go (the simulated Shopify admin in simulator mode, the API reference, the Shopify
// login); `/app` opened outside Shopify admin goes to Shopify's login page (`/auth/login`, the
// shop domain form of the library's login()), never a 500.
import { env } from "../../../app/env.server";
import { useStack } from "../../support/stack";

const stack = useStack({ workers: false });

// The Shopify library answers requests that look like bots with 410: this is a browser.
const BROWSER = { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36" };
const get = (path: string, init: RequestInit = {}) =>
  fetch(`${stack.appUrl}${path}`, { redirect: "manual", ...init, headers: { ...BROWSER, ...(init.headers ?? {}) } });
const postLogin = (shop: string) =>
  get("/auth/login", { method: "POST", body: new URLSearchParams({ shop }), headers: { "Content-Type": "application/x-www-form-urlencoded" } });

describe("the root page", () => {
  it("says what this is and links to the simulated admin, the API reference and the login", async () => {
    const res = await get("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain("Subscriptions Service");
    expect(html).toContain("embedded Shopify app for recurring revenue");
    const sim = env().SHOPIFY_SIMULATOR_URL!;
    expect(html).toContain(`href="${sim}/admin/demo-shop.myshopify.com"`);
    expect(html).toContain('href="/docs"');
    expect(html).toContain('href="/auth/login"');
  });

  it("sends Shopify's launch of the app URL (?shop=) on to the embedded app", async () => {
    const res = await get("/?shop=x.myshopify.com&host=YWRtaW4");
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!, stack.appUrl).pathname + new URL(res.headers.get("location")!, stack.appUrl).search).toBe(
      "/app?shop=x.myshopify.com&host=YWRtaW4",
    );
  });
});

describe("/app outside Shopify admin", () => {
  it.each(["/app", "/app/keys", "/app/subscriptions"])("%s goes to the Shopify login page, which answers with the shop domain form", async (path) => {
    const res = await get(path);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!, stack.appUrl);
    expect(location.pathname).toBe("/auth/login");
    const login = await get(location.pathname + location.search);
    expect(login.status).toBe(200);
    const html = await login.text();
    expect(html).toMatch(/<form[^>]*method="post"/);
    expect(html).toContain('name="shop"');
    expect(html).toContain("Shop domain");
  });

  it("the login form refuses a missing or malformed shop domain with a message, and sends a valid one to the shop's admin", async () => {
    const missing = await postLogin("");
    expect(missing.status).toBe(200); // the form again, with its message
    expect(await missing.text()).toContain("Enter your shop");
    const bad = await postLogin("not a shop!");
    expect(bad.status).toBe(200);
    expect(await bad.text()).toContain("not a shop domain");
    const ok = await postLogin("demo-shop");
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe(`https://admin.shopify.com/store/demo-shop/oauth/install?client_id=${env().SHOPIFY_API_KEY}`);
    const viaQuery = await get("/auth/login?shop=bad%20shop");
    expect(viaQuery.status).toBe(200);
    expect(await viaQuery.text()).toContain("not a shop domain");
  });
});
