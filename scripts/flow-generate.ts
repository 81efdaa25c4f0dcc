// `npm run flow:generate`: writes one Shopify Flow trigger extension per event of the catalogue
// (extensions/flow-<handle>/shopify.extension.toml, docs/decisions/128-flow-triggers.md) and removes
// the folder of a trigger whose event left the catalogue. tests/unit/webhooks/flow-triggers.test.ts
// fails while what is committed differs from what this writes.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FLOW_TRIGGERS, flowExtensionDir, flowExtensionToml } from "../app/domain/outbound-webhooks/flow-triggers";

const root = join(import.meta.dirname, "..", "extensions");
const wanted = new Set(FLOW_TRIGGERS.map(flowExtensionDir));
for (const dir of readdirSync(root)) {
  if (dir.startsWith("flow-") && !wanted.has(dir)) {
    rmSync(join(root, dir), { recursive: true });
    console.log(`removed extensions/${dir}`);
  }
}
for (const t of FLOW_TRIGGERS) {
  const dir = join(root, flowExtensionDir(t));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "shopify.extension.toml"), flowExtensionToml(t));
}
console.log(`${FLOW_TRIGGERS.length} Flow trigger extensions written under extensions/`);
