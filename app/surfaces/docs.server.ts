// The API reference at {base_url}/docs, generated from the three route tables and their zod
// schemas: an OpenAPI 3.1 document (parameters, request and response shapes, a curl example per
// endpoint, the conventions as its description), rendered by Redoc bundled from npm and served by
// the app (no CDN), and the anchored error catalogue every error.doc_url points into
// (docs/decisions/046-api-reference-rendering.md).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "../infra/errors";
import { EVENT_CATALOGUE, EVENT_TYPES } from "../domain/outbound-webhooks/catalogue";
import { ERROR_DOCS } from "../http/error-docs";
import { docsBaseUrl } from "../http/envelope.server";
import type { AnyRoute } from "../http/route";
import type { SurfaceConfig } from "../http/kernel.server";
import { ADMIN_BUCKET, CUSTOMER_BUCKET, STOREFRONT_BUCKET } from "../http/rate-limit.server";
import { adminRoutes } from "./admin/routes";
import { customerRoutes } from "./customer/routes";
import { storefrontRoutes } from "./storefront/routes";
import { ADMIN_SURFACE, CUSTOMER_SURFACE, STOREFRONT_SURFACE } from "./config";

const SURFACES: Array<[SurfaceConfig, readonly AnyRoute[]]> = [
  [ADMIN_SURFACE, adminRoutes],
  [STOREFRONT_SURFACE, storefrontRoutes],
  [CUSTOMER_SURFACE, customerRoutes],
];

type Json = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Json {
  const s: Json = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    // z.iso.datetime() validates with a long regular expression (the reader needs only the format);
    // z.number().int() states the safe-integer bounds, which only make the samples absurd.
    override: ({ jsonSchema }) => {
      if (jsonSchema.format === "date-time") delete jsonSchema.pattern;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
    },
  });
  delete s.$schema;
  return s;
}

function parametersOf(schema: z.ZodType | undefined, where: "path" | "query"): Json[] {
  if (!schema) return [];
  const s = jsonSchema(schema, "input");
  const props = (s.properties ?? {}) as Record<string, Json>;
  const required = new Set((s.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, p]) => ({
    name,
    in: where,
    required: where === "path" || required.has(name),
    schema: p,
    ...(p.description ? { description: p.description } : {}),
    ...(p.example !== undefined ? { example: p.example } : {}),
  }));
}

/** A value for a JSON schema: its own example, else one built from its parts (for the curl sample). */
function exampleOf(s: Json | undefined): unknown {
  if (!s) return undefined;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  const anyOf = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (anyOf) return exampleOf(anyOf.find((x) => x.type !== "null"));
  switch (s.type) {
    case "object": {
      const props = (s.properties ?? {}) as Record<string, Json>;
      return Object.fromEntries(
        Object.entries(props)
          .map(([k, v]) => [k, exampleOf(v)])
          .filter(([, v]) => v !== undefined),
      );
    }
    case "array":
      return [exampleOf(s.items as Json)];
    case "integer":
    case "number":
      return typeof s.minimum === "number" ? s.minimum : 1;
    case "boolean":
      return true;
    case "string":
      return s.format === "date-time" ? "2030-03-01T00:00:00Z" : "string";
    default:
      return undefined;
  }
}

const errorRef = { $ref: "#/components/responses/Error" };

function errorCodesFor(surface: SurfaceConfig, route: AnyRoute): ErrorCode[] {
  const codes: ErrorCode[] = [
    "missing_credential",
    "invalid_credential",
    "credential_revoked",
    "credential_expired",
    "shop_unavailable",
    "plan_upgrade_required",
    "rate_limited",
  ];
  if (route.scopes.length) codes.push("insufficient_scope");
  if (route.params || route.query || route.body || route.requiresIdempotencyKey) codes.push("invalid_request");
  for (const c of route.errorCodes ?? []) if (!codes.includes(c)) codes.push(c);
  codes.push("internal_error");
  return codes;
}

