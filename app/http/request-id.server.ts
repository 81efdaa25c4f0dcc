// Request ids: `req_` + 10 Crockford base32 characters of milliseconds + 16 random ones (the
// ULID layout), so ids sort by time in logs and stay unguessable.
import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export function newRequestId(now = Date.now()): string {
  let time = "";
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(16);
  let rand = "";
  for (let i = 0; i < 16; i++) rand += ALPHABET[bytes[i] & 31];
  return `req_${time}${rand}`;
}

export const REQUEST_ID_RE = /^req_[0-9A-HJKMNP-TV-Z]{26}$/;
