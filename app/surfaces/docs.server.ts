// The API reference at {base_url}/docs, generated from the three route tables and their zod
// schemas: an OpenAPI 3.1 document, a readable HTML page and the anchored error catalogue.
import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "../errors";
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

function jsonSchema(schema: z.ZodType | undefined, io: "input" | "output"): Json | undefined {
  if (!schema) return undefined;
  try {
    const s = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Json;
    delete s.$schema;
    return s;
  } catch {
    return {};
  }
}

function parametersOf(schema: z.ZodType | undefined, where: "path" | "query"): Json[] {
  const s = jsonSchema(schema, "input");
  const props = (s?.properties ?? {}) as Record<string, Json>;
  const required = new Set((s?.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, p]) => ({
    name,
    in: where,
    required: where === "path" || required.has(name),
    schema: p,
    ...(p.description ? { description: p.description } : {}),
  }));
}

const errorRef = { $ref: "#/components/responses/Error" };

function errorCodesFor(surface: SurfaceConfig, route: AnyRoute): ErrorCode[] {
  const codes: ErrorCode[] = ["missing_credential", "invalid_credential", "credential_revoked", "credential_expired", "shop_unavailable", "plan_upgrade_required", "rate_limited"];
  if (route.scopes.length) codes.push("insufficient_scope");
  if (route.params || route.query || route.body || route.requiresIdempotencyKey) codes.push("invalid_request");
  if (surface.cors) codes.push("forbidden");
  for (const c of route.errorCodes ?? []) if (!codes.includes(c)) codes.push(c);
  codes.push("internal_error");
  return codes;
}

export function openApiDocument(): Json {
  const paths: Record<string, Json> = {};
  for (const [surface, routes] of SURFACES) {
    for (const route of routes) {
      const p = surface.basePath + route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
      const op: Json = {
        operationId: `${surface.name}_${route.method.toLowerCase()}_${route.path.replace(/[^A-Za-z0-9]+/g, "_").replace(/^_|_$/g, "")}`,
        summary: route.summary,
        ...(route.description ? { description: route.description } : {}),
        tags: [`${surface.label}${route.tags?.length ? `: ${route.tags[0]}` : ""}`],
        security: surface.customerSession && route.session !== false ? [{ [surface.keyKind === "SECRET" ? "secretKey" : "publishableKey"]: [], customerSession: [] }] : [{ [surface.keyKind === "SECRET" ? "secretKey" : "publishableKey"]: [] }],
        "x-required-scopes": route.scopes,
        "x-error-codes": errorCodesFor(surface, route),
        parameters: [
          ...parametersOf(route.params, "path"),
          ...parametersOf(route.query, "query"),
          ...(route.requiresIdempotencyKey ? [{ name: "Idempotency-Key", in: "header", required: true, schema: { type: "string", maxLength: 255 } }] : []),
        ],
        ...(route.body ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(route.body, "input") } } } } : {}),
        responses: {
          [String(route.successStatus ?? 200)]: {
            description: "Success",
            headers: { "X-Service-Request-Id": { $ref: "#/components/headers/RequestId" } },
            content: { "application/json": { schema: jsonSchema(route.responses, "output") ?? {} } },
          },
          "4XX": errorRef,
          "5XX": errorRef,
        },
      };
      paths[p] = { ...(paths[p] ?? {}), [route.method.toLowerCase()]: op };
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Subscription Service API",
      version: "v1",
      description: `Admin, Storefront and Customer APIs. Errors: ${docsBaseUrl()}/api/errors. Rate limits per shop: Admin ${ADMIN_BUCKET.perMinute}/min burst ${ADMIN_BUCKET.burst}; Customer ${CUSTOMER_BUCKET.perMinute}/min burst ${CUSTOMER_BUCKET.burst}; Storefront ${STOREFRONT_BUCKET.perMinute}/min burst ${STOREFRONT_BUCKET.burst}.`,
    },
    servers: [{ url: docsBaseUrl().replace(/\/docs$/, "") }],
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
                doc_url: { type: "string", format: "uri" },
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

// ---- HTML ------------------------------------------------------------------------------------

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#222}code,pre{font:13px ui-monospace,monospace;background:#f4f4f4}pre{padding:1rem;overflow:auto}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:.35rem .5rem;text-align:left;vertical-align:top}section{margin:1.5rem 0}h3{margin-bottom:.2rem}</style></head><body>${body}</body></html>`;
}

