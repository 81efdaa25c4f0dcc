// The simulator's HTTP server: routes requests to the Admin GraphQL API, OAuth token exchange,
// the Customer Account API and the control API. startSimulator is what main.ts and tests call.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { loadFlowTriggers } from "./flow";
import type { AddressInfo } from "node:net";
import { log } from "./log";
import { handleAdminGraphql } from "./admin-graphql";
import { adminFramePage, appBridgeScript } from "./admin-frame";
import { handleStorefrontPages } from "./storefront";
import { handleAccountAndProxy, readAppProxyConfig, type AppProxyConfig } from "./app-proxy";
import { confirmationPage } from "./billing";
import { handleControl } from "./control";
import { SimCore } from "./core";
import { handleCustomerAccount } from "./customer-account";
import { handleStorefrontApi } from "./storefront-api";
import { handleTokenExchange } from "./oauth";
import { loadState, StateWriter } from "./persistence";
import type { SimState } from "./state";
import { adminSchema, customerAccountSchema } from "./schema";
import { readWebhookConfig, WebhookDispatcher } from "./webhooks";
import type { HttpAnswer } from "./http-answer";

export interface SimulatorOptions {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  stateFile: string;
  /** Where webhooks go: shopify.app.toml's uris are relative to it. */
  appUrl: string;
  apiKey: string;
  apiSecret: string;
  /** Default: shopify.app.toml in the working directory. */
  appTomlPath?: string;
  /** The app's extensions (its Flow triggers are read from there). Default: extensions/ in the working directory. */
  extensionsDir?: string;
  webhookRetryDelaysMs?: number[];
  /**
   * How long after a change the state file is rewritten (default 20 ms). A very large simulated
   * shop (the billing bench's 100,000 contracts) sets it higher, so the whole state is not
   * serialised after every burst of mutations.
   */
  persistDelayMs?: number;
}

