// POST /email/mailgun: Mailgun's signed event webhook (docs/email.md#mailgun). A missing or wrong
// signature is 401 invalid_credential; a verified event is applied to the message it names.
import type { ActionFunctionArgs } from "@remix-run/node";
import { applyMailgunEvent, mailgunTokenSeen, verifyMailgun, type MailgunEvent } from "../domain/notifications/evidence.server";
import { mailEndpointError } from "../http/mail-endpoints.server";

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return mailEndpointError(request, "method_not_allowed", "POST an event");
  let body: MailgunEvent;
  try {
    body = (await request.json()) as MailgunEvent;
  } catch {
    return mailEndpointError(request, "invalid_request", "the body must be Mailgun's JSON event");
  }
  if (!body || typeof body !== "object" || !verifyMailgun(body)) return mailEndpointError(request, "invalid_credential", "the signature does not verify");
  if (await mailgunTokenSeen(body)) return mailEndpointError(request, "invalid_credential", "this signed event was already received");
  return Response.json(await applyMailgunEvent(body), { headers: { "Cache-Control": "no-store" } });
}

export const loader = ({ request }: ActionFunctionArgs) => mailEndpointError(request, "method_not_allowed", "POST an event");