export function referenceHtml(): string {
  const sections = SURFACES.map(([surface, routes]) => {
    const rows = routes
      .map(
        (r) =>
          `<tr><td><code>${r.method}</code></td><td><code>${esc(surface.basePath + r.path)}</code></td><td>${r.scopes.map((s) => `<code>${s}</code>`).join(" ") || "none"}</td><td>${esc(r.summary)}${r.description ? `<br><small>${esc(r.description)}</small>` : ""}${r.requiresIdempotencyKey ? "<br><small>Requires Idempotency-Key.</small>" : ""}</td></tr>`,
      )
      .join("");
    return `<section id="${surface.name}"><h2>${esc(surface.label)} <small><code>${surface.basePath}</code></small></h2>
<p>Credential: <code>Authorization: Bearer ${surface.keyKind === "SECRET" ? "svc_sk_…" : "svc_pk_…"}</code>${surface.customerSession ? " plus <code>X-Service-Session: svc_cst_…</code> (except POST /session)" : ""}. Rate limit: ${surface.bucket.perMinute}/min, burst ${surface.bucket.burst}, per shop.${surface.cors ? " CORS: the shop's domain, its storefront origins and configured origins; preflights are answered for any origin and the allowlist is enforced on the real request." : ""}${surface.noStore ? " Every response: <code>Cache-Control: no-store</code>." : ""}</p>
<table><tr><th>Method</th><th>Path</th><th>Scopes</th><th>What</th></tr>${rows || '<tr><td colspan="4">No endpoints yet.</td></tr>'}</table></section>`;
  }).join("");
  return page(
    "Subscription Service API reference",
    `<h1>Subscription Service API (v1)</h1>
<p>Machine-readable: <a href="/docs/openapi.json">OpenAPI 3.1</a>. Errors: <a href="/docs/api/errors">error codes</a>.</p>
<h2>Conventions</h2>
<ul>
<li>Order of checks on every surface: credential (401) → plan gate (403 plan_upgrade_required) → rate limit (429) → route (404 / 405) → scope (403 insufficient_scope) → validation (400). An unauthenticated request to any path gets 401.</li>
<li>Every response carries <code>X-Service-Request-Id</code> (<code>req_</code> + a time-sortable id). Requests that reached the bucket carry <code>X-Service-RateLimit-Limit</code>, <code>-Remaining</code>, <code>-Reset</code> (seconds until the bucket is full), and the IETF <code>RateLimit-Policy</code> / <code>RateLimit</code> headers; a 429 carries <code>Retry-After</code>.</li>
<li>Lists answer <code>{ data, next_cursor }</code> in (created_at desc, id desc) order. <code>limit</code>: default 50, over 250 is clamped to 250; a value that is not a positive integer is 400 invalid_request. <code>cursor</code> is opaque and bound to its list and filters; anything else is 400 invalid_cursor.</li>
<li>Bodies are JSON (<code>Content-Type: application/json</code>), at most 1 MiB. Percent-encoded ids in paths are decoded once.</li>
</ul>
${sections}
${OPEN_POINTS}
<h2 id="webhooks">Verifying webhook signatures</h2>
<p><code>X-Service-Signature: t=&lt;unix seconds&gt;,v1=&lt;hex HMAC-SHA256 of "&lt;t&gt;.&lt;raw body&gt;"&gt;</code>, keyed with the endpoint's <code>whsec_</code> secret. Verify against the raw bytes, timing-safe, within 5 minutes; ignore versions you do not understand.</p>
<pre>${esc(WEBHOOK_VERIFIER)}</pre>`,
  );
}

// What the specification leaves "not shown", as decided (docs/decisions/010-023 give the why).
const OPEN_POINTS = `<h2 id="decisions">Decisions on points the specification leaves open</h2>
<ul>
<li><b>Money</b> is <code>{ "amount": "12.50", "currency_code": "USD" }</code> (a decimal string in the currency's own exponent), except catalogue snapshot prices the specification names <code>price_cents</code> (integer minor units).</li>
<li><b>Query parameters</b>: an unknown parameter or enum value is 400 invalid_request naming it; enum values match case-insensitively; timestamps need <code>Z</code> or an offset (a bare date means midnight UTC).</li>
<li><b>customer_id</b> on subscription and notification rows is a pseudonymous platform id and is returned at <code>read:subscriptions</code>; <code>read:customers</code> unlocks gift names, e-mails and messages.</li>
<li><b>Subscription rows</b>: <code>contract_id, status, next_billing_at, selling_plan_group_id, selling_plan_id, customer_id, currency_code, charge_amount, monthly_amount, billing_interval, billing_interval_count, product_title, frequency_label, order_name, created_at, updated_at</code>; the single form adds <code>lines</code> and <code>gift</code>. The receipt's <code>line</code> has the shape of an entry of <code>lines</code>.</li>
<li><b>Plans</b>: the <code>status</code> filter takes <code>active</code> or <code>archived</code>. <b>Boxes</b>: without <code>period</code>, the 24 most recent periods that have a box.</li>
<li><b>Gift statuses</b>: <code>pending, sent, claimed, expired, ended</code>; kinds <code>prepaid, recurring</code>.</li>
<li><b>Analytics</b>: <code>range</code> defaults to <code>30d</code>, <code>window</code> to <code>12</code>. MRR is the sum of monthly amounts of ACTIVE contracts per currency, with <code>contracts_missing_amount</code> for those never backfilled (they count zero). Churn: contracts live at the start of the range that ended (CANCELLED or EXPIRED) within it, over those live at the start; a rate with a zero denominator is <code>null</code>.</li>
<li><b>Skip</b> moves the next billing date one billing interval (the next anchor on an anchored plan); a contract already CANCELLED or EXPIRED is refused 409 state_conflict before any platform call.</li>
<li><b>Idempotency</b>: a replay carries the first response's headers, request id included, with <code>Idempotency-Replayed: true</code>.</li>
<li><b>Storefront API</b>: its own bucket, 300/min with burst 600. <b>Redis unavailable</b>: each replica falls back to an in-process bucket with the surface's parameters.</li>
</ul>`;

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
