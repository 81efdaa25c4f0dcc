// The decision records stay trustworthy for a newcomer: every record carries a `Status:` line,
// every record has its row in the index (docs/decisions/README.md) under its own number, every
// row names a record that exists, a record the index calls superseded names its successor, and
// no record cites what a reader of the repository cannot open (numbered issues, contract
// documents, work stops or items: the pattern is below).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const DIR = path.join("docs", "decisions");
const records = readdirSync(DIR)
  .filter((f) => /^\d{3}-.+\.md$/.test(f))
  .sort();
const text = (f: string) => readFileSync(path.join(DIR, f), "utf8");
const index = readFileSync(path.join(DIR, "README.md"), "utf8");

/** The index's rows: number, linked file and status, from `| [NNN](file) | title | status | line |`. */
const rows = index
  .split("\n")
  .map((line) => /^\| \[(\d{3})\]\(([^)]+)\) \| (.+?) \| (.+?) \| (.+?) \|$/.exec(line))
  .filter((m): m is RegExpExecArray => m !== null)
  .map((m) => ({ number: m[1], file: m[2], title: m[3], status: m[4], line: m[5] }));

describe("decision records", () => {
  it("there are records, and the index lists some", () => {
    expect(records.length).toBeGreaterThan(60);
    expect(rows.length).toBeGreaterThan(60);
  });

  it.each(records)("%s has a title with its number and a Status: line before its body", (file) => {
    const lines = text(file).split("\n");
    expect(lines[0]).toMatch(new RegExp(`^# ${file.slice(0, 3)}\\b`));
    const status = lines.slice(0, 6).find((l) => l.startsWith("Status: "));
    expect(status, `${file}: no "Status:" line in its first lines`).toBeDefined();
    expect(status).toMatch(/^Status: (accepted|superseded|proposed)\b/);
  });

  it("every record has exactly one row in the index, linking to it", () => {
    const missing = records.filter((f) => rows.filter((r) => r.file === f && r.number === f.slice(0, 3)).length !== 1);
    expect(missing).toEqual([]);
  });

  it("every row of the index names a record that exists, once", () => {
    expect(rows.filter((r) => !records.includes(r.file)).map((r) => r.file)).toEqual([]);
    expect(new Set(rows.map((r) => r.number)).size).toBe(rows.length);
  });

  it("a record the index calls superseded (or amended) names the other record, which exists, in its own Status line", () => {
    const numbers = new Set(records.map((f) => f.slice(0, 3)));
    for (const r of rows.filter((row) => /superseded|amends|followed/.test(row.status))) {
      const successor = /(\d{3})/.exec(r.status)?.[1];
      expect(successor, `${r.file}: "${r.status}" names no record`).toBeDefined();
      expect(numbers.has(successor!), `${r.file}: ${successor} does not exist`).toBe(true);
      const body = text(r.file);
      const from = body.indexOf("\nStatus: ");
      const statusParagraph = body.slice(from, body.indexOf("\n\n", from + 1));
      expect(statusParagraph, `${r.file}'s own Status line should name ${successor}`).toContain(successor);
    }
  });

  it("no record cites a numbered issue, spec, stop or item that a reader of the repository cannot open", () => {
    const offenders: string[] = [];
    for (const file of [...records, "README.md", "TEMPLATE.md"]) {
      text(file)
        .split("\n")
        .forEach((line, i) => {
          if (/\b(issues? \d+|spec \d+|stop \d+|item \d+)\b/i.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });
});
