// "One endpoint, one greppable entry" (docs/decisions/045-route-entries.md): every route of every
// surface is one defineRoute({...}) literal whose path is a string literal in app/surfaces, and
// declares the zod schema of its success body.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { AnyRoute } from "../../../app/http/route";
import { adminRoutes } from "../../../app/surfaces/admin/routes";
import { customerRoutes } from "../../../app/surfaces/customer/routes";
import { storefrontRoutes } from "../../../app/surfaces/storefront/routes";

const TABLES: Record<string, readonly AnyRoute[]> = { admin: adminRoutes, storefront: storefrontRoutes, customer: customerRoutes };
const ALL = Object.values(TABLES).flat();

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.tsx?$/.test(name) ? [readFileSync(p, "utf8")] : [];
  });
}
const SURFACE_SOURCE = sources(path.resolve("app/surfaces")).join("\n");
const count = (needle: string) => SURFACE_SOURCE.split(needle).length - 1;

describe("route entries", () => {
  it("every path is a string literal in its entry: grep finds each endpoint", () => {
    const routesPerPath = new Map<string, number>();
    for (const r of ALL) routesPerPath.set(r.path, (routesPerPath.get(r.path) ?? 0) + 1);
    // The same path may appear on several surfaces or methods: one literal per route.
    for (const [p, n] of routesPerPath) expect(count(`path: ${JSON.stringify(p)},`), p).toBe(n);
  });

  it('no path is assembled: one defineRoute({ method, path: "literal" }) per route, no template or helper', () => {
    const entries = [...SURFACE_SOURCE.matchAll(/defineRoute\(\{\s*method: "[A-Z]+",\s*path: ([^\n]*)\n/g)].map((m) => m[1]);
    expect(entries.length).toBe(ALL.length);
    for (const path of entries) expect(path, "a route path must be a string literal").toMatch(/^"\/[^"`$]*",$/);
    expect(SURFACE_SOURCE).not.toMatch(/\bpath: `/);
  });

  it("every route declares a zod response schema, and a body schema when it takes a body", () => {
    for (const r of ALL) {
      expect(r.response, `${r.method} ${r.path}`).toBeInstanceOf(z.ZodType);
      if (r.method === "PATCH" || r.method === "PUT") expect(r.body, `${r.method} ${r.path}`).toBeInstanceOf(z.ZodType);
      // A body that is "anything" re-parsed by hand later is what the entry replaces.
      if (r.body) expect(r.body.safeParse(Symbol("not json")).success, `${r.method} ${r.path}`).toBe(false);
    }
  });
});
