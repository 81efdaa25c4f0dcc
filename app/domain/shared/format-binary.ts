// The export formats (./format.ts) written straight from a binary COPY of the dataset's raw
// columns (app/infra/pg-copy.server.ts): PostgreSQL only selects the rows, and the worker writes each
// line's bytes from the bytes PostgreSQL sent, with no JavaScript string or object per row or
// per cell. The bytes are those of `encoder()` in ./format.ts for the same values:
// tests/integration/exports/format-binary.test.ts compares the two on every kind and on the
// characters that need escaping, and the golden files pin both.
// docs/decisions/090-export-lines-from-binary-copy.md.
// The Admin API's subscription list is written the same way (`json`: its objects, money as the
// API's money object), against the Admin API surface's `subscriptionJson` as the reference;
// docs/decisions/091-subscription-list-from-binary-copy.md.
import { PG_EPOCH_MS, binaryRowsStart } from "../../infra/pg-copy.server";
import { minorUnitExponent } from "./money.server";
import { snakeKey, type ColumnKind, type ExportFormat } from "./format";

/**
 * A column the binary renderer can write: its label (the JSON key is `snakeKey(label)`), its kind,
 * and `source`, the table column holding the cell's value (for money, the integer minor units;
 * `currency` names the column with its ISO 4217 code).
 */
export interface BinaryColumn {
  label: string;
  kind: ColumnKind;
  source: string;
  currency?: string;
}

/**
 * What a renderer writes: an export format's lines, or `json`, the objects of an API list page
 * separated by commas (no brackets), money as `{"amount":...,"currency_code":...}` (`money()`,
 * app/domain/shared/money.server.ts).
 */
export type RenderFormat = ExportFormat | "json";

/** One rendered page: the bytes, how many rows, the last row's key, and whether rows were left. */
export interface RenderedPage {
  bytes: Buffer;
  rows: number;
  last: { at: Date; id: string } | null;
  /** Rows followed the last one rendered (the renderer was told to stop at `maxRows`). */
  more: boolean;
}

/**
 * The SQL type each kind is selected as: the cast pins the binary format the renderer reads
 * (text as its UTF-8 bytes, int8 as 8 bytes big-endian, timestamp as int8 microseconds).
 */
const CAST: Partial<Record<ColumnKind, string>> = { text: "text", id: "text", enum: "text", number: "int8", date: "timestamp(3)", money: "int8" };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const DAY_MS = 86_400_000;

/** "00" to "99" as ASCII bytes: two digits written by two loads. */
const PAIRS = new Uint8Array(200);
for (let i = 0; i < 100; i++) {
  PAIRS[2 * i] = 48 + Math.floor(i / 10);
  PAIRS[2 * i + 1] = 48 + (i % 10);
}

/**
 * Byte runs (cells, keys) move four bytes at a time through DataViews: on this code's hot path a
 * JavaScript loop per byte measured two to three times slower, and a native copy per cell slower
 * still (its call costs more than a short cell). The checks a cell needs are made on the same
 * four bytes at once (SWAR: the exact "has a byte less than n" and "has a zero byte" tests).
 */
const view = (b: Buffer) => new DataView(b.buffer, b.byteOffset, b.byteLength);

/** Whether any byte of the 32-bit word `x` is below 0x20, a quote or a backslash: JSON escapes those. */
export function jsonEscapes(x: number): boolean {
  const quote = x ^ 0x22222222;
  const backslash = x ^ 0x5c5c5c5c;
  return ((((x - 0x20202020) & ~x) | ((quote - 0x01010101) & ~quote) | ((backslash - 0x01010101) & ~backslash)) & 0x80808080) !== 0;
}

/** Whether any byte of the 32-bit word `x` is a quote (CSV doubles it). */
export function hasQuote(x: number): boolean {
  const quote = x ^ 0x22222222;
  return ((quote - 0x01010101) & ~quote & 0x80808080) !== 0;
}

// The writers below take the output buffer and the position to write at, and return the
// position after what they wrote (locals, not fields of an object: the loops run per word or
// byte). The caller has made room first (`grown`).

/** A larger copy of `buf`'s first `p` bytes, with room for `n` more. */
function grown(buf: Buffer, p: number, n: number): Buffer {
  const next = Buffer.allocUnsafe(Math.max(buf.length * 2, p + n));
  buf.copy(next, 0, 0, p);
  return next;
}

/** `src[start, end)` copied to `buf` at `p`, a word at a time. */
function copyRun(buf: Buffer, dv: DataView, p: number, src: Buffer, sv: DataView, start: number, end: number): number {
  let i = start;
  for (; i + 4 <= end; i += 4, p += 4) dv.setUint32(p, sv.getUint32(i));
  for (; i < end; i++) buf[p++] = src[i];
  return p;
}

