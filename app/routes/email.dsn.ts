// POST /email/dsn: a delivery status notification (RFC 3464), the raw message as an inbound-mail
// relay posts it (docs/email.md#dsn). Answers 200 { matched, status } or 400 in the error envelope.
import type { ActionFunctionArgs } from "@remix-run/node";
import { applyDsn } from "../domain/notifications/evidence.server";
import { mailEndpointError, readRawBody } from "../http/mail-endpoints.server";

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return mailEndpointError(request, "method_not_allowed", "POST a raw message");
  const raw = await readRawBody(request, 2 * 1024 * 1024);
  if (!raw) return mailEndpointError(request, "invalid_request", "the body must be the raw DSN message (at most 2 MB)");
  const result = await applyDsn(raw);
  return Response.json(result, { headers: { "Cache-Control": "no-store" } });
}

export const loader = ({ request }: ActionFunctionArgs) => mailEndpointError(request, "method_not_allowed", "POST a raw message");
