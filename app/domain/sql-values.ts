// Values formatted by PostgreSQL exactly as the JavaScript side formats them (toISOString,
// formatMinor), for queries that build their output text in SQL: the export renderer
// (app/domain/exports/format-sql.ts, docs/decisions/068-export-renderer-in-sql.md), tested
// byte-equal to the JavaScript encoder in tests/integration/exports/format-sql.test.ts.
import { currenciesByExponent } from "./money.server";

/** `Date.prototype.toISOString()` of a `timestamp(3)` column holding UTC (how Prisma stores DateTime). */
export const isoSql = (col: string) => `to_char(${col}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The number one minor unit is worth in `currency` (ISO 4217 exponents, app/domain/money.server.ts):
 * 0.01 for USD, 1 for JPY, 0.001 for KWD, as an exact numeric. Computed once per row (a column
 * of the page) and used by `minorSql`.
 */
export function minorScaleSql(currency: string): string {
  const arms = currenciesByExponent()
    .filter(([exp]) => exp !== 2)
    .map(([exp, codes]) => `WHEN upper(${currency}) IN (${codes.map((c) => `'${assertCode(c)}'`).join(", ")}) THEN ${unitLiteral(exp)}`);
  return `(CASE ${arms.join(" ")} ELSE ${unitLiteral(2)} END)`;
}

/**
 * `formatMinor(amount, currency)` in SQL: integer minor units times the exact unit (a numeric
 * whose scale is the exponent) print as the exact decimal string: 1999 * 0.01 = 19.99,
 * 0 * 0.01 = 0.00, -250 * 0.01 = -2.50, 1500 * 1 = 1500, 2500 * 0.001 = 2.500. NULL stays NULL.
 */
export const minorSql = (amount: string, scale: string) => `(${amount} * ${scale})::text`;

function assertCode(code: string): string {
  if (!/^[A-Z]{3}$/.test(code)) throw new Error(`not a currency code: ${code}`);
  return code;
}

const unitLiteral = (exp: number) => (exp === 0 ? "1::numeric" : `0.${"0".repeat(exp - 1)}1`);
