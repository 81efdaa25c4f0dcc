// HS256 JWTs: the session tokens App Bridge would mint (signed with the app's API secret).
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";

const b64url = (s: string | Buffer) => Buffer.from(s).toString("base64url");

export function signHs256(claims: Record<string, unknown>, secret: string): string {
  const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = b64url(JSON.stringify(claims));
  const sig = createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
  return `${head}.${body}.${sig}`;
}

/** The claims when signature and time window are valid, else null. */
export function verifyHs256(token: string, secret: string, nowSeconds: number): Record<string, unknown> | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [head, body, sig] = parts;
  const expected = createHmac("sha256", secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(sig, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const header = JSON.parse(Buffer.from(head, "base64url").toString()) as { alg?: string };
    if (header.alg !== "HS256") return null;
    const claims = JSON.parse(Buffer.from(body, "base64url").toString()) as Record<string, unknown>;
    // Shopify allows a few seconds of clock skew.
    if (typeof claims.exp === "number" && claims.exp + 5 < nowSeconds) return null;
    if (typeof claims.nbf === "number" && claims.nbf - 5 > nowSeconds) return null;
    return claims;
  } catch {
    return null;
  }
}

/** A session token for `shop` as App Bridge's shopify.idToken() returns it. */
export function mintSessionToken(opts: { shop: string; apiKey: string; apiSecret: string; userId?: number; now: Date }): string {
  const iat = Math.floor(opts.now.getTime() / 1000);
  return signHs256(
    {
      iss: `https://${opts.shop}/admin`,
      dest: `https://${opts.shop}`,
      aud: opts.apiKey,
      sub: String(opts.userId ?? 1),
      exp: iat + 60,
      nbf: iat,
      iat,
      jti: randomUUID(),
      sid: randomUUID(),
    },
    opts.apiSecret,
  );
}
