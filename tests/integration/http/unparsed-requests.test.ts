// Requests the Remix adapter or Node's own HTTP parser cannot take, sent as raw bytes to the
// server `npm start` runs (scripts/run-all.ts, NODE_ENV unset as a newcomer would run it):
// on an /api/ path the JSON error envelope with a request id, elsewhere a plain answer, and
// never a stack trace or a file path (docs/decisions/093; 037 for the front door).

import { startProcess, type Child } from "../../support/processes";
import { rawSocket } from "../../support/raw-http";
import { eventually } from "../../support/stack";
import { createKey, createPlanGroup, createShop } from "../../support/fixtures";

const port = Number(process.env.PORT) + 90; // ports of its own, beside this worker's stack
const base = `http://127.0.0.1:${port}`;
let app: Child;
let key: string;

beforeAll(async () => {
  app = startProcess("scripts/run-all.ts", {
    NODE_ENV: undefined, // what `npm start` sees on a fresh machine
    PORT: String(port),
    SIMULATOR_PORT: String(port + 1),
    SHOPIFY_APP_URL: base,
    SHOPIFY_SIMULATOR_URL: `http://127.0.0.1:${port + 1}`,
    SIMULATOR_STATE_FILE: `.data/unparsed-${port}/simulator.json`,
  });
  await eventually(
    () =>
      fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      ),
    120_000,
  );
  const shop = await createShop();
  await createPlanGroup(shop.id);
  key = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:plans"] })).key;
}, 180_000);
afterAll(async () => {
  await app?.stop();
});

type Answer = Awaited<ReturnType<typeof rawSocket>>;
const send = (head: string | Buffer) => rawSocket(base, head);
const noStack = (a: Answer) => expect(a.text, a.text.slice(0, 400)).not.toMatch(/\bat .+:\d+:\d+|\/work\/|node_modules|\.tsx?\b|Error:/);

function expectEnvelope(a: Answer, status: number, code: string) {
  expect({ status: a.status, code: a.json?.error?.code }, a.text.slice(0, 300)).toEqual({ status, code });
  expect(a.headers["content-type"]).toMatch(/^application\/json/);
  expect(a.json.error.request_id).toMatch(/^req_[0-9A-Z]{26}$/);
  expect(a.headers["x-service-request-id"]).toBe(a.json.error.request_id);
  expect(a.json.error.doc_url).toBe(`${base}/docs/api/errors#${code}`);
  noStack(a);
}

function expectPlain(a: Answer, status: number) {
  expect(a.status, a.text.slice(0, 300)).toBe(status);
  expect(a.json).toBeNull();
  noStack(a);
}

describe("request targets other than origin form", () => {
  it("an absolute-form target is the same request as its origin form (RFC 9112 3.2.2)", async () => {
    const auth = `Authorization: Bearer ${key}\r\n`;
    const absolute = await send(`GET ${base}/api/admin/v1/plans HTTP/1.1\r\nHost: ${new URL(base).host}\r\n${auth}Connection: close\r\n\r\n`);
    const origin = await send(`GET /api/admin/v1/plans HTTP/1.1\r\nHost: ${new URL(base).host}\r\n${auth}Connection: close\r\n\r\n`);
    expect(absolute.status, absolute.text.slice(0, 300)).toBe(200);
    expect(absolute.json.data).toEqual(origin.json.data);
    expect(absolute.json.data).toHaveLength(1);
    // Without a key: the envelope, not a 500.
    expectEnvelope(await send(`GET ${base}/api/admin/v1/plans HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`), 401, "missing_credential");
    // Outside /api/ too: the page, not "Invalid URL".
    const page = await send(`GET ${base}/docs/api/errors HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("rate_limited");
  });

  it("OPTIONS * is answered for the server as a whole; * with any other method is a plain 400", async () => {
    const options = await send(`OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(options.status).toBe(204);
    expect(options.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    expectPlain(await send(`GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`), 400);
  });
});

describe("production is the default of the production command", () => {
  it("pages outside /api/ answer without a stack trace or a file path", async () => {
    for (const head of [
      "POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
      "GET /docs/api/errors?_data=x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      "GET /app/nothing-here?_data=routes%2Fnope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n",
    ]) {
      const a = await send(head);
      expect(a.status, head).toBeGreaterThanOrEqual(400);
      noStack(a);
    }
  });
});

describe("what Node's HTTP parser refuses", () => {
  const bigHeader = `X-Big: ${"a".repeat(20 * 1024)}\r\n`;
  // [what, bytes before the target, bytes after it, status and code on /api/, plain status elsewhere]
  const cases: Array<[string, (target: string) => string | Buffer, number, string, number]> = [
    ["a control byte in the path", (t) => `GET ${t}\x01x HTTP/1.1\r\nHost: x\r\n\r\n`, 400, "invalid_request", 400],
    ["a non-ASCII byte in the path", (t) => Buffer.from(`GET ${t}\xff HTTP/1.1\r\nHost: x\r\n\r\n`, "latin1"), 400, "invalid_request", 400],
    ["an unknown method", (t) => `TRACK ${t} HTTP/1.1\r\nHost: x\r\n\r\n`, 405, "method_not_allowed", 405],
    ["a lowercase method", (t) => `get ${t} HTTP/1.1\r\nHost: x\r\n\r\n`, 405, "method_not_allowed", 405],
    [
      "Content-Length beside Transfer-Encoding",
      (t) => `POST ${t} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      400,
      "invalid_request",
      400,
    ],
    ["a bad chunk size", (t) => `POST ${t} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n`, 400, "invalid_request", 400],
    ["no Host header", (t) => `GET ${t} HTTP/1.1\r\nConnection: close\r\n\r\n`, 400, "invalid_request", 400],
    ["headers over 16 KiB", (t) => `GET ${t} HTTP/1.1\r\nHost: x\r\n${bigHeader}\r\n`, 400, "invalid_request", 431],
    ["bare-LF framing", (t) => `GET ${t} HTTP/1.1\nHost: x\nX-A: b\n\n`, 400, "invalid_request", 400],
  ];

  it.each(cases)("%s: the envelope with a request id on /api/", async (_what, request, status, code) => {
    expectEnvelope(await send(request("/api/admin/v1/plans")), status, code);
  });

  it.each(cases)("%s: a plain answer elsewhere", async (_what, request, _status, _code, plainStatus) => {
    expectPlain(await send(request("/docs")), plainStatus);
  });

  it("the server keeps serving, and the log names no secret", async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(app.proc.exitCode).toBeNull();
    expect(app.output()).not.toContain(key);
  });
});
