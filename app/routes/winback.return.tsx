// /winback/return?s=<send>&t=<token> (signed; docs/decisions/117-winback-campaign-job.md): the
// come-back link of a win-back e-mail. GET shows what restarts and a button, changing nothing (mail
// scanners follow links); the POST (the button) creates the new contract once. A bad signature is
// 400 in the error envelope; a used or expired link says so.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { comeBack, returnOffer, type ReturnView } from "../domain/retention/winback-return.server";
import { mailEndpointError } from "../http/mail-endpoints.server";
import { log } from "../infra/log.server";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string, status = 200): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5}button{font:inherit;padding:.6rem 1.2rem}</style></head><body><main>${body}</main></body></html>`;
  return new Response(html, { status, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
}

const params = (request: Request) => {
  const q = new URL(request.url).searchParams;
  return { sendId: q.get("s") ?? "", token: q.get("t") ?? "" };
};

function settled(v: ReturnView): Response {
  const what = esc(v.productTitle ?? "your subscription");
  if (v.state === "done")
    return page("Welcome back", `<h1>Welcome back</h1><p>Your ${what} subscription has started again. The first order is on its way.</p>`);
  return page("Link expired", `<h1>This link has expired</h1><p>Please visit ${esc(v.shopName ?? "the shop")} to start a new subscription.</p>`, 410);
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { sendId, token } = params(request);
  const v = await returnOffer(sendId, token);
  if (v.state === "invalid") return mailEndpointError(request, "invalid_request", "this link is not valid");
  if (v.state !== "ready") return settled(v);
  const url = new URL(request.url);
  return page(
    "Come back",
    `<h1>Start ${esc(v.productTitle ?? "your subscription")} again?</h1><p>We will start your subscription again with the same products, plan, address and card as before. The first charge is made today.</p>
<form method="post" action="${esc(url.pathname + url.search)}"><button type="submit">Restart my subscription</button></form>`,
  );
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return mailEndpointError(request, "method_not_allowed", "POST to come back");
  const { sendId, token } = params(request);
  let v: ReturnView;
  try {
    v = await comeBack(sendId, token);
  } catch (err) {
    // Shopify refused or could not be reached: nothing was made and the link works again.
    log.error("winback come-back failed", { send: sendId, error: (err as Error).message });
    return page("Please try again", `<h1>We could not restart it just now</h1><p>Nothing was charged. Please try the link again in a few minutes.</p>`, 503);
  }
  if (v.state === "invalid") return mailEndpointError(request, "invalid_request", "this link is not valid");
  return settled(v);
}
