// Request ids: `req_` + 10 Crockford base32 characters of milliseconds + 16 random ones (the
// ULID layout), so ids sort by time in logs and stay unguessable.
import { randomFillSync } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

// Random bytes are drawn 4 KiB at a time (256 ids per call to the system's generator): a call per
// request cost about 30 µs on the hot path (docs/decisions/091-subscription-list-from-binary-copy.md).
const pool = Buffer.alloc(4096);
let used = pool.length;

export function newRequestId(now = Date.now()): string {
  let time = "";
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  if (used + 16 > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  let rand = "";
  for (let i = 0; i < 16; i++) rand += ALPHABET[pool[used++] & 31];
  return `req_${time}${rand}`;
}

export const REQUEST_ID_RE = /^req_[0-9A-HJKMNP-TV-Z]{26}$/;
