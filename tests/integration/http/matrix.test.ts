// Every kernel error code on every surface, in the documented order of checks (/docs#section/Conventions):
// credential (401s) → plan gate → rate limit → route (404/405) → scope → validation → handler.
import { prisma } from "../../../app/db.server";
import { ERROR_CODES } from "../../../app/infra/errors";
import { issueCustomerSession } from "../../../app/domain/customer/session.server";
import { bucketKey } from "../../../app/http/rate-limit.server";
import { REQUEST_ID_RE } from "../../../app/http/request-id.server";
import { SURFACES, readyRedis, envelopeOf, keyFor, principalFor, req, testSurface, OTHER_SCOPE, TEST_SCOPE, type Creds } from "./helpers";
import { createShop } from "../../support/fixtures";
import type { SurfaceConfig } from "../../../app/http/kernel.server";

type Case = {
  name: string;
  code: keyof typeof ERROR_CODES;
  only?: Array<SurfaceConfig["name"]>;
  run: (s: SurfaceConfig) => Promise<Response>;
};

const other = (s: SurfaceConfig) => (s.keyKind === "SECRET" ? "PUBLISHABLE" : "SECRET");

const cases: Case[] = [
  // --- 401s, in order
  { name: "no Authorization header", code: "missing_credential", run: async (s) => testSurface(s).handle(req(s, "GET", "/things/x")) },
  {
    name: "Authorization without Bearer",
    code: "missing_credential",
    run: async (s) => testSurface(s).handle(req(s, "GET", "/things/x", {}, { headers: { Authorization: "Basic abc" } })),
  },
  { name: "garbage token", code: "invalid_credential", run: async (s) => testSurface(s).handle(req(s, "GET", "/things/x", { token: "nope" })) },
  {
    name: "truncated key",
    code: "invalid_credential",
    run: async (s) => {
      const { creds } = await principalFor(s);
      return testSurface(s).handle(req(s, "GET", "/things/x", { ...creds, token: creds.token!.slice(0, -1) }));
    },
  },
  {
    name: "right id, wrong secret",
    code: "invalid_credential",
    run: async (s) => {
      const { creds } = await principalFor(s);
      const t = creds.token!;
      const flipped = t.slice(0, -1) + (t.endsWith("A") ? "B" : "A");
      return testSurface(s).handle(req(s, "GET", "/things/x", { ...creds, token: flipped }));
    },
  },
  {
    name: "key of the other kind (publishable on Admin, secret on Storefront/Customer)",
    code: "invalid_credential",
    run: async (s) => {
      const shop = await createShop();
      const k = await keyFor(shop.id, other(s), [TEST_SCOPE]);
      return testSurface(s).handle(req(s, "GET", "/things/x", { token: k.key }));
    },
  },
  {
    name: "revoked key (even on a FREE shop: auth before plan)",
    code: "credential_revoked",
    run: async (s) => {
      const { key, creds } = await principalFor(s, { appPlan: "FREE" });
      await prisma.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
      return testSurface(s).handle(req(s, "GET", "/things/x", creds));
    },
  },
  {
    name: "shop uninstalled",
    code: "credential_revoked",
    run: async (s) => {
      const { shop, creds } = await principalFor(s);
      await prisma.shop.update({ where: { id: shop.id }, data: { installState: "UNINSTALLED" } });
      return testSurface(s).handle(req(s, "GET", "/things/x", creds));
    },
  },
  {
    name: "expired key",
    code: "credential_expired",
    run: async (s) => {
      const { key, creds } = await principalFor(s);
      await prisma.apiKey.update({ where: { id: key.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      return testSurface(s).handle(req(s, "GET", "/things/x", creds));
    },
  },
  {
    name: "app lost the shop's offline session",
    code: "shop_unavailable",
    run: async (s) => {
      const { creds } = await principalFor(s, { offlineSession: false });
      return testSurface(s).handle(req(s, "GET", "/things/x", creds));
    },
  },
  // --- Customer session (Customer API only)
  {
    name: "no X-Service-Session",
    code: "missing_credential",
    only: ["customer"],
    run: async (s) => {
      const { creds } = await principalFor(s);
      return testSurface(s).handle(req(s, "GET", "/things/x", { token: creds.token }));
    },
  },
  {
    name: "session from another shop",
    code: "invalid_credential",
    only: ["customer"],
    run: async (s) => {
      const a = await principalFor(s);
      const b = await principalFor(s);
      return testSurface(s).handle(req(s, "GET", "/things/x", { token: a.creds.token, session: b.creds.session }));
    },
  },
  {
    name: "session minted under another key of the same shop",
    code: "invalid_credential",
    only: ["customer"],
    run: async (s) => {
      const a = await principalFor(s);
      const k2 = await keyFor(a.shop.id, "PUBLISHABLE");
      return testSurface(s).handle(req(s, "GET", "/things/x", { token: k2.key, session: a.creds.session }));
    },
  },
  {
    name: "expired session",
    code: "credential_expired",
    only: ["customer"],
    run: async (s) => {
      const a = await principalFor(s);
      const old = issueCustomerSession(
        { shopId: a.shop.id, customerId: "gid://shopify/Customer/1", keyId: a.key.id },
        { now: new Date(Date.now() - 31 * 60_000) },
      );
      return testSurface(s).handle(req(s, "GET", "/things/x", { token: a.creds.token, session: old.token }));
    },
  },
  // --- 403 plan gate, before scope and before routing
  {
    name: "FREE shop with a fully scoped key",
    code: "plan_upgrade_required",
    run: async (s) => {
      const { creds } = await principalFor(s, { appPlan: "FREE" });
      return testSurface(s).handle(req(s, "GET", "/things/x", creds));
    },
  },
  {
    name: "partner development store not on a paid platform plan (Pro)",
    code: "plan_upgrade_required",
    run: async (s) => {
      const { creds } = await principalFor(s, { partnerDevelopment: true, platformPlanPaid: false });
      return testSurface(s).handle(req(s, "GET", "/things/x", creds));
    },
  },
  // --- 429
  {
    name: "empty bucket",
    code: "rate_limited",
    run: async (s) => {
      const { shop, creds } = await principalFor(s);
      const now = Date.now();
      await (await readyRedis()).hset(bucketKey(s.bucket, shop.id), "tokens", "0", "ts", String(now));
      return testSurface(s, { now: () => now }).handle(req(s, "GET", "/things/x", creds));
    },
  },
  // --- routing after auth
  {
    name: "unauthenticated probe of a wrong method gets 401 first",
    code: "missing_credential",
    run: async (s) => testSurface(s).handle(req(s, "DELETE", "/things/x")),
  },
  {
    name: "unrouted path",
    code: "not_found",
    run: async (s) => testSurface(s).handle(req(s, "GET", "/nope", (await principalFor(s)).creds)),
  },
  {
    name: "bare /v1",
    code: "not_found",
    run: async (s) => testSurface(s).handle(new Request(`http://127.0.0.1${s.basePath}`, { headers: credHeaders((await principalFor(s)).creds) })),
  },
  {
    name: "wrong method on a routed path",
    code: "method_not_allowed",
    run: async (s) => testSurface(s).handle(req(s, "DELETE", "/things/x", (await principalFor(s)).creds)),
  },
  // --- scope
  {
    name: "key without the route's scope",
    code: "insufficient_scope",
    run: async (s) => testSurface(s).handle(req(s, "GET", "/things/x", (await principalFor(s, {}, [OTHER_SCOPE])).creds)),
  },
  // --- 400s
  {
    name: "malformed JSON",
    code: "invalid_request",
    run: async (s) =>
      testSurface(s).handle(req(s, "POST", "/things", (await principalFor(s)).creds, { body: "{", headers: { "Content-Type": "application/json" } })),
  },
  {
    name: "wrong content type",
    code: "invalid_request",
    run: async (s) =>
      testSurface(s).handle(
        req(s, "POST", "/things", (await principalFor(s)).creds, { body: "name=x", headers: { "Content-Type": "application/x-www-form-urlencoded" } }),
      ),
  },
  {
    name: "body over 1 MiB without Content-Length",
    code: "invalid_request",
    run: async (s) => {
      const creds = (await principalFor(s)).creds;
      const big = new Uint8Array(1024 * 1024 + 10).fill(32);
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          for (let i = 0; i < big.length; i += 65536) c.enqueue(big.subarray(i, i + 65536));
          c.close();
        },
      });
      const headers = new Headers({ ...credHeaders(creds), "Content-Type": "application/json" });
      return testSurface(s).handle(
        new Request(`http://127.0.0.1${s.basePath}/things`, { method: "POST", headers, body: stream, duplex: "half" } as RequestInit),
      );
    },
  },
  {
    name: "schema failure names the field",
    code: "invalid_request",
    run: async (s) =>
      testSurface(s).handle(req(s, "POST", "/things", (await principalFor(s)).creds, { body: '{"name":""}', headers: { "Content-Type": "application/json" } })),
  },
  {
    name: "missing Idempotency-Key on a write",
    code: "invalid_request",
    run: async (s) => testSurface(s).handle(req(s, "POST", "/things/x/act", (await principalFor(s)).creds)),
  },
  {
    name: "tampered cursor",
    code: "invalid_cursor",
    run: async (s) => testSurface(s).handle(req(s, "GET", "/keys?cursor=WzEsImEiXQ.AAAAAAAAAAAAAAAAAAAAAA", (await principalFor(s)).creds)),
  },
  // --- handler failures
  {
    name: "domain ApiError passes through",
    code: "state_conflict",
    run: async (s) => testSurface(s).handle(req(s, "GET", "/conflict", (await principalFor(s)).creds)),
  },
  { name: "thrown exception", code: "internal_error", run: async (s) => testSurface(s).handle(req(s, "GET", "/boom", (await principalFor(s)).creds)) },
  // --- CORS surfaces: a real request from an origin not on the shop's list
  {
    name: "origin not on the shop's allowlist",
    code: "invalid_credential",
    only: ["storefront", "customer"],
    run: async (s) => testSurface(s).handle(req(s, "GET", "/things/x", (await principalFor(s)).creds, { headers: { Origin: "https://evil.example" } })),
  },
];

