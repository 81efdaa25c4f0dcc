// The reference at /docs: OpenAPI from the route tables (response shapes and an example request
// per endpoint), rendered by the bundled Redoc, an anchor per error code, and a webhook verifier
// that actually verifies.
import { createHmac } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ERROR_CODES } from "../../../app/infra/errors";
import { errorsHtml, openApiDocument, referenceHtml, WEBHOOK_VERIFIER } from "../../../app/surfaces/docs.server";
import { loader as errorsLoader } from "../../../app/routes/docs.api.errors";
import { loader as openapiLoader } from "../../../app/routes/docs.openapi[.]json";
import { loader as referenceLoader } from "../../../app/routes/docs._index";
import { loader as redocLoader } from "../../../app/routes/docs.redoc[.]standalone[.]js";
import { adminRoutes } from "../../../app/surfaces/admin/routes";

type Operation = {
  parameters: Array<{ name: string; in: string; required: boolean }>;
  requestBody?: { content: { "application/json": { schema: Record<string, unknown> } } };
  responses: Record<string, { content?: { "application/json": { schema: Record<string, unknown> } } }>;
  "x-codeSamples": Array<{ lang: string; source: string }>;
};

describe("API reference", () => {
  it("OpenAPI 3.1 lists every route of every table with its security and schemas", async () => {
    const doc = openApiDocument() as { openapi: string; paths: Record<string, Record<string, { security: unknown[]; requestBody?: unknown }>> };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.paths["/api/customer/v1/session"].post.requestBody).toBeTruthy();
    expect(doc.paths["/api/customer/v1/config"].get.security).toEqual([{ publishableKey: [], customerSession: [] }]);
    expect(doc.paths["/api/storefront/v1/mix-match/{id}"].get).toBeTruthy();
    const res = await openapiLoader();
    expect(res.headers.get("Content-Type")).toMatch(/json/);
    expect(JSON.parse(await res.text())).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it("every operation carries its route's response schema, parameters and a curl example that runs as written", () => {
    const doc = openApiDocument() as { paths: Record<string, Record<string, Operation>> };
    let operations = 0;
    for (const route of adminRoutes) {
      const op = doc.paths[`/api/admin/v1${route.path.replace(/:([a-z_]+)/g, "{$1}")}`][route.method.toLowerCase()];
      operations++;
      const schema = op.responses[String(route.successStatus ?? 200)].content!["application/json"].schema;
      expect(schema.type, `${route.method} ${route.path}`).toBe("object");
      expect(Object.keys(schema.properties as object).length, `${route.method} ${route.path}`).toBeGreaterThan(0);
      for (const name of route.path.match(/:([a-z_]+)/g) ?? [])
        expect(op.parameters.some((p) => p.name === name.slice(1) && p.in === "path" && p.required)).toBe(true);
      const curl = op["x-codeSamples"][0].source;
      expect(curl).toContain(route.method === "GET" ? `curl "http://` : `curl -X ${route.method} "http://`);
      expect(curl).toContain("Authorization: Bearer svc_sk_");
      expect(curl.includes("Idempotency-Key"), `${route.method} ${route.path}`).toBe(Boolean(route.requiresIdempotencyKey));
      // The example body is valid input for the route's own body schema.
      const body = /-d '(.*)'$/m.exec(curl)?.[1];
      if (route.body) expect(route.body.safeParse(JSON.parse(body ?? "null")).success, `${route.method} ${route.path} example body`).toBe(true);
      else expect(body).toBeUndefined();
    }
    expect(operations).toBe(adminRoutes.length);
    const reschedule = doc.paths["/api/admin/v1/subscriptions/{contract_gid}/reschedule"].post;
    expect(reschedule.requestBody!.content["application/json"].schema).toMatchObject({ required: ["next_billing_at"], additionalProperties: false });
    expect(reschedule["x-codeSamples"][0].source).toContain("/api/admin/v1/subscriptions/gid%3A%2F%2Fshopify%2FSubscriptionContract%2F1001/reschedule");
  });

  it("/docs is the OpenAPI document rendered by the app's own copy of Redoc", async () => {
    const html = await (await referenceLoader()).text();
    const embedded = /<script id="openapi" type="application\/json">(.*?)<\/script>/s.exec(html)?.[1];
    expect(JSON.parse(embedded ?? "null")).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    expect(html).toContain('<script src="/docs/redoc.standalone.js"></script>');
    expect(html).toContain("verifyServiceSignature");
    expect(html).not.toMatch(/<script[^>]+src="https?:/);
    const js = await redocLoader();
    expect(js.headers.get("Content-Type")).toMatch(/javascript/);
    const source = await js.text();
    expect(source).toContain("Redoc");
    expect(source).not.toContain("cdn.redoc.ly");
  });

  it("has one anchored section per error code", async () => {
    const html = errorsHtml();
    for (const code of Object.keys(ERROR_CODES)) expect(html).toContain(`<section id="${code}">`);
    expect((await errorsLoader()).headers.get("Content-Type")).toMatch(/text\/html/);
    expect(referenceHtml()).toContain("verifyServiceSignature");
  });

  it("the copy-paste webhook verifier accepts a good signature and refuses tampering and staleness", async () => {
    const dir = path.resolve(".data/test-docs");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `verifier-${process.pid}.ts`);
    writeFileSync(file, WEBHOOK_VERIFIER);
    const { verifyServiceSignature } = (await import(/* @vite-ignore */ file)) as {
      verifyServiceSignature: (b: string, h: string | null, s: string, tol?: number, now?: number) => boolean;
    };
    const secret = "whsec_test";
    const body = '{"id":"evt_1"}';
    const t = 1_800_000_000;
    const sig = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
    expect(verifyServiceSignature(body, `t=${t},v1=${sig}`, secret, 300, t + 10)).toBe(true);
    expect(verifyServiceSignature(body, `t=${t},v2=zz,v1=${sig}`, secret, 300, t)).toBe(true);
    expect(verifyServiceSignature(body + " ", `t=${t},v1=${sig}`, secret, 300, t)).toBe(false);
    expect(verifyServiceSignature(body, `t=${t},v1=${sig.slice(2)}`, secret, 300, t)).toBe(false);
    expect(verifyServiceSignature(body, `t=${t},v1=${sig}`, secret, 300, t + 301)).toBe(false);
    expect(verifyServiceSignature(body, null, secret)).toBe(false);
  });
});
