// Money on the Admin API (docs/decisions/020-admin-api-read-shapes.md): amounts the mirror holds
// in minor units with a currency are returned as { amount: decimal string, currency_code }, the
// shape Shopify itself uses, so no client ever does float arithmetic on money. Catalogue snapshot
// prices named `price_cents` in the reference (/docs) stay integers in minor units (the mirror holds no
// currency for them; they are a display snapshot, not a price promise).

export interface Money {
  amount: string;
  currency_code: string;
}

// ISO 4217 minor-unit exponents that are not 2 (the mirror's *_cents columns are minor units).
const EXPONENT: Record<string, number> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
};

export function minorUnitExponent(currencyCode: string): number {
  return EXPONENT[currencyCode.toUpperCase()] ?? 2;
}

/** The exponent table grouped for SQL (every code not listed has exponent 2). */
export function currenciesByExponent(): Array<[exponent: number, codes: string[]]> {
  const groups = new Map<number, string[]>();
  for (const [code, exp] of Object.entries(EXPONENT)) groups.set(exp, [...(groups.get(exp) ?? []), code]);
  return [...groups.entries()];
}

/** Exact decimal string for an integer (or bigint) amount of minor units. */
export function formatMinor(minor: number | bigint, currencyCode: string): string {
  const exp = minorUnitExponent(currencyCode);
  let v = BigInt(minor);
  const neg = v < 0n;
  if (neg) v = -v;
  const s = v.toString();
  if (exp === 0) return (neg ? "-" : "") + s;
  const padded = s.padStart(exp + 1, "0");
  return `${neg ? "-" : ""}${padded.slice(0, -exp)}.${padded.slice(-exp)}`;
}

export function money(minor: number | bigint | null | undefined, currencyCode: string): Money | null {
  if (minor === null || minor === undefined) return null;
  return { amount: formatMinor(minor, currencyCode), currency_code: currencyCode };
}

/**
 * The one decimal -> minor units conversion (the platform's "12.50" USD is 1250; "1500" JPY is
 * 1500; "1.234" KWD is 1234). Exact (no float arithmetic); digits past the currency's exponent
 * round half away from zero. Every amount the platform reports goes through here (the mirror,
 * the storefront price preview, the write receipts, the demo seed).
 */
export function parseDecimalToMinor(amount: string | number, currencyCode: string): number {
  const exp = minorUnitExponent(currencyCode);
  const text = typeof amount === "number" ? decimalText(amount) : amount.trim();
  const m = /^([-+])?(\d+)(?:\.(\d*))?$/.exec(text) ?? /^([-+])?()\.(\d+)$/.exec(text);
  if (!m) throw new Error(`not a decimal amount: ${amount}`);
  const frac = m[3] ?? "";
  let v = BigInt((m[2] || "0") + frac.padEnd(exp, "0").slice(0, exp));
  if (frac.length > exp && Number(frac[exp]) >= 5) v += 1n;
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`amount out of range: ${amount}`);
  return m[1] === "-" && v !== 0n ? -Number(v) : Number(v);
}

/** A decimal string normalised to the currency's exponent ("1500.0" JPY -> "1500"; 12.5 USD -> "12.50"). */
export function normalizeDecimal(amount: string | number, currencyCode: string): string {
  return formatMinor(parseDecimalToMinor(amount, currencyCode), currencyCode);
}

function decimalText(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`not a decimal amount: ${n}`);
  // toFixed(20) never switches to exponent notation below 1e21; trailing zeros are harmless.
  return Math.abs(n) < 1e21 ? n.toFixed(20).replace(/0+$/, "").replace(/\.$/, "") : String(n);
}

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
