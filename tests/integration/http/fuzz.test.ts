// Fuzz: random paths, methods, headers and bodies against every surface. Every answer is a
// well-formed envelope with a status the reference names; a 500 only from the injected fault (/boom).
import fc from "fast-check";
import { ERROR_CODES } from "../../../app/infra/errors";
import { REQUEST_ID_RE } from "../../../app/http/request-id.server";
import { SURFACES, principalFor, testSurface } from "./helpers";

const SPEC_STATUSES = new Set([200, 201, 204, ...Object.values(ERROR_CODES)]);
const segment = fc.oneof(
  fc.constantFrom("things", "keys", "boom", "open", "act", "conflict", "v1", "..", ".", "%2F", "%", "%zz", "gid%3A%2F%2Fshopify%2FX%2F1", ""),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);

describe.each(SURFACES)("$label fuzz", (surface) => {
  it("answers every random request with a spec status and a well-formed envelope", async () => {
    const p = await principalFor(surface);
    // The clock jumps a minute per request so the bucket never runs dry and every path is reached.
    let clock = Date.now();
    const kernel = testSurface(surface, { now: () => (clock += 60_000) });
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { maxLength: 4 }),
        fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"),
        fc.constantFrom("none", "valid", "garbage", "noSession"),
        fc.option(fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded", "application/merge-patch+json", ""), {
          nil: undefined,
        }),
        fc.option(fc.oneof(fc.json(), fc.string({ maxLength: 64 }), fc.constant('{"name":"x"}')), { nil: undefined }),
        fc.option(fc.constantFrom("https://evil.example", `https://${p.shop.domain}`, "null"), { nil: undefined }),
        fc.option(fc.string({ maxLength: 300 }), { nil: undefined }),
        fc.option(fc.webQueryParameters(), { nil: undefined }),
        async (segs, method, auth, contentType, body, origin, idem, query) => {
          const headers = new Headers();
          if (auth === "valid" || auth === "noSession") headers.set("Authorization", `Bearer ${p.creds.token}`);
          if (auth === "garbage") headers.set("Authorization", "Bearer svc_sk_garbage");
          if (auth === "valid" && p.creds.session) headers.set("X-Service-Session", p.creds.session);
          if (contentType !== undefined) headers.set("Content-Type", contentType);
          if (origin) headers.set("Origin", origin);
          if (idem !== undefined && /^[\x20-\x7e]*$/.test(idem)) headers.set("Idempotency-Key", idem);
          const path = `${surface.basePath}/${segs.join("/")}${query ? `?${query}` : ""}`;
          const hasBody = body !== undefined && method !== "GET" && method !== "HEAD";
          const res = await kernel.handle(new Request(`http://127.0.0.1${path}`, { method, headers, body: hasBody ? body : undefined }));
          expect(SPEC_STATUSES.has(res.status)).toBe(true);
          expect(res.headers.get("X-Service-Request-Id")).toMatch(REQUEST_ID_RE);
          // The URL parser resolves "." and ".." segments first ("./boom" is "/boom"), as any client does.
          if (res.status === 500) expect(new URL(`http://127.0.0.1${path}`).pathname.slice(surface.basePath.length).split("/")[1]).toBe("boom");
          if (res.status >= 400 && method !== "HEAD") {
            const e = ((await res.json()) as { error: Record<string, unknown> }).error;
            expect(Object.keys(e).sort()).toEqual(["code", "doc_url", "message", "request_id"]);
            expect(ERROR_CODES[e.code as keyof typeof ERROR_CODES]).toBe(res.status);
            expect(e.request_id).toBe(res.headers.get("X-Service-Request-Id"));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
