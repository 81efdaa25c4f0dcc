// API keys (docs/decisions/010-key-format-and-hashing.md). A key is `svc_sk_<id>_<secret>` (secret) or
// `svc_pk_<id>_<secret>` (publishable). The id is the ApiKey primary key, so authentication is
// one indexed lookup; only HMAC-SHA256(SERVICE_SECRET, salt || secret) is stored, so a database
// leak yields nothing usable and rotating SERVICE_SECRET invalidates every key at once.
// Deliberately absent: any operation that adds a scope or extends an expiry (mint a new key).
// There is no key cache anywhere, so a revocation is seen by the very next request on every replica.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { prisma } from "../../db.server";
import { hotQuery } from "../../infra/pg.server";
import { env } from "../../env.server";
import { ApiError } from "../../infra/errors";
import { audited, diffFields } from "../audit/audit.server";

/** The published vocabulary (/docs#section/Surfaces), in documentation order. */
export const PUBLISHED_SCOPES = [
  "read:subscriptions",
  "read:customers",
  "read:plans",
  "read:bundles",
  "read:mixmatch",
  "read:gifts",
  "read:winback",
  "read:notifications",
  "read:analytics",
  "read:audit",
  "write:subscriptions",
  "manage:webhooks",
  "write:plans",
  "write:bundles",
  "write:mixmatch",
  "write:gifts",
  "write:winback",
] as const;
export type Scope = (typeof PUBLISHED_SCOPES)[number];

/** Published but not built (docs/decisions/010-key-format-and-hashing.md): never offered at minting. */
export const UNBUILT_SCOPES: readonly Scope[] = ["write:plans", "write:bundles", "write:mixmatch", "write:gifts", "write:winback"];

/** What a secret key may be minted with. write:subscriptions is offered but never defaulted. */
export const MINTABLE_SCOPES: readonly Scope[] = PUBLISHED_SCOPES.filter((s) => !UNBUILT_SCOPES.includes(s));

/**
 * A publishable key lives in browsers and theme files, so it may only carry the catalogue reads
 * the Storefront API serves; customer data is reached on the Customer API through a session,
 * never through the key's scopes (the publishable key confers no authority on its own: /docs#tag/Customer-API:-Session).
 */
export const PUBLISHABLE_SCOPES: readonly Scope[] = ["read:plans", "read:bundles", "read:mixmatch"];

export type KeyKind = "SECRET" | "PUBLISHABLE";

const PREFIX: Record<KeyKind, string> = { SECRET: "svc_sk_", PUBLISHABLE: "svc_pk_" };
const ID_RE = /^[0-9a-f]{24}$/;
// svc_(sk|pk)_<24 hex id>_<43 base64url chars>: anything else is invalid without a DB read.
const TOKEN_RE = /^svc_(sk|pk)_([0-9a-f]{24})_([A-Za-z0-9_-]{43})$/;

export function hashSecret(salt: string, secret: string, serviceSecret = env().SERVICE_SECRET): string {
  return createHmac("sha256", serviceSecret).update(salt).update(secret).digest("hex");
}

/** Constant-time equality of two hex digests; the length check first keeps timingSafeEqual from throwing. */
export function digestsEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, "utf8");
  const bb = Buffer.from(b, "utf8");
  if (ab.length !== bb.length) return false;
  return timingSafeEqual(ab, bb);
}

export interface MintInput {
  shopId: string;
  name: string;
  scopes: string[];
  kind: KeyKind;
  expiresAt?: Date | null;
}

export interface MintedKey {
  id: string;
  /** The full key: shown once, never stored, unrecoverable. */
  key: string;
}

export function validateScopes(kind: KeyKind, scopes: string[]): Scope[] {
  const offered: readonly string[] = kind === "SECRET" ? MINTABLE_SCOPES : PUBLISHABLE_SCOPES;
  const unique = [...new Set(scopes)];
  // A secret key with no scope could call nothing; a publishable key with none is the Customer
  // API's key (sessions carry the authority there, not the key).
  if (kind === "SECRET" && unique.length === 0) throw new ApiError("invalid_request", "a secret key needs at least one scope");
  for (const s of unique) {
    if (!offered.includes(s)) {
      const why = (PUBLISHED_SCOPES as readonly string[]).includes(s)
        ? `is not offered on a ${kind === "SECRET" ? "secret" : "publishable"} key`
        : "is not a known scope";
      throw new ApiError("invalid_request", `scope "${s}" ${why}`);
    }
  }
  return unique as Scope[];
}

