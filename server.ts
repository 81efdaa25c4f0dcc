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

/** True for the paths the kernel answers: `/api`, `/api/...`, `/api?...`. */
export function isApiPath(rawUrl: string | undefined): boolean {
  const url = rawUrl ?? "";
  return url === "/api" || url.startsWith("/api/") || url.startsWith("/api?");
}

// fetch's Request forbids these methods; they reach the kernel as a method no route takes (405).
const FORBIDDEN_BY_FETCH = new Set(["CONNECT", "TRACE", "TRACK"]);

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

/** CONNECT never reaches the request handler in node:http; answer it on the raw socket. */
async function answerConnect(handle: ApiHandler, req: IncomingMessage, socket: Duplex): Promise<void> {
  socket.on("error", () => undefined);
  let status = 405;
  let headers: Array<[string, string]> = [["Allow", "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"]];
  let body = Buffer.alloc(0);
  if (isApiPath(req.url)) {
    const response = await handle(toFetchRequest(req)).catch(() => null);
    if (response) {
      status = response.status;
      headers = [];
      response.headers.forEach((value, name) => headers.push([name, value]));
      body = Buffer.from(await response.arrayBuffer());
    }
  }
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}`,
    ...headers.map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${body.byteLength}`,
    "Connection: close",
  ];
  socket.end(Buffer.concat([Buffer.from(head.join("\r\n") + "\r\n\r\n"), body]));
}

export async function startWebServer(opts: {
  port: number;
  buildPath?: string;
  host?: string;
}): Promise<{ server: Server; close(): Promise<void>; url: string }> {
  const buildPath = path.resolve(opts.buildPath ?? "build/index.js");
  const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
  const handleApi = (build.entry.module as { handleApiRequest?: ApiHandler }).handleApiRequest;
  if (!handleApi) throw new Error(`${buildPath} does not export handleApiRequest (app/entry.server.tsx)`);
  const mode = process.env.NODE_ENV === "production" ? "production" : "development";
  const app = express();
  app.disable("x-powered-by");
  app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
  app.use(express.static("public", { maxAge: "1h" }));
  // app.use, not app.all("*"): Express would percent-decode the path as a route parameter and
  // answer a malformed one with its own HTML error page.
  app.use(createRequestHandler({ build, mode }));

  const server = createServer((req, res) => {
    if (isApiPath(req.url)) void serveApi(handleApi, req, res);
    else app(req, res);
  });
  server.on("connect", (req: IncomingMessage, socket: Duplex) => void answerConnect(handleApi, req, socket));
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
  const { close } = await startWebServer({ port: config.PORT });
  console.log(JSON.stringify({ level: "info", msg: "web listening", port: config.PORT }));
  const stop = async () => {
    await close();
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
