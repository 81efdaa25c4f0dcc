// The theme app extension and the app agree: each block reads exactly the metafield the app
// defines, its schema is valid JSON with the fields Shopify requires, every translation key a
// block uses exists in every locale, and nothing in the theme could carry a credential.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { STOREFRONT_METAFIELDS } from "../../../app/domain/storefront/metafields";

const root = "extensions/subscriptions-theme";
const blocks = readdirSync(path.join(root, "blocks")).map((f) => ({ file: f, liquid: readFileSync(path.join(root, "blocks", f), "utf8") }));
const localeFiles = readdirSync(path.join(root, "locales"));
const locales = localeFiles
  .filter((f) => !f.endsWith(".schema.json"))
  .map((f) => ({ file: f, tree: JSON.parse(readFileSync(path.join(root, "locales", f), "utf8")) }));
const schemaLocales = localeFiles
  .filter((f) => f.endsWith(".schema.json"))
  .map((f) => ({ file: f, tree: JSON.parse(readFileSync(path.join(root, "locales", f), "utf8")) }));
const lookup = (tree: unknown, key: string) =>
  key
    .split(".")
    .reduce((node: Record<string, unknown> | undefined, part) => node?.[part] as Record<string, unknown> | undefined, tree as Record<string, unknown>);
const schemaOf = (liquid: string) => JSON.parse(/{% schema %}([\s\S]*?){% endschema %}/.exec(liquid)![1]);

describe("theme app extension", () => {
  it("has one block per app metafield, reading it under the $app namespace", () => {
    expect(blocks.map((b) => b.file).sort()).toEqual(["bundle-plan.liquid", "gift.liquid", "mix-match.liquid"]);
    for (const { namespace, key } of Object.values(STOREFRONT_METAFIELDS)) {
      expect(blocks.some((b) => b.liquid.includes(`product.metafields['${namespace}'].${key}.value`))).toBe(true);
    }
  });

  it("declares a valid schema in every block", () => {
    for (const b of blocks) expect(schemaOf(b.liquid)).toMatchObject({ name: expect.any(String), target: "section" });
  });

  it("has every translation key a block uses in every storefront locale (en.default and at least one more)", () => {
    expect(locales.map((l) => l.file)).toContain("en.default.json");
    expect(locales.length).toBeGreaterThan(1);
    for (const b of blocks) {
      for (const [, key] of b.liquid.matchAll(/'([\w.]+)' \| t/g)) {
        for (const l of locales) expect(lookup(l.tree, key), `${l.file}: ${key}`).toEqual(expect.any(String));
      }
    }
  });

  it("translates the editor's schema labels (t: keys) in every schema locale", () => {
    expect(schemaLocales.map((l) => l.file)).toContain("en.default.schema.json");
    for (const b of blocks) {
      const keys = [...JSON.stringify(schemaOf(b.liquid)).matchAll(/"t:([\w.]+)"/g)].map((m) => m[1]);
      expect(keys.length, b.file).toBeGreaterThan(0);
      for (const key of keys) for (const l of schemaLocales) expect(lookup(l.tree, key), `${l.file}: ${key}`).toEqual(expect.any(String));
    }
  });

  it("never prints a metafield value unescaped", () => {
    for (const b of blocks) {
      for (const [, expr] of b.liquid.matchAll(/{{\s*([^}]*?)\s*}}/g)) {
        const fromData = /^(plan|mm|category|entry|option)\./.test(expr);
        const money = /\| money$/.test(expr);
        if (fromData && !money) expect(expr, `${b.file}: {{ ${expr} }}`).toMatch(/\| escape$/);
      }
    }
  });

  it("holds no credential and calls no app API: the theme reads metafields and talks to the cart only", () => {
    const files = ["blocks", "assets", "locales"].flatMap((d) => readdirSync(path.join(root, d)).map((f) => path.join(root, d, f)));
    for (const f of files) {
      const text = readFileSync(f, "utf8");
      expect(text, f).not.toMatch(/svc_(sk|pk|cst)_|Authorization|Bearer|\/api\/(admin|storefront|customer)\//);
    }
    const js = readFileSync(path.join(root, "assets/mix-match.js"), "utf8");
    expect(js.length).toBeLessThan(4096); // small: no framework, no bundle
  });
});