/** Mints a key; the audit trail records its name, kind, scopes and expiry, never the secret (docs/decisions/125-audit-log.md). */
export async function mintKey(input: MintInput): Promise<MintedKey> {
  return audited({ shopId: input.shopId, action: "api_key.mint", target: { type: "api_key", id: "new" } }, async (tx) => {
    const name = input.name.trim();
    if (!name || name.length > 100) throw new ApiError("invalid_request", "name must be 1 to 100 characters");
    if (input.kind !== "SECRET" && input.kind !== "PUBLISHABLE") throw new ApiError("invalid_request", "kind must be SECRET or PUBLISHABLE");
    const scopes = validateScopes(input.kind, input.scopes);
    if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) throw new ApiError("invalid_request", "expiresAt must be in the future");

    const id = randomBytes(12).toString("hex");
    const secret = randomBytes(32).toString("base64url");
    const salt = randomBytes(16).toString("hex");
    const row = await tx.apiKey.create({
      data: {
        id,
        shopId: input.shopId,
        kind: input.kind,
        name,
        scopes,
        salt,
        secretHash: hashSecret(salt, secret),
        expiresAt: input.expiresAt ?? null,
      },
    });
    return {
      result: { id, key: `${PREFIX[input.kind]}${id}_${secret}` },
      targetId: id,
      changes: diffFields(null, row, ["name", "kind", "scopes", "expiresAt"]),
    };
  });
}

export interface KeySummary {
  id: string;
  name: string;
  kind: KeyKind;
  scopes: string[];
  /** Display form, e.g. `svc_sk_<id>_…`: identifies the key without revealing it. */
  hint: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** Every key of the shop, newest first. Never returns the salt or the hash. */
export async function listKeys(shopId: string): Promise<KeySummary[]> {
  const rows = await prisma.apiKey.findMany({
    where: { shopId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true, name: true, kind: true, scopes: true, createdAt: true, expiresAt: true, revokedAt: true, lastUsedAt: true },
  });
  return rows.map((r) => ({ ...r, hint: `${PREFIX[r.kind]}${r.id}_…` }));
}

/** Revoke one key (idempotent). With shopId, only that shop's key can be revoked. Returns whether a key matched. */
export async function revokeKey(id: string, opts: { shopId?: string } = {}): Promise<boolean> {
  if (!ID_RE.test(id)) return false;
  const existing = await prisma.apiKey.findFirst({ where: { id, ...(opts.shopId ? { shopId: opts.shopId } : {}) }, select: { id: true, shopId: true } });
  if (!existing) return false;
  await audited({ shopId: existing.shopId, action: "api_key.revoke", target: { type: "api_key", id } }, async (tx) => {
    const revokedAt = new Date();
    const r = await tx.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt } });
    return { result: undefined, changes: r.count ? diffFields({ revokedAt: null }, { revokedAt }, ["revokedAt"]) : {} };
  });
  return true;
}

/** Uninstall revokes every key of the shop; reinstalling does not resurrect them (docs/decisions/010-key-format-and-hashing.md). */
export async function revokeAllKeys(shopId: string): Promise<number> {
  return audited({ shopId, action: "api_key.revoke_all", target: { type: "api_key", id: "all" } }, async (tx) => {
    const r = await tx.apiKey.updateMany({ where: { shopId, revokedAt: null }, data: { revokedAt: new Date() } });
    return { result: r.count, changes: diffFields({ revoked: 0 }, { revoked: r.count }, ["revoked"]) };
  });
}

export interface AuthenticatedShop {
  id: string;
  domain: string;
  appPlan: "FREE" | "PRO";
  partnerDevelopment: boolean;
  platformPlanPaid: boolean;
  /** When the plan facts above were last read from Shopify (the gate's freshness, decision 121). */
  planCheckedAt: Date | null;
  /** Shop.storefrontOrigins + PortalConfig.allowedOrigins (CORS allowlist inputs). */
  storefrontOrigins: string[];
  configuredOrigins: string[];
}

