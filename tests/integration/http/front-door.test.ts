// Every request whose path starts with /api/ is answered by the kernel with the JSON error
// envelope, whatever its bytes (docs/decisions/037-api-front-door.md):
// over real HTTP, through server.ts, never a 500, a reset, an HTML page or a stack trace.
import { randomUUID } from "node:crypto";

import { startStack, type Stack } from "../../support/stack";
import { rawRequest, rawSocket, type RawAnswer } from "../../support/raw-http";
import { createContract, createPlanGroup, gid, createKey } from "../../support/fixtures";

let stack: Stack;
let shop: { domain: string; shopId: string };
let key: string;
beforeAll(async () => {
  stack = await startStack({ workers: false });
  shop = await stack.installShop();
  key = (await createKey({ shopId: shop.shopId, name: "door", scopes: ["read:subscriptions", "read:plans", "write:subscriptions"], kind: "SECRET" })).key;
});
afterAll(async () => {
  await stack.close();
});

const auth = () => ({ Authorization: `Bearer ${key}` });
const get = (path: string, headers: Record<string, string> = auth()) => rawRequest(stack.appUrl, "GET", path, { headers });

/** The answer is the envelope: JSON, the code, the request id in body and header, no stack. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function expectEnvelope(answer: RawAnswer | { status: number; text: string; json: any }, status: number, code: string) {
  expect({ status: answer.status, code: answer.json?.error?.code }, answer.text.slice(0, 300)).toEqual({ status, code });
  expect(answer.json.error.request_id).toMatch(/^req_/);
  if ("headers" in answer) {
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    expect(answer.headers["x-service-request-id"]).toBe(answer.json.error.request_id);
  }
  expect(answer.text).not.toMatch(/\bat .+:\d+:\d+|<html|<!DOCTYPE/i);
}

describe("path ids are checked for their shape before any query", () => {
  it("a NUL byte in a path id is 400 invalid_request, not a 500", async () => {
    expectEnvelope(await get("/api/admin/v1/subscriptions/%00"), 400, "invalid_request");
    expectEnvelope(await get(`/api/admin/v1/subscriptions/${encodeURIComponent("gid://shopify/SubscriptionContract/1")}%00`), 400, "invalid_request");
    expectEnvelope(await get("/api/admin/v1/mix-match/%00"), 400, "invalid_request");
  });

  it("an id of the wrong shape names nothing: 404, the message naming the parameter", async () => {
    const answer = await get("/api/admin/v1/subscriptions/not-a-contract");
    expectEnvelope(answer, 404, "not_found");
    expect(answer.json.error.message).toContain("contract_gid");
    expectEnvelope(await get(`/api/admin/v1/subscriptions/${encodeURIComponent("gid://shopify/SubscriptionContract/1 OR 1=1")}`), 404, "not_found");
  });

  it("a well-shaped id that does not exist is still 404", async () => {
    expectEnvelope(await get(`/api/admin/v1/subscriptions/${encodeURIComponent("gid://shopify/SubscriptionContract/987654321")}`), 404, "not_found");
  });
});

describe("bodies over 1 MiB are 400 invalid_request over real HTTP", () => {
  const path = () => `/api/admin/v1/subscriptions/${encodeURIComponent("gid://shopify/SubscriptionContract/1")}/reschedule`;
  const big = Buffer.alloc(2 * 1024 * 1024 + 3, 0x20);
  const headers = () => ({ ...auth(), "Content-Type": "application/json", "Idempotency-Key": `big-${randomUUID()}` });

  it("with Content-Length", async () => {
    expectEnvelope(await rawRequest(stack.appUrl, "POST", path(), { headers: headers(), body: big }), 400, "invalid_request");
  });

  it("chunked (no Content-Length)", async () => {
    const answer = await rawRequest(stack.appUrl, "POST", path(), { headers: headers(), body: big, chunked: true });
    expectEnvelope(answer, 400, "invalid_request");
    expect(answer.json.error.message).toContain("exceeds");
  });

  it("the connection stays usable after the refusal (keep-alive)", async () => {
    const answer = await rawRequest(stack.appUrl, "POST", path(), { headers: { ...headers(), Connection: "keep-alive" }, body: big, chunked: true });
    expectEnvelope(answer, 400, "invalid_request");
    expectEnvelope(await get("/api/admin/v1/subscriptions/%00"), 400, "invalid_request");
  });
});

describe("odd bytes in the path or query", () => {
  it.each(["%C0%AF", "%zz", "%", "%E0%A4%A"])("malformed percent-encoding %s: 401 without a key, 400 with one", async (bad) => {
    expectEnvelope(await get(`/api/admin/v1/subscriptions/${bad}`, {}), 401, "missing_credential");
    expectEnvelope(await get(`/api/admin/v1/subscriptions/${bad}`), 400, "invalid_request");
  });

  it("malformed percent-encoding in a literal segment is 404 not_found", async () => {
    expectEnvelope(await get("/api/admin/v1/subscr%zzptions"), 404, "not_found");
  });

  it.each(["%0A", "%0D", "%0D%0A", "%7F"])("%s in a path id is 400 (401 without a key)", async (ctl) => {
    expectEnvelope(await get(`/api/admin/v1/subscriptions/${ctl}`, {}), 401, "missing_credential");
    expectEnvelope(await get(`/api/admin/v1/subscriptions/x${ctl}y`), 400, "invalid_request");
  });

  it("?_data= on an /api path is the kernel's, never Remix's data request", async () => {
    expectEnvelope(await get("/api/admin/v1/subscriptions?_data=root", {}), 401, "missing_credential");
    expectEnvelope(await get("/api/admin/v1/subscriptions?_data=routes%2Fapp", {}), 401, "missing_credential");
    const authed = await get("/api/admin/v1/subscriptions?_data=root");
    expectEnvelope(authed, 400, "invalid_request"); // an unknown query parameter, like any other
    expectEnvelope(await get("/api/foo?_data=root"), 404, "not_found");
  });

  it("CONNECT gets an answer: 401 without a key, 405 with one", async () => {
    const anon = await rawSocket(stack.appUrl, "CONNECT /api/admin/v1/subscriptions HTTP/1.1\r\nHost: x\r\n\r\n");
    expectEnvelope(anon, 401, "missing_credential");
    const authed = await rawSocket(stack.appUrl, `CONNECT /api/admin/v1/subscriptions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    expectEnvelope(authed, 405, "method_not_allowed");
  });
});

describe("unknown API versions and surfaces", () => {
  it.each(["/api/admin/v2/subscriptions", "/api/admin/v2", "/api/foo/v1", "/api/foo/v1/things", "/api", "/api/", "/api/admin", "/api/exports"])(
    "%s is the JSON not_found envelope",
    async (path) => {
      expectEnvelope(await get(path, {}), 404, "not_found");
      expectEnvelope(await rawRequest(stack.appUrl, "POST", path, { headers: auth() }), 404, "not_found");
    },
  );
});

describe("list cursors and limit", () => {
  it("a cursor minted for another shop is 400 invalid_cursor", async () => {
    for (let i = 0; i < 3; i++) await createPlanGroup(shop.shopId);
    const first = await get("/api/admin/v1/plans?limit=1");
    expect(first.status).toBe(200);
    const cursor: string = first.json.next_cursor;
    expect(cursor).toEqual(expect.any(String));
    expect((await get(`/api/admin/v1/plans?limit=1&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);

    const other = await stack.installShop();
    for (let i = 0; i < 3; i++) await createPlanGroup(other.shopId);
    const otherKey = (await createKey({ shopId: other.shopId, name: "o", scopes: ["read:plans"], kind: "SECRET" })).key;
    const answer = await get(`/api/admin/v1/plans?limit=1&cursor=${encodeURIComponent(cursor)}`, { Authorization: `Bearer ${otherKey}` });
    expectEnvelope(answer, 400, "invalid_cursor");
  });

  it("a subscriptions cursor is bound to the shop as well", async () => {
    for (let i = 0; i < 2; i++) await createContract(shop.shopId, { contractGid: gid("SubscriptionContract") });
    const first = await get("/api/admin/v1/subscriptions?limit=1");
    expect(first.json.next_cursor).toEqual(expect.any(String));
    const other = await stack.installShop();
    const otherKey = (await createKey({ shopId: other.shopId, name: "o", scopes: ["read:subscriptions"], kind: "SECRET" })).key;
    const answer = await get(`/api/admin/v1/subscriptions?limit=1&cursor=${encodeURIComponent(first.json.next_cursor)}`, {
      Authorization: `Bearer ${otherKey}`,
    });
    expectEnvelope(answer, 400, "invalid_cursor");
  });

  it.each(["0x10", "1e2", "+5", " 5", "5 ", "5.0", "-1", "0", "٥", "1_0"])("limit=%j is 400 invalid_request", async (limit) => {
    expectEnvelope(await get(`/api/admin/v1/plans?limit=${encodeURIComponent(limit)}`), 400, "invalid_request");
  });

  it.each([
    ["1", 1],
    ["007", 7],
    ["250", 250],
    ["1000", 250],
    ["99999999999999999999999", 250],
  ])("limit=%s is accepted (page of at most %i)", async (limit) => {
    const answer = await get(`/api/admin/v1/plans?limit=${limit}`);
    expect(answer.status).toBe(200);
  });
});
