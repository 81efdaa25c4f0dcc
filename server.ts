// The web process: a node:http server whose /api/ requests go straight to the API kernel and
// everything else to Express around the Remix build (the same build remix-serve would run), so
// tests can start it in-process and SIGTERM drains in-flight requests.
//
// Why /api/ bypasses Express and Remix (docs/decisions/037-api-front-door.md): every request
// whose path starts with /api/ must be answered with the JSON error envelope, whatever its
// bytes. Express answers malformed percent-encoding with an HTML page (a stack trace outside
// production), Remix owns `?_data=` and answers unknown paths with HTML, fetch's Request refuses
// CONNECT/TRACE/TRACK, and cancelling the body stream Remix builds destroys the socket (a body
// over 1 MiB got a reset instead of 400). Here the request is handed to the kernel as is.
import express from "express";
import { createRequestHandler } from "@remix-run/express";
import { broadcastDevReady, type ServerBuild } from "@remix-run/node";
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import path from "node:path";
import { pathToFileURL } from "node:url";

type ApiHandler = (request: Request) => Promise<Response>;
type Refusal = (code: "invalid_request" | "method_not_allowed", message: string) => Response;

/** True for the paths the kernel answers: `/api`, `/api/...`, `/api?...`. */
export function isApiPath(rawUrl: string | undefined): boolean {
  const url = rawUrl ?? "";
  return url === "/api" || url.startsWith("/api/") || url.startsWith("/api?");
}

// fetch's Request forbids these methods; they reach the kernel as a method no route takes (405).
const FORBIDDEN_BY_FETCH = new Set(["CONNECT", "TRACE", "TRACK"]);

/** A Host header Remix can build its request URL from (one authority, no path or spaces). */
function validHost(host: string): boolean {
  try {
    return new URL(`http://${host}`).host.length > 0 && !/[\s/?#@\\]/.test(host);
  } catch {
    return false;
  }
}

function requestUrl(req: IncomingMessage): URL {
  // The Host header is the client's; a malformed one must not turn into a failure here.
  try {
    return new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  } catch {
    return new URL(req.url ?? "/", "http://localhost");
  }
}

/**
 * The request body as a web stream that never destroys the socket: when the kernel stops
 * reading (a body over 1 MiB) the rest is read and discarded, so the client finishes sending
 * and receives the 400 on the same connection (Node's requestTimeout bounds a never-ending body).
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Buffer) => {
        if (done) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.once("end", () => {
        if (!done) controller.close();
        done = true;
      });
      req.once("error", (err) => {
        if (!done) controller.error(err);
        done = true;
      });
      req.pause();
    },
    pull() {
      req.resume();
    },
    cancel() {
      done = true;
      req.resume(); // discard what is still coming
    },
  });
}

export function toFetchRequest(req: IncomingMessage): Request {
  const method = (req.method ?? "GET").toUpperCase();
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    try {
      headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    } catch {
      // A header value fetch refuses (it cannot be one the kernel reads): left out.
    }
  }
  const hasBody = method !== "GET" && method !== "HEAD" && !FORBIDDEN_BY_FETCH.has(method);
  return new Request(requestUrl(req), {
    method: FORBIDDEN_BY_FETCH.has(method) ? "UNSUPPORTED" : method,
    headers,
    ...(hasBody ? { body: bodyStream(req), duplex: "half" } : {}),
  } as RequestInit);
}

async function serveApi(handle: ApiHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const response = await handle(toFetchRequest(req));
    const body = Buffer.from(await response.arrayBuffer());
    res.statusCode = response.status;
    response.headers.forEach((value, name) => res.setHeader(name, value));
    // A HEAD answer keeps the Content-Length its handler declared (the size a GET would send).
    if (req.method !== "HEAD" || !response.headers.has("content-length")) res.setHeader("Content-Length", body.byteLength);
    res.end(req.method === "HEAD" ? undefined : body);
  } catch (err) {
    // The kernel renders every failure itself; reaching here means the answer could not be
    // written (the client went away). Never a stack trace to the client.
    console.error(JSON.stringify({ level: "error", msg: "api response failed", err: String(err) }));
    if (!res.headersSent) {
      res.statusCode = 500;
      res.end();
    } else res.destroy();
  }
}

const ALLOW = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

/** Writes a whole answer on a raw socket and closes it (the parser's state is gone: no keep-alive). */
async function endSocket(socket: Duplex, status: number, headers: Array<[string, string]>, body: Buffer): Promise<void> {
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}`,
    ...headers.map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${body.byteLength}`,
    "Connection: close",
  ];
  socket.end(Buffer.concat([Buffer.from(head.join("\r\n") + "\r\n\r\n"), body]));
}