export type KeyAuthResult =
  | { ok: true; key: { id: string; name: string; kind: KeyKind; scopes: string[] }; shop: AuthenticatedShop }
  | { ok: false; reason: "invalid" | "revoked" | "expired" | "shop_unavailable" };

interface AuthRow {
  id: string;
  name: string;
  shop_id: string;
  kind: KeyKind;
  scopes: string[];
  salt: string;
  secret_hash: string;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  domain: string;
  install_state: "INSTALLED" | "UNINSTALLED";
  app_plan: "FREE" | "PRO";
  partner_development: boolean;
  platform_plan_paid: boolean;
  plan_checked_at: Date | null;
  storefront_origins: string[];
  allowed_origins: string[] | null;
  has_offline_session: boolean;
}

const AUTH_SQL = `
    SELECT k.id, k.name, k.shop_id, k.kind::text AS kind, k.scopes, k.salt, k.secret_hash, k.expires_at, k.revoked_at, k.last_used_at,
           s.domain, s.install_state::text AS install_state, s.app_plan::text AS app_plan,
           s.partner_development, s.platform_plan_paid, s.plan_checked_at, s.storefront_origins, pc.allowed_origins,
           EXISTS (SELECT 1 FROM "Session" se WHERE se.id = 'offline_' || s.domain) AS has_offline_session
      FROM api_keys k
      JOIN shops s ON s.id = k.shop_id
      LEFT JOIN portal_configs pc ON pc.shop_id = s.id
     WHERE k.id = $1`;

// The one query on every API request: a named prepared statement on the hot-path pool
// (app/infra/pg.server.ts explains why it is not Prisma).
// Hashed against when the id is unknown, so an unknown id costs the same as a wrong secret.
const DUMMY_SALT = "0".repeat(32);
const LAST_USED_GRANULARITY_MS = 60_000;

/**
 * Resolve a presented token. One round trip: the key by primary key, joined with its shop, the
 * shop's portal origins and whether the app still holds the shop's offline session.
 *
 * Order (decision 010): shape/kind → unknown id or wrong secret (`invalid`) → key revoked or shop
 * uninstalled (`revoked`) → past expiresAt (`expired`) → app lost its offline access to the shop
 * although the shop row says installed (`shop_unavailable`, fails closed).
 */
export async function authenticateKey(token: string, opts: { kind?: KeyKind; now?: Date } = {}): Promise<KeyAuthResult> {
  const m = TOKEN_RE.exec(token);
  if (!m) return { ok: false, reason: "invalid" };
  const kind: KeyKind = m[1] === "sk" ? "SECRET" : "PUBLISHABLE";
  if (opts.kind && opts.kind !== kind) return { ok: false, reason: "invalid" };
  const id = m[2];
  const secret = m[3];

  const [row] = await hotQuery<AuthRow>({ text: AUTH_SQL, values: [id] }, { name: "svc_authenticate_key" });
  const presented = hashSecret(row?.salt ?? DUMMY_SALT, secret);
  if (!row || !digestsEqual(presented, row.secret_hash) || row.kind !== kind) return { ok: false, reason: "invalid" };

  const now = opts.now ?? new Date();
  if (row.revoked_at || row.install_state === "UNINSTALLED") return { ok: false, reason: "revoked" };
  if (row.expires_at && row.expires_at.getTime() <= now.getTime()) return { ok: false, reason: "expired" };
  if (!row.has_offline_session) return { ok: false, reason: "shop_unavailable" };

  // Last-used is advisory (shown in the admin): at most one write per key per minute, not awaited.
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() > LAST_USED_GRANULARITY_MS) {
    prisma.apiKey.update({ where: { id }, data: { lastUsedAt: now } }).catch(() => undefined);
  }

  return {
    ok: true,
    key: { id: row.id, name: row.name, kind, scopes: row.scopes },
    shop: {
      id: row.shop_id,
      domain: row.domain,
      appPlan: row.app_plan,
      partnerDevelopment: row.partner_development,
      platformPlanPaid: row.platform_plan_paid,
      planCheckedAt: row.plan_checked_at,
      storefrontOrigins: row.storefront_origins,
      configuredOrigins: row.allowed_origins ?? [],
    },
  };
}
