// Shopify access tokens at rest (docs/decisions/038-secrets-at-rest.md). A copy
// of the database must not give Admin API access to every installed shop, so the `accessToken`
// and `refreshToken` columns of `Session` hold values sealed under ENCRYPTION_KEY
// (app/infra/secret-box.server.ts), bound to the session id. Everything that writes or reads a token
// goes through here: the Shopify library through EncryptedSessionStorage
// (app/shopify/encrypted-session-storage.server.ts), the platform layer through openSessionToken(),
// installs recorded by the seed and tests through sealSessionToken().
import { prisma } from "../db.server";
import { currentKeyId, isSealed, open, seal, sealedKeyId } from "../infra/secret-box.server";

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
