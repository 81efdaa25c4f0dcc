// npm run schema:refresh [-- --dev-mcp <version>]
//
// Refreshes Shopify's published GraphQL schemas (introspection JSON, gzipped as Shopify ships
// them) in schemas/shopify/ for the API version the app targets (app/platform/api-version.ts).
// The source is the npm package @shopify/dev-mcp, which carries them under dist/data/; it is
// fetched with `npm pack` into a temporary directory, never installed. The package version is
// pinned in schemas/shopify/source.json (docs/decisions/030-schema-executed-simulator.md).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gunzipSync } from "node:zlib";
import { SHOPIFY_API_VERSION } from "../app/platform/api-version";
import { SCHEMA_DIR, SCHEMA_SOURCE_FILE, schemaFileName, type SchemaApi, type SchemaSource } from "../simulator/schema";

const APIS: SchemaApi[] = ["admin", "customer", "storefront"];

const { values } = parseArgs({
  options: { "dev-mcp": { type: "string" }, help: { type: "boolean", short: "h" } },
  strict: true,
});
if (values.help) {
  console.log(`Usage: npm run schema:refresh [-- --dev-mcp <version>]

Downloads @shopify/dev-mcp (the version pinned in schemas/shopify/source.json, or --dev-mcp)
with npm pack and copies its admin_${SHOPIFY_API_VERSION}, customer_${SHOPIFY_API_VERSION} and
storefront-graphql_${SHOPIFY_API_VERSION} schemas into schemas/shopify/. To move to another API version, change
app/platform/api-version.ts first.`);
  process.exit(0);
}

const sourcePath = join(SCHEMA_DIR, SCHEMA_SOURCE_FILE);
const previous = JSON.parse(readFileSync(sourcePath, "utf8")) as SchemaSource;
const devMcpVersion = values["dev-mcp"] ?? previous.devMcpVersion;
const work = mkdtempSync(join(tmpdir(), "schema-refresh-"));
try {
  const packed = execFileSync("npm", ["pack", `@shopify/dev-mcp@${devMcpVersion}`, "--silent"], { cwd: work, encoding: "utf8" })
    .trim()
    .split("\n")
    .pop();
  if (!packed) throw new Error("npm pack printed no file name");
  const members = APIS.map((api) => `package/dist/data/${schemaFileName(api, SHOPIFY_API_VERSION)}`);
  try {
    execFileSync("tar", ["-xzf", packed, ...members], { cwd: work, stdio: ["ignore", "ignore", "pipe"] });
  } catch (cause) {
    throw new Error(`@shopify/dev-mcp@${devMcpVersion} does not ship ${members.join(" and ")}: pick a newer --dev-mcp`, { cause });
  }
  const files: SchemaSource["files"] = {};
  for (const [i, api] of APIS.entries()) {
    const from = join(work, members[i]);
    const bytes = readFileSync(from);
    const parsed = JSON.parse(gunzipSync(bytes).toString("utf8")) as { data?: { __schema?: unknown } };
    if (!parsed.data?.__schema) throw new Error(`${members[i]} is not an introspection result`);
    const name = schemaFileName(api, SHOPIFY_API_VERSION);
    copyFileSync(from, join(SCHEMA_DIR, name));
    files[api] = { file: name, sha256: createHash("sha256").update(bytes).digest("hex") };
  }
  const source: SchemaSource = { apiVersion: SHOPIFY_API_VERSION, package: "@shopify/dev-mcp", devMcpVersion, files };
  writeFileSync(sourcePath, `${JSON.stringify(source, null, 2)}\n`);
  console.log(`schemas/shopify: ${APIS.map((a) => files[a]?.file).join(", ")} from @shopify/dev-mcp@${devMcpVersion}`);
  if (previous.apiVersion !== SHOPIFY_API_VERSION) {
    console.log(`API version changed ${previous.apiVersion} -> ${SHOPIFY_API_VERSION}: delete the old files in schemas/shopify/.`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
