// The templates a shop sends: its own edit of a kind, or the default (catalogue.ts). Saving checks
// that the template renders in strict mode with the kind's variables, so a typo is refused at the
// editor instead of failing at send time.
import { audited, diffFields } from "../audit/audit.server";
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { MESSAGE_KINDS, SAMPLE_VARIABLES, messageKind } from "./catalogue";
import { checkTemplate, renderMessage, type Rendered } from "./render.server";
import { env } from "../../env.server";
import { mailTransport } from "../../infra/mailer.server";
import { dkimKey, mailSettings } from "./settings.server";

export interface TemplateView {
  kind: string;
  label: string;
  category: string;
  subject: string;
  body: string;
  variables: string[];
  customised: boolean;
}

export async function templateFor(shopId: string, kind: string): Promise<{ subject: string; body: string }> {
  const row = await prisma.notificationTemplate.findUnique({ where: { shopId_kind: { shopId, kind } }, select: { subject: true, body: true } });
  if (row) return row;
  const k = messageKind(kind);
  if (!k) throw new Error(`unknown message kind ${kind}`);
  return { subject: k.subject, body: k.body };
}

export async function listTemplates(shopId: string): Promise<TemplateView[]> {
  const rows = await prisma.notificationTemplate.findMany({ where: { shopId } });
  return MESSAGE_KINDS.map((k) => {
    const own = rows.find((r) => r.kind === k.kind);
    return {
      kind: k.kind,
      label: k.label,
      category: k.category,
      subject: own?.subject ?? k.subject,
      body: own?.body ?? k.body,
      variables: [...k.variables],
      customised: !!own,
    };
  });
}

function checked(kind: string, t: { subject: string; body: string }) {
  const k = messageKind(kind);
  if (!k) throw new ApiError("invalid_request", `unknown message kind ${kind}`);
  if (!t.subject.trim() || t.subject.length > 300) throw new ApiError("invalid_request", "the subject must be 1 to 300 characters");
  if (!t.body.trim() || t.body.length > 20_000) throw new ApiError("invalid_request", "the body must be 1 to 20,000 characters");
  const problem = checkTemplate(t, k.variables);
  if (problem) throw new ApiError("invalid_request", `the template does not render: ${problem}`);
  return k;
}

export async function saveTemplate(shopId: string, kind: string, t: { subject: string; body: string }): Promise<void> {
  await audited(
    { shopId, action: "settings.template", target: { type: "settings", id: `template:${kind}` } },
    async (tx) => {
      const before = await tx.notificationTemplate.findUnique({ where: { shopId_kind: { shopId, kind } } });
      const after = await tx.notificationTemplate.upsert({ where: { shopId_kind: { shopId, kind } }, create: { shopId, kind, ...t }, update: t });
      return { result: undefined, changes: diffFields(before, after, ["subject", "body"]) };
    },
    { check: () => void checked(kind, t) },
  );
}

export async function resetTemplate(shopId: string, kind: string): Promise<void> {
  await audited({ shopId, action: "settings.template_reset", target: { type: "settings", id: `template:${kind}` } }, async (tx) => {
    const before = await tx.notificationTemplate.findUnique({ where: { shopId_kind: { shopId, kind } } });
    await tx.notificationTemplate.deleteMany({ where: { shopId, kind } });
    return { result: undefined, changes: diffFields(before, null, ["subject", "body"]) };
  });
}

/** The template rendered with sample data (the editor's preview; nothing is saved or sent). */
export function previewTemplate(kind: string, t: { subject: string; body: string }): Rendered {
  checked(kind, t);
  return renderMessage(t, SAMPLE_VARIABLES, "https://example.com/unsubscribe");
}

/**
 * A test of the template as edited, with sample data, to the merchant's address: straight to SMTP
 * (it is not a customer message, so no outbox row, no preferences, no suppression list).
 */
export async function sendTestMessage(shopId: string, kind: string, t: { subject: string; body: string }, to: string): Promise<{ response: string }> {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(to)) throw new ApiError("invalid_request", "the test recipient must be an e-mail address");
  const rendered = previewTemplate(kind, t);
  const settings = await mailSettings(shopId);
  const dkim = await dkimKey(shopId);
  const from = settings.sendingDomain ? `notifications@${settings.sendingDomain}` : env().MAIL_FROM;
  const info = await mailTransport().sendMail({
    from: settings.senderName ? { name: settings.senderName, address: from } : from,
    replyTo: settings.replyTo ?? undefined,
    to,
    subject: `[Test] ${rendered.subject}`,
    text: rendered.text,
    html: rendered.html,
    headers: { "X-Notification-Kind": `test:${kind}` },
    ...(dkim ? { dkim } : {}),
  });
  return { response: String(info.response ?? "") };
}
