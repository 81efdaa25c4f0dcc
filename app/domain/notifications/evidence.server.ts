// Evidence that moves a sent message on (docs/decisions/102-delivery-evidence.md): `sent` only
// means an SMTP server accepted it. Two sources say more:
//   - a delivery status notification (RFC 3464, multipart/report) that comes back to the message's
//     signed VERP return path, posted raw by an inbound-mail relay to POST /email/dsn;
//   - Mailgun's signed event webhook (POST /email/mailgun): HMAC-SHA256 of timestamp + token under
//     the signing key, compared in constant time, no older than 15 minutes, and taken once: its
//     token is recorded after the event is applied, so a captured event cannot be replayed.
// Action delivered -> `delivered`; failed (permanent) -> `bounced` and the address suppressed;
// anything else (delayed, a temporary failure) is kept as the reason and changes no status.
import { createHmac, timingSafeEqual } from "node:crypto";
import { simpleParser } from "mailparser";
import { prisma } from "../../db.server";
import { env } from "../../env.server";
import { rowFromVerp } from "./links.server";
import { suppress } from "./suppression.server";

export type EvidenceResult = { matched: false } | { matched: true; rowId: string; status: string };

type Verdict = { kind: "delivered" } | { kind: "bounced"; reason: string } | { kind: "note"; reason: string };

async function apply(row: { id: string; shopId: string; status: string; recipient: string | null }, verdict: Verdict, at: Date): Promise<EvidenceResult> {
  if (verdict.kind === "delivered") {
    await prisma.notificationLogEntry.updateMany({ where: { id: row.id, status: "sent" }, data: { status: "delivered", deliveredAt: at } });
  } else if (verdict.kind === "bounced") {
    await prisma.$transaction(async (tx) => {
      const { count } = await tx.notificationLogEntry.updateMany({
        where: { id: row.id, status: { in: ["sent", "delivered"] } },
        data: { status: "bounced", bouncedAt: at, reason: verdict.reason.slice(0, 1000) },
      });
      if (count && row.recipient) await suppress(row.shopId, row.recipient, `bounce: ${verdict.reason}`, tx);
    });
  } else {
    await prisma.notificationLogEntry.updateMany({ where: { id: row.id, status: "sent" }, data: { reason: verdict.reason.slice(0, 1000) } });
  }
  const after = await prisma.notificationLogEntry.findUniqueOrThrow({ where: { id: row.id }, select: { status: true } });
  return { matched: true, rowId: row.id, status: after.status };
}

const ROW = { id: true, shopId: true, status: true, recipient: true } as const;

/** The per-recipient fields of a message/delivery-status body (the last recipient block wins). */
export function parseDeliveryStatus(text: string): { action: string | null; status: string | null; diagnostic: string | null } {
  const unfolded = text.replace(/\r?\n[ \t]+/g, " ");
  const field = (name: string) => {
    const all = [...unfolded.matchAll(new RegExp(`^${name}:\\s*(.+)$`, "gim"))];
    return all.length ? all[all.length - 1][1].trim() : null;
  };
  return { action: field("Action")?.toLowerCase() ?? null, status: field("Status"), diagnostic: field("Diagnostic-Code") };
}

