// The web process: a thin Express server around the Remix build (the same build remix-serve
// would run), so tests can start it in-process and SIGTERM drains in-flight requests.
import express from "express";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import type { Server } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";

// Remix's router takes only these methods; any other method on /api/* goes straight to the
// kernel (app/surfaces/dispatch.server.ts) so it still gets the error envelope.
const REMIX_METHODS = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]);

type ApiHandler = (request: Request) => Promise<Response> | null;

function otherMethodsToApi(build: ServerBuild): express.RequestHandler {
  const handle = (build.entry.module as { handleApiRequest?: ApiHandler }).handleApiRequest;
  return (req, res, next) => {
    if (REMIX_METHODS.has(req.method) || !handle) return next();
    const url = new URL(req.originalUrl, `http://${req.headers.host ?? "localhost"}`);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    let request: Request;
    try {
      request = new Request(url, { method: req.method, headers });
    } catch {
      // fetch forbids CONNECT, TRACE and TRACK: present them as a method no route takes.
      request = new Request(url, { method: "UNSUPPORTED", headers });
    }
    const answer = handle(request);
    if (!answer) return next();
    answer
      .then(async (response) => {
        res.status(response.status);
        response.headers.forEach((value, name) => res.setHeader(name, value));
        res.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch(next);
  };
}

export async function startWebServer(opts: { port: number; buildPath?: string; host?: string }): Promise<{ server: Server; close(): Promise<void>; url: string }> {
  const buildPath = path.resolve(opts.buildPath ?? "build/index.js");
  const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
  const app = express();
  app.disable("x-powered-by");
  app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
  app.use(express.static("public", { maxAge: "1h" }));
  app.use("/api/", otherMethodsToApi(build));
  app.all("*", createRequestHandler({ build, mode: process.env.NODE_ENV === "production" ? "production" : "development" }));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(opts.port, opts.host ?? "0.0.0.0", () => resolve(s));
  });
  server.keepAliveTimeout = 65_000;
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : opts.port;
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

// Run directly: `tsx server.ts` (what `npm run web` does).
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { applyLocalDefaults } = await import("./scripts/local-env");
  applyLocalDefaults();
  const { env } = await import("./app/env.server");
  const config = env();
  const { close } = await startWebServer({ port: config.PORT });
  console.log(JSON.stringify({ level: "info", msg: "web listening", port: config.PORT }));
  const stop = async () => {
    await close();
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