/** Two digits of 0-99. */
function pair(buf: Buffer, p: number, n: number): number {
  buf[p] = PAIRS[2 * n];
  buf[p + 1] = PAIRS[2 * n + 1];
  return p + 2;
}

/** A non-negative integer's decimal digits, at least `min` of them (leading zeros). */
function digits(buf: Buffer, p: number, n: number, min: number): number {
  if (n < 10 && min < 2) {
    buf[p] = 48 + n;
    return p + 1;
  }
  if (n < 100 && min <= 2) return pair(buf, p, n);
  let len = 1;
  for (let x = n; x >= 10; x = Math.floor(x / 10)) len++;
  if (len < min) len = min;
  for (let i = p + len - 1; i >= p; i--) {
    buf[i] = 48 + (n % 10);
    n = Math.floor(n / 10);
  }
  return p + len;
}

/** A string as UTF-8 (the rare paths: escaped JSON, a six-digit year). */
const text = (buf: Buffer, p: number, s: string) => p + buf.write(s, p, "utf8");

/** Signed 32-bit big-endian at `at`. */
const int32 = (src: Buffer, at: number) => (src[at] << 24) | (src[at + 1] << 16) | (src[at + 2] << 8) | src[at + 3];

/**
 * Signed 64-bit big-endian at `at` as a number when it is below 2^52 in magnitude (exact by
 * number arithmetic), else NaN: the callers decide what a larger value means.
 */
function smallInt64(src: Buffer, at: number): number {
  const hi = int32(src, at);
  return hi >= 0x100000 || hi < -0x100000 ? Number.NaN : hi * 4_294_967_296 + (int32(src, at + 4) >>> 0);
}

/** An amount or a count: past 2^52 (no int4 column holds one) refused rather than printed rounded. */
function int64(src: Buffer, at: number): number {
  const n = smallInt64(src, at);
  if (Number.isNaN(n)) throw new Error("a 64-bit integer too large to export exactly");
  return n;
}

/**
 * A binary timestamp (microseconds from 2000-01-01, whole milliseconds in a timestamp(3)) as
 * epoch milliseconds: by number arithmetic within 2^52 microseconds of 2000 (the years 1857 to
 * 2142), through BigInt further out, where a double might not hold the microseconds exactly.
 */
function timestampMs(src: Buffer, at: number): number {
  const micros = smallInt64(src, at);
  return PG_EPOCH_MS + (Number.isNaN(micros) ? Number(src.readBigInt64BE(at) / 1000n) : micros / 1000);
}

/**
 * `Date.prototype.toISOString()` of epoch milliseconds. The calendar day ("YYYY-MM-DDT") comes
 * from a small cache (rows near each other in a page share days), the time of day is written as
 * digits; a year outside 0000-9999 (the six-digit ISO form) takes toISOString itself.
 */
const DAY_SLOTS = 1024;
const slotDay = new Float64Array(DAY_SLOTS).fill(Number.NaN);
const slotPrefix: Array<Buffer | null> = new Array(DAY_SLOTS).fill(null);
function writeIso(buf: Buffer, p: number, ms: number): number {
  const day = Math.floor(ms / DAY_MS);
  const slot = day & (DAY_SLOTS - 1);
  if (slotDay[slot] !== day) {
    const iso = new Date(day * DAY_MS).toISOString();
    slotPrefix[slot] = iso.length === 24 ? Buffer.from(iso.slice(0, 11), "latin1") : null;
    slotDay[slot] = day;
  }
  const prefix = slotPrefix[slot];
  if (!prefix) return text(buf, p, new Date(ms).toISOString());
  for (let i = 0; i < 11; i++) buf[p++] = prefix[i];
  let t = ms - day * DAY_MS;
  const h = (t / 3_600_000) | 0;
  t -= h * 3_600_000;
  const m = (t / 60_000) | 0;
  t -= m * 60_000;
  const sec = (t / 1000) | 0;
  t -= sec * 1000;
  p = pair(buf, p, h);
  buf[p++] = 0x3a;
  p = pair(buf, p, m);
  buf[p++] = 0x3a;
  p = pair(buf, p, sec);
  buf[p++] = 0x2e;
  buf[p++] = 48 + ((t / 100) | 0);
  p = pair(buf, p, t % 100);
  buf[p++] = 0x5a;
  return p;
}

