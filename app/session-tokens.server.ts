// Shopify access tokens at rest (issue 14 item 5; docs/decisions/038-secrets-at-rest.md). A copy
// of the database must not give Admin API access to every installed shop, so the `accessToken`
// and `refreshToken` columns of `Session` hold values sealed under ENCRYPTION_KEY
// (app/secret-box.server.ts), bound to the session id. Everything that writes or reads a token
// goes through here: the Shopify library through EncryptedSessionStorage, the platform layer
// through openSessionToken(), installs recorded by the seed and tests through sealSessionToken().
import { Session } from "@shopify/shopify-api";
import type { SessionStorage } from "@shopify/shopify-app-session-storage";
import { prisma } from "./db.server";
import { currentKeyId, isSealed, open, seal, sealedKeyId } from "./secret-box.server";

const context = (sessionId: string, field: "accessToken" | "refreshToken") => `session:${sessionId}:${field}`;

export function sealSessionToken(sessionId: string, token: string, field: "accessToken" | "refreshToken" = "accessToken"): string {
  return seal(token, context(sessionId, field));
}

/**
 * The token in clear. A value that is not sealed is a row written before encryption existed:
 * it is returned as is (so an upgrade does not uninstall anyone) until `npm run cli -- sessions
 * reseal` seals it.
 */
export function openSessionToken(sessionId: string, stored: string, field: "accessToken" | "refreshToken" = "accessToken"): string {
  return isSealed(stored) ? open(stored, context(sessionId, field)) : stored;
}

function mapTokens(session: Session, fn: (value: string, field: "accessToken" | "refreshToken") => string): Session {
  const params = session.toObject();
  return new Session({
    ...params,
    ...(params.accessToken ? { accessToken: fn(params.accessToken, "accessToken") } : {}),
    ...(params.refreshToken ? { refreshToken: fn(params.refreshToken, "refreshToken") } : {}),
  });
}

/** The Shopify library's session storage with the tokens sealed on the way in and opened on the way out. */
export class EncryptedSessionStorage implements SessionStorage {
  constructor(private readonly inner: SessionStorage) {}

  storeSession(session: Session): Promise<boolean> {
    return this.inner.storeSession(mapTokens(session, (v, f) => sealSessionToken(session.id, v, f)));
  }

  async loadSession(id: string): Promise<Session | undefined> {
    const session = await this.inner.loadSession(id);
    return session && mapTokens(session, (v, f) => openSessionToken(id, v, f));
  }

  async findSessionsByShop(shop: string): Promise<Session[]> {
    const sessions = await this.inner.findSessionsByShop(shop);
    return sessions.map((s) => mapTokens(s, (v, f) => openSessionToken(s.id, v, f)));
  }

  deleteSession(id: string): Promise<boolean> {
    return this.inner.deleteSession(id);
  }

  deleteSessions(ids: string[]): Promise<boolean> {
    return this.inner.deleteSessions(ids);
  }
}

/**
 * Seals every token that is in clear or sealed with an older key under the current
 * ENCRYPTION_KEY (key rotation, and the upgrade from plaintext rows). Safe to run at any time
 * and more than once; each row is rewritten only if it still holds the value read.
 */
export async function resealSessionTokens(): Promise<{ resealed: number; total: number }> {
  const current = currentKeyId();
  const rows = await prisma.session.findMany({ select: { id: true, accessToken: true, refreshToken: true } });
  let resealed = 0;
  for (const row of rows) {
    const stale = (v: string | null) => v !== null && v !== "" && sealedKeyId(v) !== current;
    if (!stale(row.accessToken) && !stale(row.refreshToken)) continue;
    const data: { accessToken?: string; refreshToken?: string } = {};
    if (stale(row.accessToken)) data.accessToken = sealSessionToken(row.id, openSessionToken(row.id, row.accessToken));
    if (row.refreshToken && stale(row.refreshToken)) {
      data.refreshToken = sealSessionToken(row.id, openSessionToken(row.id, row.refreshToken, "refreshToken"), "refreshToken");
    }
    const { count } = await prisma.session.updateMany({ where: { id: row.id, accessToken: row.accessToken, refreshToken: row.refreshToken }, data });
    resealed += count;
  }
  return { resealed, total: rows.length };
}