/** A DSN posted raw: finds the message by the VERP address it came back to (or its Message-ID) and applies it. */
export async function applyDsn(raw: Buffer | string, now = new Date()): Promise<EvidenceResult> {
  const parsed = await simpleParser(raw);
  const text = typeof raw === "string" ? raw : raw.toString("utf8");
  // mailparser folds a message/delivery-status part into the text; the part itself is read from
  // the raw message (up to the next MIME boundary), so the human-readable part cannot pose as it.
  const start = text.search(/^Content-Type:\s*message\/(global-)?delivery-status/im);
  const statusText = start >= 0 ? text.slice(start).split(/\r?\n--/)[0] : "";
  const ds = parseDeliveryStatus(statusText.replace(/^Content-Type:[^\n]*\n/i, ""));
  if (!ds.action) return { matched: false };

  let rowId: string | null = null;
  for (const m of text.matchAll(/bounce\+[a-z0-9]+\.[A-Za-z0-9_-]{12}@[^\s>;"]+/gi)) {
    rowId = rowFromVerp(m[0]);
    if (rowId) break;
  }
  let row = rowId ? await prisma.notificationLogEntry.findUnique({ where: { id: rowId }, select: ROW }) : null;
  if (!row) {
    // The original's headers ride in the report (text/rfc822-headers): its Message-ID names it too.
    const original = parsed.attachments.find((a) => /rfc822/i.test(a.contentType))?.content.toString("utf8") ?? "";
    const mid = /^Message-ID:\s*(<[^>]+>)/im.exec(original)?.[1];
    if (mid) row = await prisma.notificationLogEntry.findFirst({ where: { messageId: mid }, select: ROW, orderBy: { createdAt: "desc" } });
  }
  if (!row) return { matched: false };
  const reason = [ds.status, ds.diagnostic].filter(Boolean).join(" ") || ds.action;
  if (ds.action === "delivered" || ds.action === "relayed" || ds.action === "expanded") return apply(row, { kind: "delivered" }, now);
  if (ds.action === "failed") return apply(row, { kind: "bounced", reason }, now);
  return apply(row, { kind: "note", reason: `${ds.action}: ${reason}` }, now);
}

export interface MailgunEvent {
  signature?: { timestamp?: string; token?: string; signature?: string };
  "event-data"?: {
    event?: string;
    severity?: string;
    timestamp?: number;
    reason?: string;
    message?: { headers?: { "message-id"?: string } };
    "delivery-status"?: { code?: number; message?: string; description?: string };
  };
}

/** Mailgun's signature: hex HMAC-SHA256 of timestamp + token under the signing key, within 15 minutes. */
export function verifyMailgun(body: MailgunEvent, now = Date.now(), key = env().MAILGUN_SIGNING_KEY): boolean {
  const s = body.signature;
  if (!key || !s?.timestamp || !s.token || !s.signature || !/^[0-9a-f]{64}$/i.test(s.signature)) return false;
  if (Math.abs(now / 1000 - Number(s.timestamp)) > 15 * 60) return false;
  const expected = createHmac("sha256", key)
    .update(s.timestamp + s.token)
    .digest();
  return timingSafeEqual(expected, Buffer.from(s.signature, "hex"));
}

/** Whether a verified event's token was already taken (a replay of a captured event). */
export async function mailgunTokenSeen(body: MailgunEvent): Promise<boolean> {
  const token = body.signature?.token;
  return !!token && (await prisma.mailgunEventToken.count({ where: { token } })) > 0;
}

/**
 * Applies a verified Mailgun event to the message it names (by Message-ID), then records its token.
 * Recorded after, not before: a delivery Mailgun retries because this one failed half-way is still
 * applied; two copies racing both apply the same verdict, which changes nothing twice.
 */
export async function applyMailgunEvent(body: MailgunEvent, now = new Date()): Promise<EvidenceResult> {
  const result = await applyMailgunVerdict(body, now);
  if (body.signature?.token) await prisma.mailgunEventToken.createMany({ data: [{ token: body.signature.token }], skipDuplicates: true });
  return result;
}

async function applyMailgunVerdict(body: MailgunEvent, now: Date): Promise<EvidenceResult> {
  const e = body["event-data"];
  const raw = e?.message?.headers?.["message-id"];
  if (!e || !raw) return { matched: false };
  const messageId = raw.startsWith("<") ? raw : `<${raw}>`;
  const row = await prisma.notificationLogEntry.findFirst({ where: { messageId }, select: ROW, orderBy: { createdAt: "desc" } });
  if (!row) return { matched: false };
  const at = e.timestamp ? new Date(e.timestamp * 1000) : now;
  const ds = e["delivery-status"];
  const reason = [ds?.code, ds?.message || ds?.description, e.reason].filter(Boolean).join(" ") || e.event || "";
  if (e.event === "delivered") return apply(row, { kind: "delivered" }, at);
  if (e.event === "failed" && e.severity === "permanent") return apply(row, { kind: "bounced", reason }, at);
  return apply(row, { kind: "note", reason: `${e.event ?? "event"}: ${reason}` }, at);
}
