import { afterEach, describe, expect, it } from "vitest";
import { installSimulatorRouting, rewriteShopifyUrl, uninstallSimulatorRouting } from "../../../app/platform/routing.server";

const SIM = "http://127.0.0.1:4999";

describe("rewriteShopifyUrl", () => {
  it("sends shop hosts to /shops/<host><path>, keeping the query", () => {
    expect(rewriteShopifyUrl("https://demo.myshopify.com/admin/api/2026-10/graphql.json?x=1", SIM)).toBe(
      `${SIM}/shops/demo.myshopify.com/admin/api/2026-10/graphql.json?x=1`,
    );
    expect(rewriteShopifyUrl("https://Demo.MyShopify.com/admin/oauth/access_token", `${SIM}/`)).toBe(
      `${SIM}/shops/demo.myshopify.com/admin/oauth/access_token`,
    );
  });

  it("sends shopify.com to /shopify.com/<path>", () => {
    expect(rewriteShopifyUrl("https://shopify.com/123/account/customer/api/2026-10/graphql", SIM)).toBe(
      `${SIM}/shopify.com/123/account/customer/api/2026-10/graphql`,
    );
  });

  it("leaves everything else alone", () => {
    for (const url of ["https://example.com/x", "http://demo.myshopify.com/x", "https://cdn.shopify.com/x", "https://myshopify.com.evil.io/", "not a url"]) {
      expect(rewriteShopifyUrl(url, SIM)).toBeNull();
    }
  });
});

describe("installSimulatorRouting", () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    uninstallSimulatorRouting();
    globalThis.fetch = realFetch;
  });

  it("re-addresses strings, URLs and Requests, preserving method, headers and body; is idempotent", async () => {
    const seen: { url: string; method: string; header: string | null; body: string }[] = [];
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      seen.push({ url: req.url, method: req.method, header: req.headers.get("x-test"), body: await req.text() });
      return new Response("ok");
    }) as typeof fetch;

    installSimulatorRouting("http://first.invalid");
    installSimulatorRouting(SIM);
    await fetch("https://a.myshopify.com/admin/x", { method: "POST", headers: { "x-test": "1" }, body: "one" });
    await fetch(new URL("https://shopify.com/1/y"), { method: "PUT", body: "two" });
    await fetch(new Request("https://b.myshopify.com/z?q=1", { method: "POST", headers: { "x-test": "3" }, body: "three" }));
    await fetch("https://example.com/untouched");

    expect(seen).toEqual([
      { url: `${SIM}/shops/a.myshopify.com/admin/x`, method: "POST", header: "1", body: "one" },
      { url: `${SIM}/shopify.com/1/y`, method: "PUT", header: null, body: "two" },
      { url: `${SIM}/shops/b.myshopify.com/z?q=1`, method: "POST", header: "3", body: "three" },
      { url: "https://example.com/untouched", method: "GET", header: null, body: "" },
    ]);
  });
});
