// The import rules (.dependency-cruiser.cjs, docs/decisions/092-rooms-and-layers.md) bite: each
// fixture under tests/fixtures/layers/ breaks one rule and is refused by it, a fixture that keeps
// them passes, and so does the repository itself (what `npm run lint` checks).
import path from "node:path";
import { cruise, type ICruiseOptions, type IReporterOutput } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";

const FIXTURES = path.resolve("tests/fixtures/layers");
/** What `npm run lint:deps` cruises (package.json). */
const TREE = ["app", "workers", "simulator", "scripts", "server.ts", "prisma", "bench", "tests"];

let options: ICruiseOptions;
beforeAll(async () => {
  options = await extractDepcruiseOptions(path.resolve(".dependency-cruiser.cjs"));
});

async function violations(fixture: string): Promise<Array<{ rule: string; from: string; to: string }>> {
  const baseDir = path.join(FIXTURES, fixture);
  const result: IReporterOutput = await cruise(["."], { ...options, baseDir, tsConfig: undefined, validate: true });
  if (typeof result.output === "string") throw new Error("expected a cruise result, not a report");
  return result.output.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
}

describe("the import rules bite", () => {
  it("refuses an upward import: the domain importing a route", async () => {
    // Refused twice over: the domain stays below the web, and only Remix imports a route.
    expect(await violations("upward")).toEqual([
      { rule: "domain-stays-below-the-web", from: "app/domain/subscriptions/reads.server.ts", to: "app/routes/app.subscriptions._index.ts" },
      { rule: "routes-are-entry-points", from: "app/domain/subscriptions/reads.server.ts", to: "app/routes/app.subscriptions._index.ts" },
    ]);
  });

  it("refuses Remix in the domain", async () => {
    const found = await violations("remix");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ rule: "domain-stays-below-the-web", from: "app/domain/keys/keys.server.ts" });
    expect(found[0].to).toMatch(/node_modules\/@remix-run\/node\//);
  });

  it("refuses an import circle, type-only imports included", async () => {
    // One violation per circle, named from the module the cruise met first.
    const found = await violations("circle");
    expect(found).toHaveLength(1);
    expect(found[0].rule).toBe("no-circular");
    expect([found[0].from, found[0].to].sort()).toEqual(["app/domain/exports/datasets.server.ts", "app/domain/exports/stream.server.ts"]);
  });

  it("refuses the simulator borrowing the app's code, and lets the API version through", async () => {
    expect(await violations("simulator")).toEqual([{ rule: "simulator-stands-apart", from: "simulator/store.ts", to: "app/domain/shared/money.server.ts" }]);
  });

  it("refuses runtime code importing scripts/", async () => {
    expect(await violations("scripts")).toEqual([{ rule: "runtime-never-imports-scripts-or-tests", from: "workers/main.ts", to: "scripts/local-env.ts" }]);
  });

  it("passes a tree whose imports only go down", async () => {
    expect(await violations("clean")).toEqual([]);
  });

  it("passes the repository itself, and no two domain folders depend on each other both ways", async () => {
    const tsConfig = extractTSConfig(path.resolve("tsconfig.json"));
    const result = await cruise(TREE, { ...options, validate: true }, undefined, { tsConfig });
    if (typeof result.output === "string") throw new Error("expected a cruise result, not a report");
    expect(result.output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);

    const folder = (p: string) => /^app\/domain\/([^/]+)\//.exec(p)?.[1];
    const edges = new Set<string>();
    for (const m of result.output.modules) {
      for (const d of m.dependencies) {
        const [a, b] = [folder(m.source), folder(d.resolved)];
        if (a && b && a !== b) edges.add(`${a} -> ${b}`);
      }
    }
    const bothWays = [...edges].filter((e) => edges.has(e.split(" -> ").reverse().join(" -> ")));
    expect(bothWays).toEqual([]);
  }, 60_000);
});