/** `formatMinor(minor, currency)` (app/domain/shared/money.server.ts) of an exponent already looked up. */
function writeMinor(buf: Buffer, p: number, minor: number, exponent: number): number {
  if (minor < 0) buf[p++] = 0x2d;
  const abs = Math.abs(minor);
  if (exponent === 0) return digits(buf, p, abs, 1);
  const unit = 10 ** exponent;
  p = digits(buf, p, Math.floor(abs / unit), 1);
  buf[p++] = 0x2e;
  return digits(buf, p, abs % unit, exponent);
}

/** Exponents by currency code, keyed by the code's three bytes (no string per row). */
const exponents = new Map<number, number>();
function exponentOf(src: Buffer, at: number, len: number): number {
  if (len !== 3) return minorUnitExponent(src.toString("utf8", at, at + len));
  const key = (src[at] << 16) | (src[at + 1] << 8) | src[at + 2];
  let exp = exponents.get(key);
  if (exp === undefined) {
    exp = minorUnitExponent(src.toString("latin1", at, at + 3));
    exponents.set(key, exp);
  }
  return exp;
}

// A JSON money object around the amount: `{"amount":"` before, `","currency_code":` after.
const AMOUNT_KEY = Buffer.from('{"amount":"', "latin1");
const CURRENCY_KEY = Buffer.from(',"currency_code":', "latin1");
const [AMOUNT_KEY_VIEW, CURRENCY_KEY_VIEW] = [view(AMOUNT_KEY), view(CURRENCY_KEY)];

/**
 * The SELECT list a page's query reads for `columns`: the cells in column order, each cast to the
 * type whose binary form the renderer reads (a money cell is its amount and its currency), then
 * the row's key (created_at, id).
 */
export function binarySelectList(columns: readonly BinaryColumn[]): string {
  const select: string[] = [];
  for (const c of columns) {
    const cast = CAST[c.kind];
    if (!cast || (c.kind === "money") !== Boolean(c.currency)) throw new Error(`column ${c.label}: kind ${c.kind} cannot be rendered from a binary COPY`);
    select.push(`(${c.source})::${cast}`);
    if (c.currency) select.push(`(${c.currency})::text`);
  }
  return [...select, "created_at", "id"].join(", ");
}

/**
 * The renderer of one format for `columns`, built once per process: the lines of the rows of one
 * binary COPY whose columns are `binarySelectList(columns)`, at most `maxRows` of them. Per
 * field: CSV writes `"value"` (inner quotes doubled, the formula guard on free text, NULL as
 * `""`), JSONL and JSON write `"key":value` (strings escaped as JSON.stringify does, NULL as null).
 */