async function endSocketWith(socket: Duplex, response: Response): Promise<void> {
  const headers: Array<[string, string]> = [];
  response.headers.forEach((value, name) => headers.push([name, value]));
  await endSocket(socket, response.status, headers, Buffer.from(await response.arrayBuffer()));
}

/** A plain-text answer for what is not an /api/ path: the status's own words, nothing else. */
function plain(status: number, headers: Array<[string, string]> = []): [number, Array<[string, string]>, Buffer] {
  return [status, [["Content-Type", "text/plain; charset=utf-8"], ...headers], Buffer.from(`${STATUS_CODES[status] ?? "Error"}\n`)];
}

/** CONNECT never reaches the request handler in node:http; answer it on the raw socket. */
async function answerConnect(handle: ApiHandler, req: IncomingMessage, socket: Duplex): Promise<void> {
  socket.on("error", () => undefined);
  const response = isApiPath(req.url) ? await handle(toFetchRequest(req)).catch(() => null) : null;
  if (response) await endSocketWith(socket, response);
  else await endSocket(socket, 405, [["Allow", ALLOW]], Buffer.alloc(0));
}

/** The request target of a request line the parser refused, when one can be read from its bytes. */
export function refusedTarget(raw: Buffer | undefined): string {
  const line = (raw ?? Buffer.alloc(0)).toString("latin1").split(/\r?\n/, 1)[0];
  return line.split(" ")[1] ?? "";
}

/**
 * What Node's HTTP parser refuses (an unknown or lowercase method, control bytes in the target,
 * conflicting Content-Length and Transfer-Encoding, a bad chunk size, headers over 16 KiB, bare-LF
 * framing) never becomes a request. Answered here instead of Node's bare 400: the JSON envelope
 * with a request id when the target is an /api/ path, a plain answer otherwise
 * (docs/decisions/093-ordered-status-announcements.md; 037 for the front door).
 */
function answerClientError(refuse: Refusal, err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  socket.on("error", () => undefined);
  // Node's own rule: nothing can be written once a response on this socket has begun.
  const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === "ECONNRESET" || !socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") return void endSocket(socket, ...plain(408));
  const api = isApiPath(originForm(refusedTarget(err.rawPacket)));
  const tooLarge = err.code === "HPE_HEADER_OVERFLOW";
  const badMethod = err.code === "HPE_INVALID_METHOD";
  if (!api) return void endSocket(socket, ...plain(tooLarge ? 431 : badMethod ? 405 : 400, badMethod ? [["Allow", ALLOW]] : []));
  const response = badMethod
    ? refuse("method_not_allowed", `The method is not one this server accepts; allowed: ${ALLOW}.`)
    : refuse("invalid_request", tooLarge ? "The request headers are larger than 16 KiB." : "The request is not valid HTTP/1.1 and could not be read.");
  void endSocketWith(socket, response);
}

/**
 * The path and query of a request target. RFC 9112 (3.2.2) has a server accept the absolute form
 * (`GET http://host/path`), which a proxy sends; it means the same as its origin form.
 */
function originForm(target: string): string {
  if (target.startsWith("/")) return target;
  try {
    const url = new URL(target);
    if (url.protocol === "http:" || url.protocol === "https:") return url.pathname + url.search;
  } catch {
    // not an absolute URL either
  }
  return target;
}

