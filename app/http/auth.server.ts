// Credential checks shared by every surface, in the documented order (/docs#section/Conventions; docs/decisions/010):
// missing_credential → invalid_credential → credential_revoked → credential_expired →
// shop_unavailable; the kernel then applies the plan gate and the route's scopes.
import { ApiError } from "../infra/errors";
import { authenticateKey, type AuthenticatedShop, type KeyKind } from "../domain/keys/keys.server";
import { verifyCustomerSession } from "../domain/customer/session.server";

/** One message for every unresolvable token: it never says which check failed. */
export const INVALID_CREDENTIAL_MESSAGE = "The credential is not valid for this API.";

export interface Principal {
  key: { id: string; name: string; kind: KeyKind; scopes: string[] };
  shop: AuthenticatedShop;
}

export function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (!header) return null;
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return m ? m[1] : null;
}

export async function authenticateRequest(request: Request, kind: KeyKind, surfaceLabel: string): Promise<Principal> {
  const token = bearerToken(request);
  if (!token) {
    const kindWord = kind === "SECRET" ? "secret" : "publishable";
    throw new ApiError("missing_credential", `Send your ${kindWord} key as "Authorization: Bearer <key>" on every ${surfaceLabel} request.`);
  }
  const result = await authenticateKey(token, { kind });
  if (result.ok) return { key: result.key, shop: result.shop };
  switch (result.reason) {
    case "invalid":
      throw new ApiError("invalid_credential", INVALID_CREDENTIAL_MESSAGE);
    case "revoked":
      throw new ApiError("credential_revoked", "This key has been revoked (or the app was uninstalled from the shop). Mint a new key.");
    case "expired":
      throw new ApiError("credential_expired", "This key is past its expiry. Mint a new key; expiry cannot be extended.");
    case "shop_unavailable":
      throw new ApiError("shop_unavailable", "The service is no longer installed on this shop.");
  }
}

export const SESSION_HEADER = "X-Service-Session" as const; // a literal type, so a response schema can declare it

/** Customer API: the X-Service-Session claim must name this shop and this publishable key. */
export function authenticateSession(request: Request, principal: Principal): string {
  const token = request.headers.get(SESSION_HEADER)?.trim();
  if (!token) throw new ApiError("missing_credential", `Send the customer session as "${SESSION_HEADER}: <session_token>" (from POST /session).`);
  const check = verifyCustomerSession(token, { shopId: principal.shop.id, keyId: principal.key.id });
  if (check.ok) return check.customerId;
  if (check.reason === "expired") throw new ApiError("credential_expired", "The customer session has expired. Call POST /session again.");
  throw new ApiError("invalid_credential", INVALID_CREDENTIAL_MESSAGE);
}