const serverUrl = () => docsBaseUrl().replace(/\/docs$/, "");

/** The example request of one endpoint, as a developer would paste it. */
function curlSample(surface: SurfaceConfig, route: AnyRoute, pathParams: Json[]): string {
  let p = surface.basePath + route.path;
  for (const param of pathParams) {
    const value = exampleOf({ ...(param.schema as Json), ...(param.example !== undefined ? { example: param.example } : {}) });
    p = p.replace(`:${String(param.name)}`, encodeURIComponent(typeof value === "string" && value !== "string" ? value : "1001"));
  }
  const lines = [`curl ${route.method === "GET" ? "" : `-X ${route.method} `}"${serverUrl()}${p}"`];
  lines.push(`-H "Authorization: Bearer ${surface.keyKind === "SECRET" ? "svc_sk_…" : "svc_pk_…"}"`);
  if (surface.customerSession && route.session !== false) lines.push(`-H "X-Service-Session: svc_cst_…"`);
  if (route.requiresIdempotencyKey) lines.push(`-H "Idempotency-Key: $(uuidgen)"`);
  if (route.body) {
    lines.push(`-H "Content-Type: application/json"`);
    lines.push(`-d '${JSON.stringify(exampleOf(jsonSchema(route.body, "input")))}'`);
  }
  return lines.join(" \\\n  ");
}

const tagOf = (surface: SurfaceConfig, route: AnyRoute) => `${surface.label}${route.tags?.length ? `: ${route.tags[0]}` : ""}`;

export function openApiDocument(): Json {
  const paths: Record<string, Json> = {};
  const tagGroups: Array<{ name: string; tags: string[] }> = [];
  for (const [surface, routes] of SURFACES) {
    const group = { name: surface.label, tags: [] as string[] };
    tagGroups.push(group);
    for (const route of routes) {
      const p = surface.basePath + route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
      const tag = tagOf(surface, route);
      if (!group.tags.includes(tag)) group.tags.push(tag);
      const pathParams = parametersOf(route.params, "path");
      const keyScheme = surface.keyKind === "SECRET" ? "secretKey" : "publishableKey";
      const op: Json = {
        operationId: `${surface.name}_${route.method.toLowerCase()}_${route.path.replace(/[^A-Za-z0-9]+/g, "_").replace(/^_|_$/g, "")}`,
        summary: route.summary,
        ...(route.description ? { description: route.description } : {}),
        tags: [tag],
        security: surface.customerSession && route.session !== false ? [{ [keyScheme]: [], customerSession: [] }] : [{ [keyScheme]: [] }],
        "x-required-scopes": route.scopes,
        "x-error-codes": errorCodesFor(surface, route),
        parameters: [
          ...pathParams,
          ...parametersOf(route.query, "query"),
          ...(route.requiresIdempotencyKey
            ? [
                {
                  name: "Idempotency-Key",
                  in: "header",
                  required: true,
                  schema: { type: "string", maxLength: 255 },
                  description: "1 to 255 printable ASCII characters; a retry with the same key replays the first answer",
                },
              ]
            : []),
        ],
        ...(route.body ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(route.body, "input") } } } } : {}),
        responses: {
          [String(route.successStatus ?? 200)]: {
            description: "Success",
            headers: { "X-Service-Request-Id": { $ref: "#/components/headers/RequestId" } },
            content: { "application/json": { schema: jsonSchema(route.response, "output") } },
          },
          "4XX": errorRef,
          "5XX": errorRef,
        },
        "x-codeSamples": [{ lang: "Shell", label: "curl", source: curlSample(surface, route, pathParams) }],
      };
      paths[p] = { ...(paths[p] ?? {}), [route.method.toLowerCase()]: op };
    }
  }
  return {
    openapi: "3.1.0",
    info: { title: "Subscription Service API", version: "v1", description: overviewMarkdown() },
    servers: [{ url: serverUrl() }],
    tags: tagGroups.flatMap((g) => g.tags.map((name) => ({ name }))),
    "x-tagGroups": tagGroups.filter((g) => g.tags.length),
    paths,
    components: {
      securitySchemes: {
        secretKey: { type: "http", scheme: "bearer", description: "svc_sk_… (Admin API only; never in browsers)" },
        publishableKey: { type: "http", scheme: "bearer", description: "svc_pk_… (Storefront and Customer APIs)" },
        customerSession: { type: "apiKey", in: "header", name: "X-Service-Session", description: "svc_cst_… from POST /api/customer/v1/session" },
      },
      headers: { RequestId: { schema: { type: "string", pattern: "^req_" }, description: "Also in error.request_id" } },
      schemas: {
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["code", "message", "doc_url", "request_id"],
              properties: {
                code: { type: "string", enum: Object.keys(ERROR_CODES) },
                message: { type: "string" },
                doc_url: { type: "string", format: "uri", description: `${docsBaseUrl()}/api/errors#<code>` },
                request_id: { type: "string" },
              },
            },
          },
        },
      },
      responses: { Error: { description: "The error envelope", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } } },
    },
  };
}