export function binaryRenderer(format: RenderFormat, columns: readonly BinaryColumn[]): (copy: Buffer, maxRows?: number) => RenderedPage {
  const csv = format === "csv";
  const moneyObject = format === "json";
  const kinds = columns.map((c) => c.kind);
  // A money cell is two fields; the key adds two.
  const fieldsPerRow = columns.length + columns.filter((c) => c.currency).length + 2;
  // What goes before each cell: CSV `"` or `,"`; JSONL `{"key":` or `,"key":`.
  const before = columns.map((c, i) => Buffer.from(csv ? (i ? ',"' : '"') : `${i ? "," : "{"}${JSON.stringify(snakeKey(c.label))}:`, "utf8"));
  const leadViews = before.map(view);
  // JSON objects are followed by a comma, and the last one's is cut at the end.
  const lineEnd = Buffer.from(csv ? "\r\n" : moneyObject ? "}," : "}\n", "latin1");

  /**
   * A text cell: CSV with inner quotes doubled (and the formula guard), JSON as a JSON string.
   * `dv` and `sv` are views of `buf` and `src`.
   */
  function writeText(buf: Buffer, dv: DataView, p: number, src: Buffer, sv: DataView, at: number, len: number, kind: ColumnKind): number {
    const end = at + len;
    let i = at;
    if (csv) {
      // Formula guard (docs/decisions/057): first character = + - @ TAB CR gets an apostrophe.
      const first = src[at];
      if (kind === "text" && len && (first === 0x3d || first === 0x2b || first === 0x2d || first === 0x40 || first === 0x09 || first === 0x0d)) buf[p++] = 0x27;
      for (; i + 4 <= end; i += 4) {
        const x = sv.getUint32(i);
        if (!hasQuote(x)) {
          dv.setUint32(p, x);
          p += 4;
        } else for (let j = i; j < i + 4; j++) if ((buf[p++] = src[j]) === QUOTE) buf[p++] = QUOTE;
      }
      for (; i < end; i++) if ((buf[p++] = src[i]) === QUOTE) buf[p++] = QUOTE;
      return p;
    }
    // One pass copies and checks; a byte JSON escapes (a control character, a quote, a
    // backslash: rare) sends the cell through JSON.stringify's own escaping instead.
    const start = p;
    buf[p++] = QUOTE;
    for (; i + 4 <= end; i += 4, p += 4) {
      const x = sv.getUint32(i);
      if (jsonEscapes(x)) return text(buf, start, JSON.stringify(src.toString("utf8", at, end)));
      dv.setUint32(p, x);
    }
    for (; i < end; i++) {
      const b = src[i];
      if (b < 0x20 || b === QUOTE || b === BACKSLASH) return text(buf, start, JSON.stringify(src.toString("utf8", at, end)));
      buf[p++] = b;
    }
    buf[p++] = QUOTE;
    return p;
  }

  function render(copy: Buffer, maxRows = Number.POSITIVE_INFINITY): RenderedPage {
    let at = binaryRowsStart(copy);
    const sv = view(copy);
    let buf: Buffer = Buffer.allocUnsafe(copy.length * 2 + 4096);
    let dv = view(buf);
    let p = 0;
    let rows = 0;
    let keyAt = -1;
    let more = false;
    for (;;) {
      const fields = ((copy[at] << 24) | (copy[at + 1] << 16)) >> 16; // signed int16
      at += 2;
      if (fields === -1) break; // the trailer
      if (rows === maxRows) {
        more = true;
        break;
      }
      if (fields !== fieldsPerRow) throw new Error(`binary COPY row of ${fields} fields, expected ${fieldsPerRow}`);
      for (let c = 0; c < kinds.length; c++) {
        const kind = kinds[c];
        const len = int32(copy, at);
        at += 4;
        const lead = before[c];
        // The most a cell can take: six bytes per input byte (a JSON \u00XX escape), digits, and
        // a money object's keys and currency (the field after the amount).
        const currencyLen = kind === "money" && len >= 0 ? int32(copy, at + len) : 0;
        const need = lead.length + 6 * Math.max(len, 0) + 48 + (moneyObject ? 6 * Math.max(currencyLen, 0) + 32 : 0);
        if (p + need > buf.length) dv = view((buf = grown(buf, p, need)));
        p = copyRun(buf, dv, p, lead, leadViews[c], 0, lead.length);
        if (len < 0) {
          // NULL: the empty field, or JSON null; a money cell still has its currency field.
          p = csv ? ((buf[p] = QUOTE), p + 1) : text(buf, p, "null");
          if (kind === "money") at += 4 + Math.max(int32(copy, at), 0);
          continue;
        }
        if (kind === "date") {
          if (!csv) buf[p++] = QUOTE;
          p = writeIso(buf, p, timestampMs(copy, at));
          buf[p++] = QUOTE;
        } else if (kind === "number") {
          const n = int64(copy, at);
          if (n < 0) buf[p++] = 0x2d;
          p = digits(buf, p, Math.abs(n), 1);
          if (csv) buf[p++] = QUOTE;
        } else if (kind === "money") {
          if (moneyObject) p = copyRun(buf, dv, p, AMOUNT_KEY, AMOUNT_KEY_VIEW, 0, AMOUNT_KEY.length);
          else if (!csv) buf[p++] = QUOTE;
          p = writeMinor(buf, p, int64(copy, at), exponentOf(copy, at + 12, currencyLen));
          buf[p++] = QUOTE;
          if (moneyObject) {
            p = copyRun(buf, dv, p, CURRENCY_KEY, CURRENCY_KEY_VIEW, 0, CURRENCY_KEY.length);
            p = writeText(buf, dv, p, copy, sv, at + 12, currencyLen, "enum");
            buf[p++] = 0x7d;
          }
          at += 4 + Math.max(currencyLen, 0);
        } else {
          p = writeText(buf, dv, p, copy, sv, at, len, kind);
          if (csv) buf[p++] = QUOTE;
        }
        at += len;
      }
      if (p + lineEnd.length > buf.length) dv = view((buf = grown(buf, p, lineEnd.length)));
      for (let i = 0; i < lineEnd.length; i++) buf[p++] = lineEnd[i];
      keyAt = at;
      at += 12; // created_at: length and 8 bytes
      at += 4 + int32(copy, at);
      rows++;
    }
    const last =
      keyAt < 0
        ? null
        : {
            at: new Date(timestampMs(copy, keyAt + 4)),
            id: copy.toString("utf8", keyAt + 16, keyAt + 16 + int32(copy, keyAt + 12)),
          };
    return { bytes: buf.subarray(0, moneyObject && rows ? p - 1 : p), rows, last, more };
  }

  return render;
}
