// /email/unsubscribe?s=&c=&k=&t= (signed; docs/email.md#unsubscribe). GET shows a page with a button
// and changes nothing; POST (the button, or a mail client's RFC 8058 one-click POST with
// List-Unsubscribe=One-Click) turns the category off. A bad signature is 400 in the error envelope.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { verifyUnsubscribe } from "../domain/notifications/links.server";
import { categoryLabel, unsubscribe } from "../domain/notifications/unsubscribe.server";
import { mailEndpointError } from "../http/mail-endpoints.server";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5}button{font:inherit;padding:.6rem 1.2rem}</style></head><body><main>${body}</main></body></html>`;
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
}

export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const target = verifyUnsubscribe(url.searchParams);
  const label = target && categoryLabel(target.category);
  if (!target || !label) return mailEndpointError(request, "invalid_request", "this unsubscribe link is not valid");
  return page(
    "Unsubscribe",
    `<h1>Unsubscribe</h1><p>Stop receiving <strong>${esc(label.toLowerCase())}</strong> e-mails? Account and billing messages will still be sent.</p>
<form method="post" action="${esc(url.pathname + url.search)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
  );
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return mailEndpointError(request, "method_not_allowed", "POST to unsubscribe");
  const target = verifyUnsubscribe(new URL(request.url).searchParams);
  if (!target || !(await unsubscribe(target))) return mailEndpointError(request, "invalid_request", "this unsubscribe link is not valid");
  return page("Unsubscribed", `<h1>You are unsubscribed</h1><p>You will no longer receive ${esc(categoryLabel(target.category)!.toLowerCase())} e-mails.</p>`);
}