// ---- the prose: the OpenAPI description (Markdown), rendered above the endpoints ----------------

function surfaceMarkdown(surface: SurfaceConfig): string {
  return `## ${surface.label}

Base path \`${surface.basePath}\`. Credential: \`Authorization: Bearer ${surface.keyKind === "SECRET" ? "svc_sk_…" : "svc_pk_…"}\`${surface.customerSession ? " plus `X-Service-Session: svc_cst_…` (except POST /session)" : ""}. Rate limit: ${surface.bucket.perMinute}/min, burst ${surface.bucket.burst}, per shop.${surface.cors ? " CORS: the shop's domain, its storefront origins and configured origins; preflights are answered for any origin and the allowlist is enforced on the real request." : ""}${surface.noStore ? " Every response: `Cache-Control: no-store`." : ""}`;
}

function overviewMarkdown(): string {
  return `Admin, Storefront and Customer APIs of the subscription service. Machine-readable: [OpenAPI 3.1](/docs/openapi.json). Every error code: [error codes](/docs/api/errors). Rate limits per shop: Admin ${ADMIN_BUCKET.perMinute}/min burst ${ADMIN_BUCKET.burst}; Customer ${CUSTOMER_BUCKET.perMinute}/min burst ${CUSTOMER_BUCKET.burst}; Storefront ${STOREFRONT_BUCKET.perMinute}/min burst ${STOREFRONT_BUCKET.burst}.

# Surfaces

${SURFACES.map(([s]) => surfaceMarkdown(s)).join("\n\n")}

# Conventions

- Order of checks on every surface: credential (401) → plan gate (403 plan_upgrade_required) → rate limit (429) → route (404 / 405) → scope (403 insufficient_scope) → validation (400). An unauthenticated request to any path gets 401.
- Every response carries \`X-Service-Request-Id\` (\`req_\` + a time-sortable id). Requests that reached the bucket carry \`X-Service-RateLimit-Limit\`, \`-Remaining\`, \`-Reset\` (seconds until the bucket is full), and the IETF \`RateLimit-Policy\` / \`RateLimit\` headers; a 429 carries \`Retry-After\`.
- Lists answer \`{ data, next_cursor }\` in (created_at desc, id desc) order. \`limit\`: default 50, over 250 is clamped to 250; a value that is not a positive integer is 400 invalid_request. \`cursor\` is opaque and bound to its list and filters; anything else is 400 invalid_cursor.
- Bodies are JSON (\`Content-Type: application/json\`), at most 1 MiB. Percent-encoded ids in paths are decoded once.
- Every failure is the envelope \`{"error":{"code","message","doc_url","request_id"}}\`; \`doc_url\` opens the code's section of the [error codes](/docs/api/errors).

# Decisions on open points

Points the contract leaves open, as decided (the repository's docs/decisions/010-023 give the why).

- **Money** is \`{ "amount": "12.50", "currency_code": "USD" }\` (a decimal string in the currency's own exponent), except catalogue snapshot prices named \`price_cents\` (integer minor units).
- **Query parameters**: an unknown parameter or enum value is 400 invalid_request naming it; enum values match case-insensitively; timestamps need \`Z\` or an offset (a bare date means midnight UTC).
- **customer_id** on subscription and notification rows is a pseudonymous platform id and is returned at \`read:subscriptions\`; \`read:customers\` unlocks gift names, e-mails and messages.
- **Plans**: the \`status\` filter takes \`active\` or \`archived\`. **Schedules** are days on the shop's calendar (its IANA time zone): an anchor past a month's end is that month's last day; NEXT waits for the next anchor, or the one after when fewer than \`cutoff_days\` days remain; ASAP charges on the sign-up day and renews on the next anchor (the one after inside the cutoff); \`GET /plans/{id}/schedule\` and the Storefront API's \`/selling-plans/{id}/schedule\` preview them. **Boxes**: without \`period\`, the 24 most recent periods that have a box.
- **Gift statuses**: \`pending, sent, claimed, expired, ended\`; kinds \`prepaid, recurring\`.
- **Analytics**: \`range\` defaults to \`30d\`, \`window\` to \`12\`. MRR is the sum of monthly amounts of ACTIVE contracts per currency, with \`contracts_missing_amount\` for those never backfilled (they count zero). Churn: contracts live at the start of the range that ended within it (their change to CANCELLED, EXPIRED or FAILED, at the time the platform reported it), over those live at the start; cohorts count a contract live until that same end; a rate with a zero denominator is \`null\`.
- **Skip** moves the next billing date one billing interval (the next anchor on an anchored plan); a contract already CANCELLED or EXPIRED is refused 409 state_conflict before any platform call.
- **Idempotency**: a replay carries the first response's headers, request id included, with \`Idempotency-Replayed: true\`.
- **Every list** takes \`limit\` and \`cursor\`, the short fixed ones too (\`/webhooks/events\`, \`/exports/datasets\`, \`/bundles/{id}/boxes\`: one page at the default limit). \`/notifications?event=\` takes a name from the notification catalogue; any other is 400 invalid_request.
- **Plan gate freshness**: a request that finds the shop's plan facts older than 60 s starts a re-read of Shopify's billing state in the background (at most once a minute per shop) and is answered from the facts it found.
- **Foreign Origin** (Storefront and Customer API): a publishable key sent from an Origin not on the shop's allowlist is 401 invalid_credential (no \`Access-Control-Allow-Origin\`); \`forbidden\` is only the Customer API's answer for another customer's contract.
- **Storefront metafields**: \`app.bundle_plan\` and \`app.mix_match\` have definitions with storefront access \`PUBLIC_READ\`: a headless storefront reads them on Shopify's Storefront API as \`metafield(namespace: "app--<app id>", key: …)\`.
- **Storefront API**: its own bucket, 300/min with burst 600. **Redis unavailable**: each replica falls back to an in-process bucket with the surface's parameters.
- **Customer API ownership**: every endpoint that names a contract asks the platform who owns it first: another customer's contract is 403 forbidden, an unknown one 404 not_found, and an edit of a CANCELLED or EXPIRED contract 409 state_conflict. \`cancel-reason\` and \`save-event\` check the mirror row instead (no row: 404, nothing written; another customer's: 403) and work on a cancelled contract.
- **Customer API shapes**: \`GET /subscriptions\` is at most 100 summaries, newest first, \`charge_amount\` a decimal number. The **box object** (\`is_bundle\`, \`build_a_box\`, \`bundle\`, \`period\`, \`menu\`, \`selection\`, \`editable\`, \`edit_closes_at\`, \`closed_reason\`) is described on its endpoint; a pick is applied to the box line's custom attributes at once. \`expiry_state\`: \`valid\`, \`expiring_soon\` (last 60 days of the expiry month), \`expired\`, \`not_applicable\`. Reschedule dates are calendar days charged at 12:00 UTC, within \`reschedule_max_months\`. Notification categories: \`reminders\`, \`orders\`, \`box\`, \`winback\` (all on by default; POST is the full map, a category left out returns to on). Activity: the 50 newest entries. An example portal built on these endpoints is served at [/examples/portal/](/examples/portal/).

# Webhook events

Delivered to every enabled endpoint subscribed to the event (Pro plan): POST, body \`{ id, type, api_version, created_at, shop_domain, data }\`, \`id\` (\`evt_…\`) stable across retries (dedupe on it). Any 2xx delivers; 3xx is a failure (redirects are not followed); 410 stops at once; other failures and timeouts (10 s) retry at 0 s, 30 s, 2 m, 10 m, 1 h, 6 h. Ten consecutive exhausted deliveries disable the endpoint. \`data\` holds ids, statuses, dates and amounts only:

${EVENT_TYPES.map(
  (t) =>
    `- **${t}** (${EVENT_CATALOGUE[t].firesWhen}): ${Object.keys(EVENT_CATALOGUE[t].data.shape)
      .map((f) => `\`${f}\``)
      .join(", ")}`,
).join("\n")}

<a id="gifts"></a>

# Gifts

A shopper gives a subscription with the theme's gift block on a plan the merchant made giftable: the recipient's name and e-mail, a message and a send day travel as line properties onto the contract line's custom attributes. The contract stays the gifter's (Shopify refuses a payment method of another customer); the recipient gives an address, never a card. **prepaid** gifts end after the plan's maximum number of orders (the checkout pays the first); **recurring** gifts keep charging the gifter.

- **Statuses**: \`pending\` (bought, the claim e-mail not yet sent), \`sent\` (the claim e-mail went out; the link works), \`claimed\`, \`expired\` (nobody claimed within the merchant's window: the subscription ships to the gifter's address or is paused, as the merchant chose), \`ended\` (a prepaid gift's final charge ran).
- **The claim e-mail** goes out at 09:00 in the shop's time zone on the chosen day (at once without one), through the customer e-mail path. A bounce is told to the gifter by e-mail and flagged on the Gifts page, where the merchant corrects the address and resends (a new link; the old one stops working).
- **The claim page** \`/gifts/claim/<token>\`: opening it changes nothing; the page's form (POST, same-site only) claims once and sets the contract's delivery address. An unknown, used or expired link gets the same page (404). The token is single-use, stored only as a hash, and returned by no API at any scope, export or webhook.
- **Events** carry ids, statuses and times only, never a name, an e-mail, a message or an address: \`gift.created\` \`{ gift_id, kind, status, contract_id }\`; \`gift.sent\` \`{ gift_id, sent_at }\` (one per send, resends included); \`gift.claimed\` \`{ gift_id, contract_id, claimed_at }\`; \`gift.expired\` \`{ gift_id, expired_at }\` (when the window closed); \`gift.ended\` \`{ gift_id, contract_id, ended_at }\`.

# Verifying webhook signatures

\`X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">\`, keyed with the endpoint's \`whsec_\` secret. Verify against the raw bytes, timing-safe, within 5 minutes; ignore versions you do not understand.

\`\`\`ts
${WEBHOOK_VERIFIER}\`\`\`
`;
}

