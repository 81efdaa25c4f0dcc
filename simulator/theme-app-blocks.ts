// The app blocks the simulated theme places on its product page, rendered from the app's theme
// app extension (extensions/subscriptions-theme) with liquidjs, as Shopify renders a deployed
// extension's blocks into a merchant's theme. Only the gift block so far: the simulated theme
// places it on every product sold on one of the app's selling plan groups (a merchant places it
// in the theme editor). Shopify's `t` filter reads the extension's English locale.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Liquid } from "liquidjs";

const ROOT = path.join(import.meta.dirname, "..", "extensions", "subscriptions-theme");

function lookup(tree: unknown, key: string): string {
  const v = key.split(".").reduce<unknown>((node, part) => (node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined), tree);
  return typeof v === "string" ? v : `translation missing: en.${key}`;
}

let liquid: Liquid | undefined;
function engine(): Liquid {
  if (liquid) return liquid;
  const strings = JSON.parse(readFileSync(path.join(ROOT, "locales", "en.default.json"), "utf8")) as unknown;
  liquid = new Liquid({ strictFilters: true });
  liquid.registerFilter("t", (key: string) => lookup(strings, key));
  return liquid;
}

/** The block's HTML, bound to the product form `formId`. */
export function renderAppBlock(name: "gift", formId: string): string {
  const source = readFileSync(path.join(ROOT, "blocks", `${name}.liquid`), "utf8").replace(/{%-?\s*schema\s*-?%}[\s\S]*?{%-?\s*endschema\s*-?%}/, "");
  return engine().parseAndRenderSync(source, {
    block: { id: name, settings: { form_id: formId }, shopify_attributes: "" },
    section: { id: "main" },
  });
}
