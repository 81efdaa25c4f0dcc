// Methods Remix's router does not take (PROPFIND, PURGE, TRACE...) still get the kernel's
// answer over real HTTP: 401 before authentication, 405 method_not_allowed after.
import { request as httpRequest } from "node:http";

import { useStack } from "../../support/stack";
import { createKey } from "../../support/fixtures";

const stack = useStack({ workers: false });

function send(method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: { error: { code: string } } }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${stack.appUrl}${path}`, { method, headers }, (res) => {
      let data = "";
      res.on("data", (c) => (data += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(data) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe.each(["PROPFIND", "PURGE", "TRACE"])("%s on an API path", (method) => {
  it("is 401 without a credential and 405 with one, in the error envelope", async () => {
    const { shopId } = await stack.installShop();
    const { key } = await createKey({ shopId, name: "m", scopes: ["read:subscriptions"], kind: "SECRET" });
    const anonymous = await send(method, "/api/admin/v1/subscriptions");
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe("missing_credential");
    const authed = await send(method, "/api/admin/v1/subscriptions", { Authorization: `Bearer ${key}` });
    expect(authed.status).toBe(405);
    expect(authed.body.error.code).toBe("method_not_allowed");
  });
});
