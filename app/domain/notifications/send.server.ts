// Sending one message row (the `mail` queue's "send" job; docs/decisions/101-102).
//
//   1. claim: the row moves under this worker's lease only if it is queued or deferred, due, and
//      nobody else holds an unexpired lease (one UPDATE; two workers cannot both win it);
//   2. decide: a kind the shop turned off, a category the customer opted out of (essential mail
//      is never gated) or a suppressed address ends as `skipped`, with the reason;
//   3. render (the shop's template or the default) and hand it to SMTP with the Message-ID derived
//      from the idempotency key and the row's signed VERP return path;
//   4. record: accepted -> `sent` (SMTP response and Message-ID kept) before the job is acked;
//      5xx -> `bounced` + the address suppressed; 4xx or no answer -> `deferred`, retried with
//      back-off. `sent` is not `delivered`: only a DSN or a provider event says that (evidence.server.ts).
//
// A message in doubt (docs/decisions/133-mail-in-doubt.md): its last claim lapsed unsettled, so its
// sender stopped somewhere between the claim and step 4, perhaps after the SMTP server accepted it.
// The relay's ledger (MAIL_LEDGER_URL) says whether it did: accepted -> `sent`, not -> sent now.
// Without a ledger the row is `held` for the merchant to resend: never sent twice by itself.
import type { Prisma } from "@prisma/client";
import { prisma } from "../../db.server";
import { env } from "../../env.server";
import { log } from "../../infra/log.server";
import { relayAccepted } from "../../infra/mail-ledger.server";
import { mailTransport } from "../../infra/mailer.server";
import { enqueue, QUEUES } from "../../infra/queues.server";
import { platformFor } from "../../platform/index.server";
import { normalisePreferences } from "../customer/notification-preferences.server";
import { isEssential, messageKind, type MailCategory } from "./catalogue";
import { giftClaimUrl, messageIdFor, unsubscribeUrl, verpAddress, winbackReturnUrl } from "./links.server";
import { mailJobId } from "./outbox.server";
import { renderMessage } from "./render.server";
import { shopMailContext, templateIn } from "./shop-context.server";
import { isSuppressed, suppress } from "./suppression.server";

export type SendOutcome = "sent" | "deferred" | "bounced" | "skipped" | "failed" | "held" | "not-due" | "settled";

/** Thrown when another worker holds the row's lease: BullMQ retries the job after its back-off. */
export class LeaseHeld extends Error {
  constructor(rowId: string) {
    super(`notification ${rowId} is being sent by another worker`);
    this.name = "LeaseHeld";
  }
}

interface Claimed {
  id: string;
  shop_id: string;
  customer_gid: string;
  contract_gid: string | null;
  event: string;
  category: string;
  idempotency_key: string;
  payload: Record<string, string>;
  recipient: string | null;
  attempts: number;
  preferences: Record<string, unknown> | null;
  suppressed: boolean;
  /** The previous claim lapsed without a settlement (its lease is still on the row). */
  in_doubt: boolean;
}

/** Back-off of the n-th deferral (1-based): base * 2^(n-1), at most an hour. */
export const retryDelayMs = (attempt: number, base = env().MAIL_RETRY_BASE_MS) => Math.min(base * 2 ** (attempt - 1), 3_600_000);

async function claim(rowId: string, leaseMs: number): Promise<Claimed | null> {
  // One statement claims the row and reads what the decision needs: the customer's preferences,
  // whether a known recipient is suppressed, and whether the last claim lapsed (every settlement
  // clears the lease, so a lease still on the row is a sender that stopped mid-way).
  const rows = await prisma.$queryRaw<Claimed[]>`
    UPDATE notification_log n SET lease_until = now() + make_interval(secs => ${leaseMs / 1000}), attempts = attempts + 1, updated_at = now()
    FROM (SELECT id, lease_until IS NOT NULL AS in_doubt FROM notification_log WHERE id = ${rowId}) prev
    WHERE n.id = prev.id AND n.status IN ('queued', 'deferred') AND n.send_after <= now()
      AND (n.lease_until IS NULL OR n.lease_until < now()) AND n.idempotency_key IS NOT NULL
    RETURNING n.id, n.shop_id, n.customer_gid, n.contract_gid, n.event, n.category, n.idempotency_key, n.payload, n.recipient, n.attempts, prev.in_doubt,
      (SELECT p.values FROM notification_preferences p WHERE p.shop_id = n.shop_id AND p.customer_gid = n.customer_gid) AS preferences,
      EXISTS (SELECT 1 FROM email_suppressions s WHERE s.shop_id = n.shop_id AND s.address = lower(n.recipient)) AS suppressed`;
  return rows[0] ?? null;
}

