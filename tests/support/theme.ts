// Renders the theme app extension's blocks (extensions/subscriptions-theme) with liquidjs, the
// way a Shopify theme would: product.metafields['$app'].<key>.value is the parsed JSON the app
// wrote, and Shopify's own filters (t, money, asset_url) are given their storefront behaviour.
// The {% schema %} block is Shopify metadata and never rendered, so it is cut before parsing.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Liquid } from "liquidjs";

export const THEME_ROOT = "extensions/subscriptions-theme";
export type BlockName = "bundle-plan" | "mix-match";
export type ThemeLocale = "en.default" | "fr";

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

function lookup(tree: unknown, key: string): string | undefined {
  const v = key.split(".").reduce<unknown>((node, part) => (node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined), tree);
  return typeof v === "string" ? v : undefined;
}

export const readLocale = (name: string) => JSON.parse(readFileSync(path.join(THEME_ROOT, "locales", `${name}.json`), "utf8")) as Record<string, unknown>;

function engine(locale: ThemeLocale) {
  const liquid = new Liquid({ strictFilters: true });
  const strings = readLocale(locale);
  const fallback = readLocale("en.default");
  // Shopify passes keyword arguments to t as interpolations ({{ name }} in the string).
  liquid.registerFilter("t", (key: string, ...args: [string, unknown][]) => {
    const template = lookup(strings, key) ?? lookup(fallback, key);
    if (template === undefined) return `translation missing: ${locale}.${key}`;
    const vars = Object.fromEntries(args);
    return template.replace(/{{\s*(\w+)\s*}}/g, (_, name: string) => escapeHtml(String(vars[name] ?? "")));
  });
  // The shop's money format for a USD shop: cents in, "$12.50" out.
  liquid.registerFilter("money", (cents: number) => `$${(Number(cents) / 100).toFixed(2)}`);
  liquid.registerFilter("asset_url", (file: string) => `/extensions/subscriptions-theme/assets/${file}`);
  return liquid;
}

export interface RenderInput {
  /** The metafield values exactly as stored on the platform (JSON text), by key. */
  metafields: Partial<Record<"bundle_plan" | "mix_match", string>>;
  locale?: ThemeLocale;
  sectionId?: string;
  blockId?: string;
  settings?: Record<string, unknown>;
  /** Shopify's `routes` object; a storefront under a path (the simulator's /storefront/<shop>) has its own. */
  routes?: { cart_add_url: string; cart_url: string; root_url: string };
}

export async function renderBlock(name: BlockName, input: RenderInput): Promise<string> {
  const source = readFileSync(path.join(THEME_ROOT, "blocks", `${name}.liquid`), "utf8").replace(/{%-?\s*schema\s*-?%}[\s\S]*?{%-?\s*endschema\s*-?%}/, "");
  const app: Record<string, { value: unknown }> = {};
  for (const [key, json] of Object.entries(input.metafields)) if (json !== undefined) app[key] = { value: JSON.parse(json) };
  return engine(input.locale ?? "en.default").parseAndRender(source, {
    product: { metafields: { $app: app } },
    block: { id: input.blockId ?? "b1", settings: input.settings ?? {}, shopify_attributes: 'data-shopify-editor-block="b1"' },
    section: { id: input.sectionId ?? "main" },
    routes: input.routes ?? { cart_add_url: "/cart/add", cart_url: "/cart", root_url: "/" },
  });
}

/** A storefront product page around a rendered block: the theme's product form and the block. */
export function productPage(block: string, opts: { sectionId?: string; variantId?: string } = {}): string {
  const section = opts.sectionId ?? "main";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Product</title></head><body><main>
<form id="product-form-${section}" action="/cart/add" method="post"><input type="hidden" name="id" value="${opts.variantId ?? "1"}"><button type="submit">Add to cart</button></form>
${block}
</main></body></html>`;
}