export interface RunningSimulator {
  url: string;
  /** The live state (read it in tests; change it only through the control API). */
  readonly state: SimState;
  core: SimCore;
  /** Resolves when every queued webhook delivery has finished. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const MAX_BODY = 20 * 1024 * 1024;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error("Body too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function parseBody(raw: string, contentType: string | undefined): unknown {
  if (!raw) return undefined;
  // curl -d sends JSON labelled as a form; trust the body's first character over the label.
  if (contentType?.includes("application/x-www-form-urlencoded") && !/^\s*[[{]/.test(raw)) {
    return Object.fromEntries(new URLSearchParams(raw));
  }
  return JSON.parse(raw);
}

async function send(res: ServerResponse, answer: HttpAnswer): Promise<void> {
  if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
  const body = answer.text ?? JSON.stringify(answer.body ?? null);
  res.writeHead(answer.status, { "Content-Type": "application/json; charset=utf-8", ...answer.headers });
  res.end(body);
}

const ADMIN_GRAPHQL = /^\/shops\/([^/]+)\/admin\/api\/([^/]+)\/graphql\.json$/;
const BULK_RESULT = /^\/bulk-results\/([0-9a-f]+)\.jsonl$/;
const TOKEN = /^\/shops\/([^/]+)\/admin\/oauth\/access_token$/;
const STOREFRONT = /^\/shops\/([^/]+)\/api\/([^/]+)\/graphql\.json$/;
const CUSTOMER_ACCOUNT = /^\/shopify\.com\/(\d+)\/account\/customer\/api\/([^/]+)\/graphql$/;
const SESSION_TOKEN = /^\/_sim\/shops\/[^/]+\/session-token$/;
const ADMIN_FRAME = /^\/admin\/([^/]+)\/?$/;
// admin.shopify.com/store/<store>/apps/<app>/<path>: a deep link into the framed app.
const ADMIN_APP_PATH = /^\/admin\/([^/]+)\/apps\/[^/]+(\/.*)$/;
// Shopify Billing's confirmation page for one charge (simulator/billing.ts).
const CHARGE_CONFIRM = /^\/admin\/([^/]+)\/charges\/(\d+)\/confirm$/;

const CUSTOMER_ACCOUNT_CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "POST, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type",
};

// A shop's storefront on its own host: <shop domain>.localhost[:port] (simulator/app-proxy.ts).
const SHOP_HOST = /^([a-z0-9][a-z0-9-]*\.myshopify\.com)\.localhost(?::\d+)?$/i;
const STOREFRONT_PATH = /^\/storefront\/([^/]+)(\/.*)$/;

export async function route(core: SimCore, req: IncomingMessage, proxy: AppProxyConfig | null = null): Promise<HttpAnswer> {
  const url = new URL(req.url ?? "/", "http://simulator");
  const method = req.method ?? "GET";
  let body: unknown;
  let raw: string;
  try {
    raw = await readBody(req);
    body = parseBody(raw, req.headers["content-type"]);
  } catch (err) {
    return { status: 400, body: { errors: `Unreadable body: ${(err as Error).message}` } };
  }
  const header = (name: string) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };

  // The storefront's accounts and the app proxy, on the shop's host or under /storefront/<shop>/.
  const onHost = SHOP_HOST.exec(header("host") ?? "");
  const inPath = onHost ? null : STOREFRONT_PATH.exec(url.pathname);
  const storefrontShop = onHost ? core.shop(onHost[1].toLowerCase()) : inPath ? core.shop(decodeURIComponent(inPath[1])) : undefined;
  if (storefrontShop) {
    const answer = await handleAccountAndProxy({
      core,
      shop: storefrontShop,
      base: onHost ? "" : `/storefront/${encodeURIComponent(storefrontShop.domain)}`,
      path: onHost ? url.pathname : inPath![2],
      search: url.searchParams,
      method,
      rawBody: raw,
      contentType: header("content-type"),
      cookie: header("cookie"),
      proxy,
    });
    if (answer) return answer;
    if (onHost) url.pathname = `/storefront/${encodeURIComponent(storefrontShop.domain)}${url.pathname}`;
  }

  if (url.pathname.startsWith("/_sim/")) {
    const answer = await handleControl(core, method, url.pathname, url.searchParams, body);
    // The App Bridge stand-in asks for session tokens from the app's page (another origin).
    if (SESSION_TOKEN.test(url.pathname)) answer.headers = { ...answer.headers, "Access-Control-Allow-Origin": "*" };
    return answer;
  }
  if (method === "GET" && url.pathname === "/app-bridge.js") return appBridgeScript(`http://${header("host")}`);
  const store = handleStorefrontPages(core, method, url.pathname, body, header("cookie"), onHost ? "" : undefined);
  if (store) return store;
  const charge = CHARGE_CONFIRM.exec(url.pathname);
  if (charge && (method === "GET" || method === "POST")) return confirmationPage(core, decodeURIComponent(charge[1]), charge[2], method, body);
  const frame = ADMIN_FRAME.exec(url.pathname);
  if (frame && method === "GET") return adminFramePage(core, decodeURIComponent(frame[1]), `http://${header("host")}`);
  const deep = ADMIN_APP_PATH.exec(url.pathname);
  if (deep && method === "GET") return adminFramePage(core, decodeURIComponent(deep[1]), `http://${header("host")}`, deep[2], url.searchParams);

  // A bulk operation's JSONL result (Shopify serves it from cloud storage at a signed URL).
  const bulk = BULK_RESULT.exec(url.pathname);
  if (bulk && method === "GET") {
    const text = core.bulk.file(bulk[1]);
    return text === undefined
      ? { status: 404, body: null, text: "", headers: { "Content-Type": "text/plain" } }
      : { status: 200, body: null, text, headers: { "Content-Type": "application/jsonl" } };
  }

  let m = ADMIN_GRAPHQL.exec(url.pathname);
  if (m) {
    if (method !== "POST") return { status: 405, body: { errors: "Use POST" } };
    return handleAdminGraphql(core, m[1], m[2], header("x-shopify-access-token"), body);
  }
  m = TOKEN.exec(url.pathname);
  if (m && method === "POST") return handleTokenExchange(core, m[1], (body ?? {}) as Record<string, unknown>);
  m = STOREFRONT.exec(url.pathname);
  // Headless storefronts call the Storefront API from shoppers' browsers: CORS as for the Customer Account API.
  if (m && method === "OPTIONS")
    return {
      status: 204,
      body: null,
      text: "",
      headers: { ...CUSTOMER_ACCOUNT_CORS, "Access-Control-Allow-Headers": "X-Shopify-Storefront-Access-Token, Content-Type" },
    };
  if (m && method === "POST") {
    const answer = handleStorefrontApi(core, decodeURIComponent(m[1]), m[2], header("x-shopify-storefront-access-token"), body);
    return { ...answer, headers: { ...answer.headers, ...CUSTOMER_ACCOUNT_CORS } };
  }
  m = CUSTOMER_ACCOUNT.exec(url.pathname);
  // The Customer Account API is called from shoppers' browsers (headless storefronts): CORS.
  if (m && method === "OPTIONS") return { status: 204, body: null, text: "", headers: CUSTOMER_ACCOUNT_CORS };
  if (m && method === "POST") {
    const answer = handleCustomerAccount(core, Number(m[1]), m[2], header("authorization"), body);
    return { ...answer, headers: { ...answer.headers, ...CUSTOMER_ACCOUNT_CORS } };
  }

  return { status: 404, body: { errors: `Not simulated: ${method} ${url.pathname}` } };
}

export async function startSimulator(options: SimulatorOptions): Promise<RunningSimulator> {
  // Build Shopify's schemas now (about a second, once per process) rather than on the first call.
  adminSchema();
  customerAccountSchema();
  const core = new SimCore(loadState(options.stateFile), {
    appUrl: options.appUrl,
    apiKey: options.apiKey,
    apiSecret: options.apiSecret,
  });
  core.flowTriggers = loadFlowTriggers(options.extensionsDir ?? "extensions");
  const writer = new StateWriter(options.stateFile, () => core.state, options.persistDelayMs);
  core.writer = writer;
  core.dispatcher = new WebhookDispatcher({
    appUrl: options.appUrl,
    apiSecret: options.apiSecret,
    config: readWebhookConfig(options.appTomlPath ?? "shopify.app.toml"),
    retryDelaysMs: options.webhookRetryDelaysMs,
    onChange: () => core.changed(),
  });

  const proxy = readAppProxyConfig(options.appTomlPath ?? "shopify.app.toml");
  const server = createServer((req, res) => {
    route(core, req, proxy).then(
      (answer) => send(res, answer),
      (err: unknown) => {
        log.error("simulator request failed", { err, path: req.url });
        void send(res, { status: 500, body: { errors: "Internal simulator error" } });
      },
    );
  });
  // Keep-alive sockets would hold close() open; the simulator's clients are short-lived anyway.
  server.keepAliveTimeout = 1_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host ?? "127.0.0.1"}:${port}`;
  core.publicUrl = url;
  let closed = false;

  return {
    url,
    core,
    get state() {
      return core.state;
    },
    idle: () => core.dispatcher?.idle() ?? Promise.resolve(),
    async close() {
      if (closed) return;
      closed = true;
      core.dispatcher?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      writer.flush();
    },
  };
}
