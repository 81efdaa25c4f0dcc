// Decimal amounts as Shopify keeps them: rounded to the currency's precision (ISO 4217 minor
// units: none in JPY, three in KWD, two in most), half away from zero. The simulator's own
// arithmetic, written apart from the app's money module (app/domain/shared/money.server.ts), so a
// mistake there is not copied into the fake meant to catch it (docs/decisions/092-rooms-and-layers.md).

// Currencies whose precision is not two decimals.
const PRECISION: Record<string, number> = {
  ...Object.fromEntries(
    ["BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF", "XOF", "XPF"].map((c) => [c, 0]),
  ),
  ...Object.fromEntries(["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"].map((c) => [c, 3])),
};

export function currencyPrecision(currencyCode: string): number {
  return PRECISION[currencyCode.toUpperCase()] ?? 2;
}

/** "1500.0" JPY -> "1500"; 12.5 USD -> "12.50"; "1.2345" KWD -> "1.235". Throws on anything not a decimal. */
export function normalizeDecimal(amount: string | number, currencyCode: string): string {
  const digits = currencyPrecision(currencyCode);
  let text: string;
  if (typeof amount === "number") {
    if (!Number.isFinite(amount)) throw new Error(`not a decimal amount: ${amount}`);
    text = Math.abs(amount) < 1e21 ? amount.toFixed(20) : String(amount);
  } else text = amount.trim();
  const m = /^([-+]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m || (m[2] === "" && !m[3])) throw new Error(`not a decimal amount: ${amount}`);
  const frac = m[3] ?? "";
  let units = BigInt((m[2] || "0") + frac.slice(0, digits).padEnd(digits, "0"));
  if ((frac[digits] ?? "0") >= "5") units += 1n;
  if (units > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`amount out of range: ${amount}`);
  const s = units.toString().padStart(digits + 1, "0");
  const body = digits === 0 ? s : `${s.slice(0, -digits)}.${s.slice(-digits)}`;
  return m[1] === "-" && units !== 0n ? `-${body}` : body;
}