export async function startWebServer(opts: {
  port: number;
  buildPath?: string;
  host?: string;
}): Promise<{ server: Server; close(): Promise<void>; url: string }> {
  const buildPath = path.resolve(opts.buildPath ?? "build/index.js");
  const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
  const entry = build.entry.module as { handleApiRequest?: ApiHandler; refuseUnparsedApiRequest?: Refusal };
  const { handleApiRequest: handleApi, refuseUnparsedApiRequest: refuse } = entry;
  if (!handleApi || !refuse) throw new Error(`${buildPath} does not export handleApiRequest and refuseUnparsedApiRequest (app/entry.server.tsx)`);
  // Production unless asked otherwise: only `npm run dev` sets development, where Remix and
  // Express answer with stack traces and file paths (docs/decisions/093).
  const mode = process.env.NODE_ENV === "development" ? "development" : "production";
  const app = express();
  app.set("env", mode);
  app.disable("x-powered-by");
  app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
  app.use(express.static("public", { maxAge: "1h" }));
  // app.use, not app.all("*"): Express would percent-decode the path as a route parameter and
  // answer a malformed one with its own HTML error page.
  app.use(createRequestHandler({ build, mode }));

  // The Host header is checked here (requireHostHeader: false), so a request without one is
  // answered like any other refusal instead of Node's bare 400.
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    const target = req.url ?? "";
    if (!target.startsWith("/")) {
      // Absolute form: the target's authority replaces Host (RFC 9112 3.2.2).
      const path = originForm(target);
      if (path.startsWith("/")) {
        req.headers.host = new URL(target).host;
        req.url = path;
      } else if (target === "*" && req.method === "OPTIONS") {
        // Asterisk form: OPTIONS for the server as a whole (RFC 9110 9.3.7).
        res.writeHead(204, { Allow: ALLOW }).end();
        return;
      } else {
        res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8" }).end("Bad Request\n");
        return;
      }
    }
    // HTTP/1.1 requires Host (RFC 9112 3.2); an HTTP/1.0 request may go without.
    const hostMissing = req.headers.host === undefined && req.httpVersion !== "1.0";
    if (isApiPath(req.url)) {
      if (hostMissing) return void serveApi(async () => refuse("invalid_request", "An HTTP/1.1 request must carry a Host header."), req, res);
      return void serveApi(handleApi, req, res);
    }
    if (hostMissing || (req.headers.host !== undefined && !validHost(req.headers.host))) {
      res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8", Connection: "close" }).end("Bad Request\n");
      return;
    }
    app(req, res);
  });
  server.on("connect", (req: IncomingMessage, socket: Duplex) => void answerConnect(handleApi, req, socket));
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => answerClientError(refuse, err, socket));
  await new Promise<void>((resolve) => server.listen(opts.port, opts.host ?? "0.0.0.0", resolve));
  server.keepAliveTimeout = 65_000;
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : opts.port;
  if (mode === "development" && process.env.REMIX_DEV_ORIGIN) await broadcastDevReady(build);
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

// Run directly: `tsx server.ts` (what `npm run web` does), or its bundle `node build/server.mjs`
// (what `npm start` runs; docs/decisions/089-compiled-workers.md).
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { applyLocalDefaults } = await import("./app/infra/local-env");
  applyLocalDefaults();
  const { env } = await import("./app/env.server");
  const config = env();
  const { existsSync } = await import("node:fs");
  if (!existsSync("build/index.js")) {
    console.error("No Remix build at build/index.js: run `npm run build` first (`npm run demo` does).");
    process.exit(1);
  }
  if (process.env.NODE_ENV !== "production") {
    const { assertDatabaseReady } = await import("./app/infra/service-checks.server");
    await assertDatabaseReady(config.DATABASE_URL).catch((err: Error) => {
      console.error(err.message);
      process.exit(1);
    });
  }
  // On a Redis Cluster every queue's prefix must be one hash tag (docs/decisions/162-queue-hash-tags.md).
  const { checkQueuePrefixes } = await import("./app/infra/queues.server");
  try {
    checkQueuePrefixes();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  const { close } = await startWebServer({ port: config.PORT });
  console.log(JSON.stringify({ level: "info", msg: "web listening", port: config.PORT }));
  const stop = async () => {
    await close();
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
