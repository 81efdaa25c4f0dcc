// The Notifications page's server side (app/routes/app.notifications.tsx): templates (edit,
// preview with sample data, send a test to the merchant), settings (sender, reply-to, sending
// domain with its DKIM record, lead time, quiet hours, messages on or off), the log with each
// message's lifecycle, and the suppression list. Every read and write is the admin session's shop.
import { ApiError } from "../infra/errors";
import { MESSAGE_KINDS, isEssential } from "../domain/notifications/catalogue";
import { mailLog, type MailLogFilters } from "../domain/notifications/log.server";
import { NOTIFICATION_STATUSES } from "../domain/notifications/notifications.server";
import { resendHeld } from "../domain/notifications/outbox.server";
import { dkimDnsRecord, mailSettings, MailSettingsInput, saveMailSettings } from "../domain/notifications/settings.server";
import { listSuppressions, unsuppress } from "../domain/notifications/suppression.server";
import { listTemplates, previewTemplate, resetTemplate, saveTemplate, sendTestMessage } from "../domain/notifications/templates.server";
import { billingPolicy, saveBillingPolicy } from "../domain/renewals/policy.server";

export const KIND_OPTIONS = MESSAGE_KINDS.map((k) => ({ label: k.label, value: k.kind, essential: k.category === "account" }));

export async function notificationsPageData(shopId: string, params: URLSearchParams, staffEmail: string | null) {
  const status = (NOTIFICATION_STATUSES as readonly string[]).includes(params.get("status") ?? "") ? params.get("status")! : "";
  const kind = MESSAGE_KINDS.some((k) => k.kind === params.get("kind")) ? params.get("kind")! : "";
  const customerId = (params.get("customer") ?? "").trim().slice(0, 100);
  const filters: MailLogFilters = { ...(status ? { status } : {}), ...(kind ? { kind } : {}), ...(customerId ? { customerId } : {}) };
  const [templates, settings, policy, log, suppressions] = await Promise.all([
    listTemplates(shopId),
    mailSettings(shopId),
    billingPolicy(shopId),
    mailLog(shopId, filters),
    listSuppressions(shopId),
  ]);
  return {
    templates,
    settings,
    leadDays: policy.reminderDays,
    dkimRecord: dkimDnsRecord(settings),
    log,
    filters: { status, kind, customer: customerId },
    statuses: [...NOTIFICATION_STATUSES],
    suppressions,
    testRecipient: staffEmail ?? "",
  };
}

export type ActionResult =
  | { ok: true; intent: string; message?: string; preview?: { subject: string; html: string; text: string } }
  | { ok: false; intent: string; error: string; errors?: Record<string, string> };

const str = (form: FormData, name: string) => String(form.get(name) ?? "");
const hourOrNull = (v: string) => (v.trim() === "" ? null : /^\d+$/.test(v.trim()) ? Number(v) : Number.NaN);

export async function notificationsAction(shopId: string, form: FormData): Promise<ActionResult> {
  const intent = str(form, "intent");
  try {
    switch (intent) {
      case "preview":
        return { ok: true, intent, preview: previewTemplate(str(form, "kind"), { subject: str(form, "subject"), body: str(form, "body") }) };
      case "save-template":
        await saveTemplate(shopId, str(form, "kind"), { subject: str(form, "subject"), body: str(form, "body") });
        return { ok: true, intent, message: "Template saved" };
      case "reset-template":
        await resetTemplate(shopId, str(form, "kind"));
        return { ok: true, intent, message: "Template reset to the default" };
      case "send-test": {
        const to = str(form, "to").trim();
        await sendTestMessage(shopId, str(form, "kind"), { subject: str(form, "subject"), body: str(form, "body") }, to);
        return { ok: true, intent, message: `Test sent to ${to}` };
      }
      case "save-settings":
        return saveSettings(shopId, form);
      case "resend":
        return (await resendHeld(shopId, str(form, "id")))
          ? { ok: true, intent, message: "Message queued to send again" }
          : { ok: false, intent, error: "That message is no longer held" };
      case "unsuppress":
        await unsuppress(shopId, str(form, "address"));
        return { ok: true, intent, message: "Address removed from the suppression list" };
      default:
        return { ok: false, intent, error: "Unknown action" };
    }
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, intent, error: err.message };
    if (intent === "send-test") return { ok: false, intent, error: `The test was not sent: ${(err as Error).message}` };
    throw err;
  }
}

async function saveSettings(shopId: string, form: FormData): Promise<ActionResult> {
  const intent = "save-settings";
  const nullable = (name: string) => str(form, name).trim() || null;
  const parsed = MailSettingsInput.safeParse({
    senderName: nullable("senderName"),
    replyTo: nullable("replyTo"),
    sendingDomain: nullable("sendingDomain"),
    timezone: str(form, "timezone").trim() || "UTC",
    quietStart: hourOrNull(str(form, "quietStart")),
    quietEnd: hourOrNull(str(form, "quietEnd")),
    disabledKinds: form
      .getAll("disabledKinds")
      .map(String)
      .filter((k) => !isEssential(k)),
  });
  const errors: Record<string, string> = {};
  if (!parsed.success) for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
  const lead = str(form, "leadDays").trim();
  const leadDays = /^\d+$/.test(lead) ? Number(lead) : Number.NaN;
  if (!(leadDays >= 1 && leadDays <= 10)) errors.leadDays = "lead time must be 1 to 10 days";
  if (Object.keys(errors).length || !parsed.success) return { ok: false, intent, error: "The settings were not saved", errors };
  await saveMailSettings(shopId, parsed.data);
  const policy = await billingPolicy(shopId);
  const saved = await saveBillingPolicy(shopId, { ...policy, reminderDays: leadDays });
  if (!saved.ok) return { ok: false, intent, error: "The settings were not saved", errors: saved.errors };
  return { ok: true, intent, message: "Settings saved" };
}
