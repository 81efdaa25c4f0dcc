// Additive-only within v1 (/docs#section/Conventions, Versioning 2): every response field the
// OpenAPI document has ever published, committed in tests/fixtures/contract/v1-fields.txt, must
// still be there with the same type. A new field is fine; a removed or renamed one, or one whose
// type changed, fails here. The byte-for-byte snapshot (tests/integration/http/contract-snapshot.test.ts)
// fails on any change and is re-recorded at will; this list only ever grows:
//   RECORD_CONTRACT=1 npx vitest run tests/unit/http/v1-fields.test.ts   (adds new fields, drops none)
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { openApiDocument } from "../../../app/surfaces/docs.server";

const FILE = path.join("tests", "fixtures", "contract", "v1-fields.txt");

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: Schema | boolean;
};

/** The JSON types a schema admits, e.g. "string|null". */
function typeOf(s: Schema, resolve: (r: string) => Schema): string {
  if (s.$ref) return typeOf(resolve(s.$ref), resolve);
  const alts = s.anyOf ?? s.oneOf;
  if (alts) return [...new Set(alts.flatMap((a) => typeOf(a, resolve).split("|")))].sort().join("|");
  if (Array.isArray(s.type)) return [...s.type].sort().join("|");
  if (s.type) return s.type;
  if (s.properties) return "object";
  return "any";
}

/** One line per field: `<METHOD> <path> <status> <field.path>: <type>`; arrays as `[]`. */
function fieldsOf(s: Schema, at: string, resolve: (r: string) => Schema, out: string[], depth = 0): void {
  if (depth > 12) return;
  if (s.$ref) return fieldsOf(resolve(s.$ref), at, resolve, out, depth + 1);
  for (const alt of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) fieldsOf(alt, at, resolve, out, depth + 1);
  if (s.items) fieldsOf(s.items, `${at}[]`, resolve, out, depth + 1);
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    const p = at ? `${at}.${name}` : name;
    out.push(`${p}: ${typeOf(prop, resolve)}`);
    fieldsOf(prop, p, resolve, out, depth + 1);
  }
}

function currentFields(): string[] {
  const doc = openApiDocument() as unknown as {
    paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Schema }>; $ref?: string }> }>>;
    components: Record<string, Record<string, unknown>>;
  };
  const resolve = (ref: string): Schema => {
    const [, , kind, name] = ref.split("/");
    return doc.components[kind][name] as Schema;
  };
  const lines = new Set<string>();
  for (const [p, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      for (const [status, raw] of Object.entries(op.responses ?? {})) {
        const res = (raw.$ref ? resolve(raw.$ref) : raw) as { content?: Record<string, { schema?: Schema }> };
        const schema = res.content?.["application/json"]?.schema;
        if (!schema) continue;
        const out: string[] = [];
        fieldsOf(schema, "", resolve, out);
        for (const f of out) lines.add(`${method.toUpperCase()} ${p} ${status} ${f}`);
      }
    }
  }
  return [...lines].sort();
}

describe("v1 response fields (additive only)", () => {
  it("every field ever published is still published, with the same type", () => {
    const now = currentFields();
    expect(now.length).toBeGreaterThan(300);
    const recorded = existsSync(FILE) ? readFileSync(FILE, "utf8").split("\n").filter(Boolean) : [];
    if (process.env.RECORD_CONTRACT === "1" || recorded.length === 0) {
      // Grows only: what was recorded stays recorded, so a removal cannot be recorded away.
      writeFileSync(FILE, `${[...new Set([...recorded, ...now])].sort().join("\n")}\n`);
    }
    const have = new Set(now);
    const gone = recorded.filter((line) => !have.has(line));
    expect(gone, "v1 response fields removed, renamed or retyped").toEqual([]);
  });
});
