// The Shopify library's session storage with the access tokens sealed at rest
// (docs/decisions/038-secrets-at-rest.md): sealed on the way in, opened on the way out, through
// the one token module (app/shopify/session-tokens.server.ts). Kept apart from it so processes that
// only need the tokens (workers, CLI) do not load the Shopify library.
import { Session } from "@shopify/shopify-api";
import type { SessionStorage } from "@shopify/shopify-app-session-storage";
import { openSessionToken, sealSessionToken } from "./session-tokens.server";

function mapTokens(session: Session, fn: (value: string, field: "accessToken" | "refreshToken") => string): Session {
  const params = session.toObject();
  return new Session({
    ...params,
    ...(params.accessToken ? { accessToken: fn(params.accessToken, "accessToken") } : {}),
    ...(params.refreshToken ? { refreshToken: fn(params.refreshToken, "refreshToken") } : {}),
  });
}

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
