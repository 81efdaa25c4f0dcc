// /gifts/claim/<token>: the gift recipient's page (docs/decisions/136-gift-lifecycle.md, /docs#gifts).
// Plain server-rendered HTML, mobile-first, no script: what is coming and when, and a form for the
// delivery address.
//   GET  shows the page and changes nothing (mail scanners prefetch links).
//   POST claims, once. Cross-site posts are refused: the form carries a random value that must
//        equal the SameSite=Strict cookie the GET set (double submit, compared in constant time),
//        and a browser's Origin, when it names one, must be this app's.
// An unknown, used or expired token gets the same page with the same status. The token is in the
// path only; the answer forbids caching and referrers, and nothing here logs the URL.
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { claimAddress, claimGift, claimView, type ClaimView } from "../domain/gifts/claim.server";
import { env } from "../env.server";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const CSRF_COOKIE = "gift_csrf";

function page(title: string, body: string, status = 200, headers: Record<string, string> = {}): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title><link rel="icon" href="data:,">
<style>
*{box-sizing:border-box}body{font:16px/1.5 system-ui,-apple-system,sans-serif;margin:0;color:#1a1a1a;background:#f6f6f7}
main{max-width:36rem;margin:0 auto;padding:1rem}header{padding:1rem;background:#1a1a1a;color:#fff;text-align:center;font-weight:600}
.card{background:#fff;border-radius:12px;padding:1rem;margin:1rem 0;box-shadow:0 1px 2px rgba(0,0,0,.08)}
label{display:block;margin:.75rem 0 .25rem;font-weight:500}input{width:100%;font:inherit;padding:.65rem;border:1px solid #8c9196;border-radius:8px}
.row{display:grid;gap:0 .75rem}@media(min-width:30rem){.row{grid-template-columns:1fr 1fr}}
button{width:100%;margin-top:1.25rem;font:inherit;font-weight:600;padding:.8rem;border:0;border-radius:8px;background:#1a1a1a;color:#fff;cursor:pointer}
blockquote{margin:.5rem 0;padding:.5rem .75rem;border-left:4px solid #8c9196;background:#f6f6f7;white-space:pre-wrap}
.error{color:#8e1f0b;font-weight:500}.hint{color:#44474a;font-size:.9rem}
</style></head><body>${body}</body></html>`;
  return new Response(html, {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
      "X-Robots-Tag": "noindex",
      "Content-Security-Policy": "default-src 'none'; img-src data:; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
      ...headers,
    },
  });
}

/** Unknown, used or expired: one page, one status, so a token cannot be probed. */
const gone = () =>
  page(
    "Gift link not valid",
    `<header>Gift</header><main><div class="card"><h1>This gift link is not valid</h1><p>It may have been used already, or it has expired. If you were expecting a gift, ask the person who sent it, or the shop, to send the e-mail again.</p></div></main>`,
    404,
  );

const FIELDS: [keyof typeof LABELS, string, string][] = [
  ["firstName", "given-name", ""],
  ["lastName", "family-name", ""],
  ["address1", "address-line1", ""],
  ["address2", "address-line2", ""],
  ["city", "address-level2", ""],
  ["provinceCode", "address-level1", "Province or state code, e.g. ON"],
  ["zip", "postal-code", ""],
  ["countryCode", "country", "Two-letter country code, e.g. CA"],
];
const LABELS = {
  firstName: "First name",
  lastName: "Last name",
  address1: "Address",
  address2: "Apartment, suite (optional)",
  city: "City",
  provinceCode: "Province or state (optional)",
  zip: "Postal code",
  countryCode: "Country",
};

const dateIn = (d: Date, timeZone: string) => new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone }).format(d);

function claimPage(view: ClaimView, csrf: string, values: Record<string, string> = {}, errors: Record<string, string> = {}, problem?: string, status = 200) {
  const input = ([name, autocomplete, hint]: (typeof FIELDS)[number]) => {
    const id = `f-${name}`;
    const err = errors[name];
    return `<div><label for="${id}">${esc(LABELS[name])}</label><input id="${id}" name="${name}" autocomplete="${autocomplete}" value="${esc(values[name] ?? "")}"${name === "address2" || name === "provinceCode" ? "" : " required"}${err ? ` aria-invalid="true" aria-describedby="${id}-e"` : hint ? ` aria-describedby="${id}-h"` : ""}>${err ? `<p class="error" id="${id}-e">${esc(err)}</p>` : hint ? `<p class="hint" id="${id}-h">${esc(hint)}</p>` : ""}</div>`;
  };
  const when = view.nextDelivery
    ? `Your first delivery follows the subscription's schedule: the next one is on <strong>${esc(dateIn(view.nextDelivery, view.timeZone))}</strong>.`
    : "";
  const count = view.prepaidCharges ? ` It is a gift of ${view.prepaidCharges} deliveries.` : "";
  return page(
    `A gift from ${view.gifterName}`,
    `<header>${esc(view.shopName)}</header><main>
<div class="card"><h1>${esc(view.gifterName)} sent you a gift</h1><p><strong>${esc(view.productTitle)}</strong>.${count}</p>${view.message ? `<blockquote>${esc(view.message)}</blockquote>` : ""}<p>${when}</p></div>
<div class="card"><h2>Where should we send it?</h2>${problem ? `<p class="error" role="alert">${esc(problem)}</p>` : ""}
<form method="post"><input type="hidden" name="csrf" value="${esc(csrf)}">
<div class="row">${FIELDS.slice(0, 2).map(input).join("")}</div>${FIELDS.slice(2, 5).map(input).join("")}<div class="row">${FIELDS.slice(5).map(input).join("")}</div>
<button type="submit">Claim my gift</button><p class="hint">Claim by ${esc(dateIn(view.claimUntil, view.timeZone))}. Nothing is charged to you.</p></form></div></main>`,
    status,
    { "Set-Cookie": `${CSRF_COOKIE}=${csrf}; Path=/gifts/claim; HttpOnly; SameSite=Strict${env().SHOPIFY_APP_URL.startsWith("https:") ? "; Secure" : ""}` },
  );
}

const cookieValue = (request: Request) => new RegExp(`(?:^|;\\s*)${CSRF_COOKIE}=([A-Za-z0-9_-]{20,64})`).exec(request.headers.get("Cookie") ?? "")?.[1] ?? null;
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export async function loader({ params, request }: LoaderFunctionArgs) {
  const view = await claimView(params.token ?? "");
  if (!view) return gone();
  return claimPage(view, cookieValue(request) ?? randomBytes(24).toString("base64url"));
}

export async function action({ params, request }: ActionFunctionArgs) {
  if (request.method !== "POST") return gone();
  const token = params.token ?? "";
  const origin = request.headers.get("Origin");
  const form = await request.formData();
  const cookie = cookieValue(request);
  const sent = String(form.get("csrf") ?? "");
  // The page's no-referrer policy makes Chromium send `Origin: null` with the form: the cookie,
  // which a cross-site request never carries (SameSite=Strict), is what decides then.
  const foreignOrigin = origin !== null && origin !== "null" && origin !== new URL(env().SHOPIFY_APP_URL).origin && origin !== new URL(request.url).origin;
  const crossSite = foreignOrigin || !cookie || !same(cookie, sent);
  const view = await claimView(token);
  if (!view) return gone();
  if (crossSite) return claimPage(view, cookie ?? randomBytes(24).toString("base64url"), {}, {}, "Please submit the form again from this page.", 403);
  const values = Object.fromEntries(FIELDS.map(([name]) => [name, String(form.get(name) ?? "")]));
  const parsed = claimAddress.safeParse(values);
  if (!parsed.success) {
    const errors = Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
    return claimPage(view, cookie!, values, errors, "Please check the highlighted fields.", 422);
  }
  const outcome = await claimGift(token, parsed.data);
  if (outcome.kind === "gone") return gone();
  if (outcome.kind === "refused") return claimPage(view, cookie!, values, {}, outcome.message, 422);
  return page(
    "Gift claimed",
    `<header>${esc(view.shopName)}</header><main><div class="card" role="status"><h1>Your gift is on its way</h1><p>We will send <strong>${esc(view.productTitle)}</strong> to ${esc(parsed.data.address1)}, ${esc(parsed.data.city)}.${view.nextDelivery ? ` The next delivery is on ${esc(dateIn(view.nextDelivery, view.timeZone))}.` : ""}</p></div></main>`,
  );
}
