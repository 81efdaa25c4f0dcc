// Endpoint URL rules (docs/decisions/053-webhook-url-rules.md): checked when an endpoint is
// created AND on every delivery attempt, where the address the check approved is the address
// the connection uses (pinnedLookup below), so a DNS answer cannot change between check and
// connect. Refused: anything but https, credentials in the URL, and every address that is not
// public unicast, whatever notation names it. The WHATWG URL parser already turns decimal, octal,
// hex and short IPv4 forms into dotted quads, so "https://0x7f.1/" is checked as 127.0.0.1.
//
// WEBHOOK_ALLOWED_PRIVATE_CIDRS (development and tests only; refused at start in production)
// admits ranges for receivers on the developer's own machine.
import { lookup as dnsLookup } from "node:dns";
import { isIP } from "node:net";
import type { LookupFunction } from "node:net";
import { env } from "../../env.server";

export type UrlRule = "malformed" | "https_only" | "no_credentials" | "blocked_address" | "unresolvable";

export class UrlRuleError extends Error {
  constructor(
    readonly rule: UrlRule,
    message: string,
  ) {
    super(message);
    this.name = "UrlRuleError";
  }
}

// ---- addresses ----------------------------------------------------------------------------------

interface Ip {
  family: 4 | 6;
  bytes: number[];
}

function parseV4(s: string): number[] | null {
  const parts = s.split(".");
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : null;
}