function credHeaders(c: Creds): Record<string, string> {
  const h: Record<string, string> = {};
  if (c.token) h.Authorization = `Bearer ${c.token}`;
  if (c.session) h["X-Service-Session"] = c.session;
  return h;
}

describe.each(SURFACES)("$label error matrix", (surface) => {
  const applicable = cases.filter((c) => !c.only || c.only.includes(surface.name));
  it.each(applicable)("$name → $code", async (c) => {
    const res = await c.run(surface);
    const e = await envelopeOf(res);
    expect(res.status).toBe(ERROR_CODES[c.code]);
    expect(e.code).toBe(c.code);
    expect(e.request_id).toMatch(REQUEST_ID_RE);
    expect(res.headers.get("X-Service-Request-Id")).toBe(e.request_id);
    expect(e.doc_url).toBe(`${process.env.SHOPIFY_APP_URL}/docs/api/errors#${c.code}`);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    if (surface.noStore) expect(res.headers.get("Cache-Control")).toBe("no-store");
    if (c.code === "rate_limited") expect(Number(res.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    if (c.code === "method_not_allowed") expect(res.headers.get("Allow")).toContain("GET");
    if (c.code === "insufficient_scope") expect(e.message).toContain(TEST_SCOPE);
    if (c.code === "internal_error") expect(e.message).not.toContain("secret detail");
    if (c.name.startsWith("schema failure")) expect(e.message).toContain("body.name");
  });

  it("invalid_credential has one message whatever the cause", async () => {
    const shop = await createShop();
    const wrongKind = await keyFor(shop.id, other(surface));
    const { creds } = await principalFor(surface);
    const tokens = [
      "nope",
      wrongKind.key,
      creds.token!.slice(0, 20),
      `svc_sk_${"0".repeat(24)}_${"A".repeat(43)}`,
      `svc_pk_${"0".repeat(24)}_${"A".repeat(43)}`,
    ];
    const messages = new Set<string>();
    for (const t of tokens)
      messages.add((await envelopeOf(await testSurface(surface).handle(req(surface, "GET", "/things/x", { token: t, session: creds.session })))).message);
    expect(messages.size).toBe(1);
  });

  it("a success carries the request id and integer rate-limit headers", async () => {
    const { creds } = await principalFor(surface);
    const res = await testSurface(surface).handle(req(surface, "GET", `/things/${encodeURIComponent("gid://shopify/Thing/1")}`, creds));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ thing: "gid://shopify/Thing/1" });
    expect(res.headers.get("X-Service-Request-Id")).toMatch(REQUEST_ID_RE);
    for (const h of ["X-Service-RateLimit-Limit", "X-Service-RateLimit-Remaining", "X-Service-RateLimit-Reset"]) {
      expect(res.headers.get(h)).toMatch(/^\d+$/);
    }
    expect(res.headers.get("X-Service-RateLimit-Limit")).toBe(String(surface.bucket.burst));
    expect(res.headers.get("RateLimit-Policy")).toBe(`"${surface.name}";q=${surface.bucket.burst};w=${(surface.bucket.burst * 60) / surface.bucket.perMinute}`);
    expect(res.headers.get("RateLimit")).toMatch(/^"\w+";r=\d+;t=\d+$/);
  });

  it("a percent-encoded gid is decoded exactly once", async () => {
    const { creds } = await principalFor(surface);
    const gid = "gid://shopify/Thing/1%2F2"; // a literal %2F inside the id survives
    const res = await testSurface(surface).handle(req(surface, "GET", `/things/${encodeURIComponent(gid)}`, creds));
    expect(((await res.json()) as { thing: string }).thing).toBe(gid);
  });
});

describe("Customer API specifics", () => {
  const s = SURFACES[2];
  it("POST with session: false runs without X-Service-Session", async () => {
    const { creds } = await principalFor(s);
    const res = await testSurface(s).handle(req(s, "POST", "/open", { token: creds.token }));
    expect(res.status).toBe(200);
  });
  it("revoking the publishable key ends its sessions", async () => {
    const { key, creds } = await principalFor(s);
    expect((await testSurface(s).handle(req(s, "GET", "/things/x", creds))).status).toBe(200);
    await prisma.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
    expect((await envelopeOf(await testSurface(s).handle(req(s, "GET", "/things/x", creds)))).code).toBe("credential_revoked");
  });
});
