// Comments cite the project's own reference: `/docs` anchors (/docs#section/..., /docs#tag/...,
// /docs/api/errors), `docs/decisions/NNN-*.md` and README sections. Never a document outside the
// repository, which a reader of this code does not have ("spec 1", "../shared/spec",
// "Document 2 rule 4", "ARCHITECTURE.md"). This scan keeps it so.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { openApiDocument } from "../../../app/surfaces/docs.server";

const ROOTS = ["app", "workers", "scripts", "simulator", "prisma", "tests", "bench"];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "node_modules" || name === "build" ? [] : files(full);
    return /\.(ts|tsx|js|prisma|sql)$/.test(name) ? [full] : [];
  });
}

/** The comment part of a line of code (line comments, block-comment lines), or null. */
export function commentOf(line: string): string | null {
  const s = line.trim();
  if (s.startsWith("//") || s.startsWith("*") || s.startsWith("/*") || s.startsWith("--")) return s;
  const m = /(?:^|\s)\/\/(.*)$/.exec(line) ?? /\/\*(.*)$/.exec(line);
  return m ? m[1] : null;
}

// "spec" as a document (not a Playwright *.spec.ts file), "the specification", "Document 2",
// the workspace's shared notes (the repository's own app/domain/shared/ is no outside document).
const OUTSIDE = [
  /(?<![.\w-])spec(?:s|'s)?\b(?!\.ts)/i,
  /\bspecification\b/i,
  /\bDocument\s*\d/i,
  /ARCHITECTURE/,
  /STACK\.md/,
  /(?<!app\/domain\/)shared\//,
  /DEVELOPERS/,
];

export function outsideCitation(line: string): boolean {
  const comment = commentOf(line);
  return comment !== null && OUTSIDE.some((re) => re.test(comment));
}

describe("comments cite the project's own reference", () => {
  it("no comment in app/, workers/, scripts/, simulator/, prisma/, tests/ or bench/ cites a document outside the repository", () => {
    const offenders: string[] = [];
    // This file names the forbidden forms to test the scan; it is the one place they may appear.
    const self = path.join("tests", "unit", "foundation", "comment-citations.test.ts");
    for (const file of ROOTS.flatMap(files).filter((f) => f !== self)) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (outsideCitation(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });

  it.each([
    '// Idempotency of the subscription writes (spec 1, "Idempotency").',
    "// The one error vocabulary (spec/1-admin-api.md, Errors).",
    "/** Spec 2 rule 3: ignored here. */",
    " * retention rules of the spec, each one SQL statement",
    "const x = 1; // see ../shared/spec/README.md",
    "// as Document 2 rule 4 says",
    "// per ARCHITECTURE.md, Lessons from review",
    "-- the specification's 128 MB",
  ])("finds the outside citation in %s", (line) => {
    expect(outsideCitation(line)).toBe(true);
  });

  it.each([
    "// Idempotency (docs/decisions/021-idempotency.md; /docs#section/Conventions).",
    "// (tests/e2e/admin-navigation.spec.ts checks it)",
    "export function enqueueSpec(spec: AnyJobSpec) {",
    "const url = `/docs#tag/Admin-API:-Exports`; // one anchor per tag",
    "// how developers inspect the simulated shop",
    "// the one conversion (app/domain/shared/money.server.ts)",
  ])("lets %s through", (line) => {
    expect(outsideCitation(line)).toBe(false);
  });

  it("every /docs anchor and decision record a comment cites exists", () => {
    const doc = openApiDocument() as { tags: Array<{ name: string }>; info: { description: string } };
    // Redoc's anchors: #tag/<name> and #section/<heading>, spaces as hyphens.
    const slug = (s: string) => s.trim().replace(/\s+/g, "-");
    const anchors = new Set([
      ...doc.tags.map((t) => `tag/${slug(t.name)}`),
      ...[...doc.info.description.matchAll(/^# (.+)$/gm)].map((m) => `section/${slug(m[1])}`),
    ]);
    const decisions = readdirSync(path.join("docs", "decisions")).map((f) => f.slice(0, 3));
    const dangling: string[] = [];
    for (const file of ROOTS.flatMap(files)) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          const comment = commentOf(line);
          if (!comment) return;
          for (const m of comment.matchAll(/\/docs#((?:tag|section)\/[A-Za-z:&-]+)/g)) if (!anchors.has(m[1])) dangling.push(`${file}:${i + 1}: ${m[0]}`);
          for (const m of comment.matchAll(/docs\/decisions\/(\d{3})/g)) if (!decisions.includes(m[1])) dangling.push(`${file}:${i + 1}: ${m[0]}`);
        });
    }
    expect(dangling).toEqual([]);
  });
});
