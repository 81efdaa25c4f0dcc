// Real HTTPS webhook receivers on loopback: a self-signed certificate made by the machine's
// openssl (trusted by the delivery worker through Node's standard NODE_EXTRA_CA_CERTS), and
// receivers that record every request's raw bytes and answer as told. No app imports, so the
// Playwright tests use it as well as the integration tests (tests/support/webhook-receivers.ts).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { IncomingHttpHeaders } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export interface TestCert {
  certPath: string;
  cert: string;
  key: string;
}

/** A self-signed certificate for 127.0.0.1 and ::1 (and localhost), valid one day, in `dir` (a new temp dir by default). */
export function makeCert(dir = mkdtempSync(path.join(tmpdir(), "webhook-cert-"))): TestCert {
  mkdirSync(dir, { recursive: true });
  const keyPath = path.join(dir, "key.pem");
  const certPath = path.join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      keyPath,
      "-out",
      certPath,
      "-days",
      "1",
      "-subj",
      "/CN=webhook-test-receiver",
      "-addext",
      "subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost",
    ],
    { stdio: "ignore" },
  );
  return readCert(dir);
}

/** A certificate made by makeCert(dir) earlier (another process made it: the e2e stack's tests/e2e/serve.ts). */
export function readCert(dir: string): TestCert {
  const certPath = path.join(dir, "cert.pem");
  return { certPath, cert: readFileSync(certPath, "utf8"), key: readFileSync(path.join(dir, "key.pem"), "utf8") };
}

export interface Received {
  headers: IncomingHttpHeaders;
  raw: Buffer;
  json: { id: string; type: string; api_version: string; created_at: string; shop_domain: string; data: Record<string, unknown>; test?: boolean };
  at: number;
}

/** What the receiver does with the n-th request (0-based): answer a status, or hang until the socket dies. */
export type Behaviour = (n: number, req: Received) => { status: number; delayMs?: number; location?: string } | "hang";

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Requests whose body was read, including hung ones. */
  count(): number;
  respond(b: Behaviour): void;
  close(): Promise<void>;
}

export async function startReceiver(cert: TestCert, behaviour: Behaviour = () => ({ status: 200 }), host = "127.0.0.1"): Promise<Receiver> {
  let respond = behaviour;
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer({ cert: cert.cert, key: cert.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      let json: Received["json"];
      try {
        json = JSON.parse(raw.toString("utf8")) as Received["json"];
      } catch {
        json = { id: "", type: "", api_version: "", created_at: "", shop_domain: "", data: {} };
      }
      const r: Received = { headers: req.headers, raw, json, at: Date.now() };
      const n = received.length;
      received.push(r);
      const what = respond(n, r);
      if (what === "hang") return;
      const answer = () => {
        res.writeHead(what.status, { "content-type": "text/plain", ...(what.location ? { location: what.location } : {}) });
        // A body the service must never read or store.
        res.end(`receiver body ${"x".repeat(64)} SECRET-RECEIVER-TEXT`);
      };
      if (what.delayMs) setTimeout(answer, what.delayMs).unref();
      else answer();
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `https://${shown}:${port}/hooks`,
    port,
    received,
    count: () => received.length,
    respond: (b) => (respond = b),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
