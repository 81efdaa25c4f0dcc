// Secrets the app must be able to read back (Shopify access tokens; webhook signing secrets)
// are stored sealed with AES-256-GCM under ENCRYPTION_KEY (docs/decisions/038-secrets-at-rest.md).
//
//   enc:v1:<key id>:<iv>:<ciphertext>:<tag>      (base64url parts; key id = 8 hex of sha256(key))
//
// `context` is authenticated additional data naming where the value lives (e.g. the session
// id), so a sealed value copied into another row does not open. Keys in ENCRYPTION_KEYS_PREVIOUS
// still open values during a key rotation; seal() always uses ENCRYPTION_KEY.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { env } from "../env.server";

const PREFIX = "enc:v1:";

interface Key {
  id: string;
  bytes: Buffer;
}

function toKey(hex: string): Key {
  const bytes = Buffer.from(hex, "hex");
  return { id: createHash("sha256").update(bytes).digest("hex").slice(0, 8), bytes };
}

function keys(): { current: Key; all: Key[] } {
  const config = env();
  const current = toKey(config.ENCRYPTION_KEY);
  const previous = config.ENCRYPTION_KEYS_PREVIOUS.split(",")
    .map((k) => k.trim())
    .filter(Boolean)
    .map(toKey);
  return { current, all: [current, ...previous] };
}

export function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

/** The key id a sealed value was made with (null for a plaintext value). */
export function sealedKeyId(value: string): string | null {
  return isSealed(value) ? (value.slice(PREFIX.length).split(":")[0] ?? null) : null;
}

export function currentKeyId(): string {
  return keys().current.id;
}

export function seal(plaintext: string, context: string): string {
  const { current } = keys();
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", current.bytes, iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return `${PREFIX}${current.id}:${iv.toString("base64url")}:${body.toString("base64url")}:${cipher.getAuthTag().toString("base64url")}`;
}

export class SealError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SealError";
  }
}

export function open(sealed: string, context: string): string {
  if (!isSealed(sealed)) throw new SealError("value is not sealed");
  const [keyId, iv, body, tag] = sealed.slice(PREFIX.length).split(":");
  const key = keys().all.find((k) => k.id === keyId);
  if (!key) throw new SealError(`sealed with key ${keyId}, which is neither ENCRYPTION_KEY nor in ENCRYPTION_KEYS_PREVIOUS`);
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.bytes, Buffer.from(iv ?? "", "base64url"));
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(Buffer.from(tag ?? "", "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body ?? "", "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new SealError("sealed value does not open (altered, or moved from another row)");
  }
}