export const WEBHOOK_VERIFIER = `import { createHmac, timingSafeEqual } from "node:crypto";

/** True when \`rawBody\` was signed by the service with \`secret\` within \`toleranceSeconds\`. */
export function verifyServiceSignature(
  rawBody: string | Buffer,
  header: string | null | undefined,
  secret: string,
  toleranceSeconds = 300,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  if (!header) return false;
  let t: number | undefined;
  const v1: string[] = [];
  for (const part of header.split(",")) {
    const [k, v] = part.trim().split("=", 2);
    if (k === "t") t = Number(v);
    else if (k === "v1" && v) v1.push(v); // other versions (v2=...) are ignored
  }
  if (t === undefined || !Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = createHmac("sha256", secret)
    .update(\`\${t}.\`)
    .update(rawBody)
    .digest();
  return v1.some((hex) => {
    const got = Buffer.from(hex, "hex");
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}
`;

// ---- HTML ------------------------------------------------------------------------------------

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** JSON inside <script type="application/json">: "<" escaped so no string can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

export const REDOC_PATH = "/docs/redoc.standalone.js";

// The one address Redoc's bundle would fetch from outside: the attribution logo in the sidebar. It
// becomes an empty data URL (the component hides a logo that does not load), so /docs loads
// nothing but the app's own files (tests/e2e/docs.spec.ts watches every request).
const REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";