async function settle(
  rowId: string,
  data: Parameters<typeof prisma.notificationLogEntry.update>[0]["data"],
  db: Prisma.TransactionClient | typeof prisma = prisma,
): Promise<void> {
  await db.notificationLogEntry.updateMany({ where: { id: rowId, status: { in: ["queued", "deferred"] } }, data: { ...data, leaseUntil: null } });
}

async function resolveRecipient(row: Claimed): Promise<string | null> {
  if (row.recipient) return row.recipient;
  const shop = await prisma.shop.findUniqueOrThrow({ where: { id: row.shop_id }, select: { domain: true } });
  const [customer] = await (await platformFor(shop.domain, "reminders")).getCustomers([row.customer_gid]);
  const email = customer?.email?.trim() || null;
  if (email) await prisma.notificationLogEntry.update({ where: { id: row.id }, data: { recipient: email } });
  return email;
}

function gate(row: Claimed, disabledKinds: string[]): string | null {
  if (isEssential(row.event)) return null;
  if (disabledKinds.includes(row.event)) return "turned off in the shop's notification settings";
  const values = normalisePreferences(row.preferences ?? {});
  const category = row.category as MailCategory;
  if (category !== "account" && values[category] === false) return `the customer turned off ${category} e-mail`;
  return null;
}

/**
 * Variables that carry a credential are made at render time, not stored in the outbox's payload:
 * the win-back come-back link is signed for its send (docs/decisions/117-winback-campaign-job.md).
 */
function withSignedLinks(row: Claimed): Record<string, string> {
  // A gift's claim link (docs/decisions/136) and a win-back's come-back link (decision 117).
  if (row.event === "gift_claim") return { ...row.payload, claim_url: giftClaimUrl(row.id) };
  if (row.event !== "winback_offer" || !row.payload.send_id) return row.payload;
  const { send_id: sendId, ...vars } = row.payload;
  return { ...vars, return_url: winbackReturnUrl(row.shop_id, sendId) };
}

/** Sends the row if it is due and unclaimed; safe to run any number of times (see the header). */
export async function sendMailRow(rowId: string): Promise<SendOutcome> {
  const config = env();
  const row = await claim(rowId, config.MAIL_LEASE_MS);
  if (!row) return afterLostClaim(rowId);
  if (row.in_doubt) {
    const settled = await settleInDoubt(row);
    if (settled) return settled;
  }
  const kind = messageKind(row.event);
  const shop = await shopMailContext(row.shop_id);
  const settings = shop.settings;
  const refusal = kind ? gate(row, settings.disabledKinds) : `unknown message kind ${row.event}`;
  if (refusal) {
    await settle(row.id, { status: "skipped", reason: refusal });
    return "skipped";
  }
  const to = await resolveRecipient(row);
  if (!to) {
    await settle(row.id, { status: "failed", reason: "the customer has no e-mail address" });
    return "failed";
  }
  if (row.recipient ? row.suppressed : await isSuppressed(row.shop_id, to)) {
    await settle(row.id, { status: "skipped", reason: "the address is on the shop's suppression list" });
    return "skipped";
  }

  const essential = isEssential(row.event);
  const unsubscribe = essential ? undefined : unsubscribeUrl({ shopId: row.shop_id, customerGid: row.customer_gid, category: row.category });
  const template = templateIn(shop, row.event);
  let rendered;
  try {
    rendered = renderMessage(template, withSignedLinks(row), unsubscribe);
  } catch (err) {
    await settle(row.id, { status: "failed", reason: `template error: ${(err as Error).message}`.slice(0, 1000) });
    return "failed";
  }
  const dkim = shop.dkim;
  const fromAddress = settings.sendingDomain ? `notifications@${settings.sendingDomain}` : config.MAIL_FROM;
  const messageId = messageIdFor(row.shop_id, row.idempotency_key);
  try {
    const info = await mailTransport().sendMail({
      from: settings.senderName ? { name: settings.senderName, address: fromAddress } : fromAddress,
      replyTo: settings.replyTo ?? undefined,
      to,
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
      messageId,
      envelope: { from: verpAddress(row.id), to: [to] },
      headers: {
        "X-Notification-Kind": row.event,
        ...(unsubscribe ? { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } : {}),
      },
      ...(dkim ? { dkim } : {}),
    });
    // The hot path's one write, as plain SQL (no query compile per message).
    await prisma.$executeRaw`
      UPDATE notification_log SET status = 'sent', sent_at = now(), smtp_response = ${String(info.response ?? "").slice(0, 1000)}, message_id = ${messageId},
        title = ${rendered.subject.slice(0, 300)}, reason = NULL, lease_until = NULL, updated_at = now()
      WHERE id = ${row.id} AND status IN ('queued', 'deferred')`;
    return "sent";
  } catch (err) {
    return failedAttempt(row, to, err as Error & { responseCode?: number; response?: string; code?: string });
  }
}

