// The relay's ledger: did the SMTP server accept a message with this Message-ID? Asked only for a
// message in doubt, one whose sender stopped between claiming it and recording the SMTP answer
// (docs/decisions/133-mail-in-doubt.md). SMTP itself cannot say; a relay that keeps an acceptance
// log can. The protocol is one GET: `MAIL_LEDGER_URL?message_id=<id>` answers
// `{"accepted": true|false}` (the local mailbox serves it at /api/accepted).
import { env } from "../env.server";

/** true/false from the ledger; null when no ledger is configured. Throws when it cannot be asked. */
export async function relayAccepted(messageId: string): Promise<boolean | null> {
  const base = env().MAIL_LEDGER_URL;
  if (!base) return null;
  const url = new URL(base);
  url.searchParams.set("message_id", messageId);
  const res = await fetch(url, { signal: AbortSignal.timeout(5_000), redirect: "error" });
  if (!res.ok) throw new Error(`the mail ledger answered ${res.status}`);
  const body = (await res.json()) as { accepted?: unknown };
  if (typeof body.accepted !== "boolean") throw new Error("the mail ledger's answer has no boolean `accepted`");
  return body.accepted;
}