let redocSource: string | undefined;
/** Redoc's self-contained browser bundle from node_modules (docs/decisions/046-api-reference-rendering.md). */
export function redocBundle(): string {
  if (redocSource === undefined) {
    const source = readFileSync(createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js"), "utf8");
    redocSource = source
      .replaceAll(REDOC_LOGO, "data:,")
      // The source map is not served: drop the comment that would make devtools ask for it.
      .replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");
  }
  return redocSource;
}

// Redoc options: system fonts (nothing fetched), 200/202 responses open, the path above each
// operation, and native scrolling (the phone layout scrolls like a page).
const REDOC_OPTIONS = {
  expandResponses: "200,201,202",
  jsonSampleExpandLevel: 4,
  requiredPropsFirst: true,
  pathInMiddlePanel: true,
  nativeScrollbars: true,
  hideDownloadButton: false,
  theme: {
    spacing: { sectionVertical: 20 },
    typography: {
      fontFamily: "system-ui, -apple-system, 'Segoe UI', sans-serif",
      headings: { fontFamily: "system-ui, -apple-system, 'Segoe UI', sans-serif" },
      code: { fontFamily: "ui-monospace, Menlo, Consolas, monospace" },
    },
  },
};

export function referenceHtml(): string {
  const doc = openApiDocument();
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Subscription Service API reference</title><style>body{margin:0}</style></head><body>
<noscript><p style="font:16px system-ui;padding:1rem">This reference is rendered in the browser. Without JavaScript, read the <a href="/docs/openapi.json">OpenAPI 3.1 document</a> and the <a href="/docs/api/errors">error codes</a>.</p></noscript>
<div id="redoc"></div>
<script id="openapi" type="application/json">${scriptJson(doc)}</script>
<script id="redoc-options" type="application/json">${scriptJson(REDOC_OPTIONS)}</script>
<script src="${REDOC_PATH}"></script>
<script>Redoc.init(JSON.parse(document.getElementById("openapi").textContent), JSON.parse(document.getElementById("redoc-options").textContent), document.getElementById("redoc"));</script>
</body></html>`;
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#222}code,pre{font:13px ui-monospace,monospace;background:#f4f4f4}pre{padding:1rem;overflow:auto}section{margin:1.5rem 0}h3{margin-bottom:.2rem}</style></head><body>${body}</body></html>`;
}

export function errorsHtml(): string {
  const rows = (Object.keys(ERROR_CODES) as ErrorCode[])
    .map(
      (code) => `<section id="${code}"><h3><a href="#${code}"><code>${code}</code></a> <small>HTTP ${ERROR_CODES[code]}</small></h3>
<p>${esc(ERROR_DOCS[code].cause)}</p><p><em>${esc(ERROR_DOCS[code].retry)}</em></p></section>`,
    )
    .join("");
  return page(
    "Error codes",
    `<h1>Error codes</h1><p>Every failure answers <code>{"error":{"code","message","doc_url","request_id"}}</code>. Branch on <code>code</code>; never parse <code>message</code>. The list is add-only: treat an unknown code as its HTTP status. Retry only 429 and 5xx.</p><p><a href="/docs">Back to the reference</a></p>${rows}`,
  );
}