async function failedAttempt(row: Claimed, to: string, err: Error & { responseCode?: number; response?: string; code?: string }): Promise<SendOutcome> {
  const reply = (err.response ?? err.message).slice(0, 1000);
  if (err.responseCode && err.responseCode >= 500) {
    await prisma.$transaction(async (tx) => {
      await settle(row.id, { status: "bounced", bouncedAt: new Date(), smtpResponse: reply, reason: reply }, tx);
      await suppress(row.shop_id, to, `hard bounce: ${reply}`, tx);
    });
    return "bounced";
  }
  if (row.attempts >= env().MAIL_MAX_ATTEMPTS) {
    await settle(row.id, { status: "failed", smtpResponse: reply, reason: `gave up after ${row.attempts} attempts: ${reply}` });
    return "failed";
  }
  const sendAfter = new Date(Date.now() + retryDelayMs(row.attempts));
  await settle(row.id, { status: "deferred", smtpResponse: err.responseCode ? reply : null, reason: reply, sendAfter });
  await enqueue(QUEUES.mail, "send", { rowId: row.id }, { jobId: mailJobId(row.id, row.attempts), delay: sendAfter.getTime() - Date.now() });
  log.info("mail deferred", { row: row.id, attempt: row.attempts, code: err.responseCode ?? err.code });
  return "deferred";
}

/**
 * A row whose previous sender stopped after claiming it: the relay's ledger says whether SMTP
 * accepted its Message-ID. Accepted -> `sent`; not -> null (send it now); no ledger -> `held`;
 * a ledger that cannot be asked -> retried later, the row still in doubt (its lease is kept).
 */
async function settleInDoubt(row: Claimed): Promise<SendOutcome | null> {
  const messageId = messageIdFor(row.shop_id, row.idempotency_key);
  let accepted: boolean | null;
  try {
    accepted = await relayAccepted(messageId);
  } catch (err) {
    const reason = `in doubt, the mail ledger could not be asked: ${(err as Error).message}`.slice(0, 1000);
    if (row.attempts >= env().MAIL_MAX_ATTEMPTS) {
      await settle(row.id, { status: "held", reason });
      return "held";
    }
    const sendAfter = new Date(Date.now() + retryDelayMs(row.attempts));
    await prisma.notificationLogEntry.updateMany({
      where: { id: row.id, status: { in: ["queued", "deferred"] } },
      data: { status: "deferred", sendAfter, leaseUntil: new Date(), reason },
    });
    await enqueue(QUEUES.mail, "send", { rowId: row.id }, { jobId: mailJobId(row.id, row.attempts), delay: sendAfter.getTime() - Date.now() });
    return "deferred";
  }
  if (accepted === false) return null;
  if (accepted) {
    await settle(row.id, {
      status: "sent",
      sentAt: new Date(),
      messageId,
      smtpResponse: "accepted (the relay's ledger: the sender stopped before recording the reply)",
    });
    return "sent";
  }
  await settle(row.id, {
    status: "held",
    reason: "the sender stopped while handing this message to the mail server, so it may have been sent; resend it if the customer did not get it",
  });
  return "held";
}

/** The claim failed: settled already, not due yet (re-queued for then), or leased by someone else. */
async function afterLostClaim(rowId: string): Promise<SendOutcome> {
  const row = await prisma.notificationLogEntry.findUnique({
    where: { id: rowId },
    select: { status: true, sendAfter: true, leaseUntil: true, attempts: true },
  });
  if (!row || !["queued", "deferred"].includes(row.status)) return "settled";
  const now = Date.now();
  if (row.leaseUntil && row.leaseUntil.getTime() >= now) throw new LeaseHeld(rowId);
  if (row.sendAfter.getTime() > now) {
    await enqueue(QUEUES.mail, "send", { rowId }, { jobId: mailJobId(rowId, row.attempts), delay: row.sendAfter.getTime() - now });
    return "not-due";
  }
  throw new LeaseHeld(rowId);
}
