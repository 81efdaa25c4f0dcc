// The reference at /docs: OpenAPI from the route tables, an anchor per error code, and a
// webhook verifier that actually verifies.
import { createHmac } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ERROR_CODES } from "../../../app/errors";
import { errorsHtml, openApiDocument, referenceHtml, WEBHOOK_VERIFIER } from "../../../app/surfaces/docs.server";
import { loader as errorsLoader } from "../../../app/routes/docs.api.errors";
import { loader as openapiLoader } from "../../../app/routes/docs.openapi[.]json";

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