function parseV6(input: string): number[] | null {
  let s = input.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const lastColon = s.lastIndexOf(":");
  if (s.slice(lastColon + 1).includes(".")) {
    // A dotted IPv4 tail (::ffff:10.0.0.1) is two 16-bit groups.
    const v4 = parseV4(s.slice(lastColon + 1));
    if (!v4) return null;
    s = `${s.slice(0, lastColon + 1)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const groups = (h: string) => (h === "" ? [] : h.split(":"));
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if ((halves.length === 1 && missing !== 0) || (halves.length === 2 && missing < 1)) return null;
  const filler = Array<string>(halves.length === 2 ? missing : 0).fill("0");
  const words = [...head, ...filler, ...rest].map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN));
  if (words.length !== 8 || words.some((w) => Number.isNaN(w))) return null;
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

export function parseIp(s: string): Ip | null {
  const v4 = parseV4(s);
  if (v4) return { family: 4, bytes: v4 };
  const v6 = s.includes(":") ? parseV6(s) : null;
  return v6 ? { family: 6, bytes: v6 } : null;
}

interface Cidr {
  family: 4 | 6;
  bytes: number[];
  bits: number;
  label: string;
}

export function parseCidr(text: string, label = text): Cidr | null {
  const [addr, bitsText] = text.trim().split("/");
  const ip = parseIp(addr ?? "");
  if (!ip) return null;
  const max = ip.family === 4 ? 32 : 128;
  const bits = bitsText === undefined ? max : Number(bitsText);
  if (!Number.isInteger(bits) || bits < 0 || bits > max) return null;
  return { ...ip, bits, label };
}

function inCidr(ip: Ip, c: Cidr): boolean {
  if (ip.family !== c.family) return false;
  for (let bit = 0; bit < c.bits; bit++) {
    const i = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if ((ip.bytes[i] & mask) !== (c.bytes[i] & mask)) return false;
  }
  return true;
}

const cidrs = (list: Array<[string, string]>) => list.map(([c, label]) => parseCidr(c, label)!);

// Not public unicast: refused unless WEBHOOK_ALLOWED_PRIVATE_CIDRS admits the range.
const BLOCKED: Cidr[] = cidrs([
  ["0.0.0.0/8", "this-network"],
  ["10.0.0.0/8", "private"],
  ["100.64.0.0/10", "carrier-grade NAT"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link-local / cloud metadata"],
  ["172.16.0.0/12", "private"],
  ["192.0.0.0/24", "IETF protocol assignments"],
  ["192.0.2.0/24", "documentation"],
  ["192.88.99.0/24", "6to4 relay"],
  ["192.168.0.0/16", "private"],
  ["198.18.0.0/15", "benchmarking"],
  ["198.51.100.0/24", "documentation"],
  ["203.0.113.0/24", "documentation"],
  ["224.0.0.0/4", "multicast"],
  ["240.0.0.0/4", "reserved / broadcast"],
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  ["fe80::/10", "link-local"],
  ["fc00::/7", "unique-local"],
  ["fec0::/10", "site-local"],
  ["ff00::/8", "multicast"],
  ["100::/64", "discard"],
  ["2001:db8::/32", "documentation"],
]);

// IPv6 forms that wrap an IPv4 address (or tunnel to one): refused outright, even when the
// wrapped address is public, because the wrapped address is where the packet really goes.
const WRAPPED: Cidr[] = cidrs([
  ["::ffff:0:0/96", "IPv4-mapped"],
  ["::/96", "IPv4-compatible"],
  ["64:ff9b::/96", "NAT64"],
  ["64:ff9b:1::/48", "NAT64 (local)"],
  ["2002::/16", "6to4"],
  ["2001::/32", "Teredo"],
]);

let allowedCache: { text: string; list: Cidr[] } | undefined;
export function allowedPrivateCidrs(text = env().WEBHOOK_ALLOWED_PRIVATE_CIDRS): Cidr[] {
  if (allowedCache?.text === text) return allowedCache.list;
  const list = text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const c = parseCidr(s);
      if (!c) throw new Error(`WEBHOOK_ALLOWED_PRIVATE_CIDRS: "${s}" is not a CIDR`);
      return c;
    });
  allowedCache = { text, list };
  return list;
}

/** Why an address may not be dialled, or null when it may. */
export function addressRefusal(address: string, allowed: Cidr[] = allowedPrivateCidrs()): string | null {
  const ip = parseIp(address);
  if (!ip) return `"${address}" is not an IP address`;
  if (ip.family === 6) {
    const wrapped = WRAPPED.find((c) => inCidr(ip, c));
    // ::/96 also holds :: and ::1, which are named by BLOCKED below.
    if (wrapped && !(wrapped.label === "IPv4-compatible" && ip.bytes.slice(0, 15).every((b) => b === 0))) {
      return `${address} is an ${wrapped.label} IPv6 address`;
    }
  }
  if (allowed.some((c) => inCidr(ip, c))) return null;
  const blocked = BLOCKED.find((c) => inCidr(ip, c));
  if (blocked) return `${address} is a ${blocked.label} address`;
  if (ip.family === 6 && (ip.bytes[0] & 0xe0) !== 0x20) return `${address} is not a global unicast IPv6 address`;
  return null;
}

// ---- URLs ---------------------------------------------------------------------------------------

/** The syntactic rules, and the host as the URL parser canonicalised it. */
export function parseEndpointUrl(raw: string): { url: URL; host: string; literal: boolean } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRuleError("malformed", "url is not an absolute URL");
  }
  if (url.protocol !== "https:") throw new UrlRuleError("https_only", `url must use https (got ${url.protocol.replace(/:$/, "")})`);
  if (url.username || url.password) throw new UrlRuleError("no_credentials", "url must not carry credentials (user:password@)");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!host) throw new UrlRuleError("malformed", "url has no host");
  return { url, host, literal: isIP(host) !== 0 };
}

type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

/** Every address the host resolves to must be allowed: one disallowed answer refuses the URL. */
export async function resolveAllowed(host: string, resolver: Resolver = systemResolver): Promise<Array<{ address: string; family: number }>> {
  if (isIP(host)) {
    const why = addressRefusal(host);
    if (why) throw new UrlRuleError("blocked_address", `url points at a disallowed address: ${why}`);
    return [{ address: host, family: isIP(host) }];
  }
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = await resolver(host);
  } catch (err) {
    throw new UrlRuleError("unresolvable", `url host "${host}" does not resolve (${(err as NodeJS.ErrnoException).code ?? "DNS error"})`);
  }
  if (!addresses.length) throw new UrlRuleError("unresolvable", `url host "${host}" does not resolve`);
  for (const a of addresses) {
    const why = addressRefusal(a.address);
    if (why) throw new UrlRuleError("blocked_address", `url host "${host}" resolves to a disallowed address: ${why}`);
  }
  return addresses;
}

/** Every rule, as at create: throws UrlRuleError naming the rule broken. */
export async function checkEndpointUrl(raw: string): Promise<URL> {
  const { url, host } = parseEndpointUrl(raw);
  await resolveAllowed(host);
  return url;
}

/**
 * The `lookup` of the delivery agent's sockets: resolves, refuses when any answer is disallowed,
 * and hands the socket the first approved address, so the connection goes exactly where the
 * check looked. (IP literals never reach a lookup; attempts check them before dialling.)
 */
export const pinnedLookup: LookupFunction = (hostname, options, callback) => {
  resolveAllowed(hostname).then(
    (addresses) => {
      const wanted = typeof options === "object" && options.family ? addresses.filter((a) => a.family === options.family) : addresses;
      const chosen = wanted.length ? wanted : addresses;
      if (typeof options === "object" && options.all) (callback as unknown as (e: null, a: typeof addresses) => void)(null, chosen);
      else callback(null, chosen[0].address, chosen[0].family);
    },
    (err: Error) => callback(Object.assign(err, { code: "EWEBHOOKADDRESS" }) as NodeJS.ErrnoException, "", 0),
  );
};
