// One decimal <-> minor-units conversion for the whole codebase (app/domain/shared/money.server.ts, which
// knows ISO 4217 exponents). A copy that multiplies by 100 is wrong for JPY and KWD: this scan
// fails on one in app/, workers/, scripts/, simulator/ or prisma/.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "node_modules" || name === "build" ? [] : files(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

const MONEY = /amount|price|cents|money|minor/i;
const COPY = /[*/]\s*100\b|\btoFixed\(\s*2\s*\)|\*\s*1e2\b/;

describe("money conversion", () => {
  it("no module converts money by multiplying or dividing by 100 or by toFixed(2)", () => {
    const offenders: string[] = [];
    for (const file of ["app", "workers", "scripts", "simulator", "prisma"].flatMap(files)) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (MONEY.test(line) && COPY.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });

  it("the scan sees a copy when there is one", () => {
    const line = "const toCents = (amount: string) => Math.round(Number(amount) * 100);";
    expect(MONEY.test(line) && COPY.test(line)).toBe(true);
  });
});
