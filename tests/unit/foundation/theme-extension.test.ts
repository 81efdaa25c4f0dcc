// The theme app extension and the app agree: each block reads exactly the metafield the app
// defines, its schema is valid JSON with the fields Shopify requires, and every translation
// key a block uses exists.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { STOREFRONT_METAFIELDS } from "../../../app/domain/storefront-metafields";

const root = "extensions/subscriptions-theme";
const blocks = readdirSync(path.join(root, "blocks")).map((f) => ({ file: f, liquid: readFileSync(path.join(root, "blocks", f), "utf8") }));
const locale = JSON.parse(readFileSync(path.join(root, "locales/en.default.json"), "utf8"));

describe("theme app extension", () => {
  it("has one block per app metafield, reading it under the $app namespace", () => {
    expect(blocks.map((b) => b.file).sort()).toEqual(["bundle-plan.liquid", "mix-match.liquid"]);
    for (const { namespace, key } of Object.values(STOREFRONT_METAFIELDS)) {
      expect(blocks.some((b) => b.liquid.includes(`product.metafields['${namespace}'].${key}.value`))).toBe(true);
    }
  });

  it("declares a valid schema in every block", () => {
    for (const b of blocks) {
      const schema = JSON.parse(/{% schema %}([\s\S]*?){% endschema %}/.exec(b.liquid)![1]);
      expect(schema).toMatchObject({ name: expect.any(String), target: "section" });
    }
  });

  it("has every translation key a block uses", () => {
    for (const b of blocks) {
      for (const [, key] of b.liquid.matchAll(/'([\w.]+)' \| t/g)) {
        const value = key.split(".").reduce((node: Record<string, unknown> | undefined, part) => node?.[part] as Record<string, unknown> | undefined, locale);
        expect(value, key).toEqual(expect.any(String));
      }
    }
  });

  it("never prints a metafield value unescaped", () => {
    for (const b of blocks) {
      for (const [, expr] of b.liquid.matchAll(/{{\s*([^}]*?)\s*}}/g)) {
        const fromData = /^(plan|mm|category|entry)\./.test(expr);
        const numeric = /(_items|_cents \| money)$/.test(expr) || /\| money$/.test(expr);
        if (fromData && !numeric) expect(expr, `${b.file}: {{ ${expr} }}`).toMatch(/\| escape$/);
      }
    }
  });
});
