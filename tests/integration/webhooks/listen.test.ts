// `npm run cli -- webhooks listen` (docs/decisions/126-events-feed-and-listen.md) with real
// processes: the web server (server.ts) and the CLI run as the developer runs them; a local HTTP
// receiver gets a paused contract's event within two seconds, signed with the secret the CLI
// printed, body byte for byte the feed's; the web server is stopped and started again, and the
// event published while it was down arrives once it is back, followed by the next within two seconds.
import { randomUUID, createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import { spawn } from "node:child_process";
import { publishEventNow } from "../../../app/domain/outbound-webhooks/publish.server";
import { startProcess, type Child } from "../../support/processes";
import { eventually } from "../../support/stack";
import { createKey, createShop } from "../../support/fixtures";

const port = Number(process.env.PORT) + 93; // ports of its own, beside this worker's stack
const base = `http://127.0.0.1:${port}`;
const receiverPort = port + 1;

interface Got {
  headers: Record<string, string | string[] | undefined>;
  raw: string;
  at: number;
}
const received: Got[] = [];
let receiver: Server;
let web: Child | undefined;
let listener: ReturnType<typeof spawn> | undefined;
let listenerOutput = "";

const startWeb = async () => {
  web = startProcess("server.ts", { PORT: String(port), SHOPIFY_APP_URL: base });
  await eventually(
    () =>
      fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      ),
    60_000,
  );
};

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers, raw, at: Date.now() });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(receiverPort, "127.0.0.1", resolve));
  await startWeb();
}, 90_000);
afterAll(async () => {
  listener?.kill("SIGTERM");
  await web?.stop();
  await new Promise((r) => receiver?.close(r));
});

const paused = (shopId: string, n: number) =>
  publishEventNow({
    shopId,
    type: "subscription.paused",
    sourceKey: `listen-test:${randomUUID()}`,
    data: { contract_id: `gid://shopify/SubscriptionContract/${n}`, customer_id: "gid://shopify/Customer/1", previous_status: "ACTIVE", new_status: "PAUSED" },
  });

const verifies = (g: Got, secret: string) => {
  const [t, v1] = String(g.headers["x-service-signature"])
    .split(",")
    .map((p) => p.split("=")[1]);
  return createHmac("sha256", secret).update(`${t}.${g.raw}`).digest("hex") === v1;
};

it("forwards each event signed within two seconds, and survives the web server's restart", async () => {
  const shop = await createShop({ appPlan: "PRO" });
  const { key } = await createKey({ shopId: shop.id, name: "listen", scopes: ["manage:webhooks"], kind: "SECRET" });
  const before = await paused(shop.id, 1); // history: not forwarded

  listener = spawn(
    process.execPath,
    ["--import", "tsx", "scripts/cli.ts", "webhooks", "listen", "--forward-to", `http://127.0.0.1:${receiverPort}/hooks`, "--api-key", key, "--base-url", base],
    { stdio: ["ignore", "pipe", "pipe"], env: process.env },
  );
  listener.stdout?.on("data", (c: Buffer) => (listenerOutput += c.toString()));
  listener.stderr?.on("data", (c: Buffer) => (listenerOutput += c.toString()));
  const secret = await eventually(async () => /signing secret is (whsec_[A-Za-z0-9_-]+)/.exec(listenerOutput)?.[1] ?? null, 30_000);
  // the first poll has answered (history seen) once it has said nothing about waiting
  await new Promise((r) => setTimeout(r, 1500));

  const first = await paused(shop.id, 2);
  const t0 = Date.now();
  const got = await eventually(async () => received.find((g) => g.headers["x-service-event-id"] === first.eventId) ?? null, 10_000);
  expect(got.at - t0, listenerOutput).toBeLessThanOrEqual(2000);
  expect(verifies(got, secret)).toBe(true);
  expect(got.headers["x-service-event-type"]).toBe("subscription.paused");
  const feed = (await (await fetch(`${base}/api/admin/v1/events?type=subscription.paused`, { headers: { Authorization: `Bearer ${key}` } })).json()) as {
    data: Array<{ id: string; body: string }>;
  };
  expect(feed.data.find((e) => e.id === first.eventId)?.body).toBe(got.raw);
  expect(received.some((g) => g.headers["x-service-event-id"] === before.eventId)).toBe(false);

  // the web server goes away; an event is published meanwhile; it comes back
  await web!.stop();
  const during = await paused(shop.id, 3);
  await eventually(async () => listenerOutput.includes("Waiting for"), 10_000);
  await startWeb();
  await eventually(async () => received.some((g) => g.headers["x-service-event-id"] === during.eventId), 15_000);
  const after = await paused(shop.id, 4);
  const t1 = Date.now();
  const got2 = await eventually(async () => received.find((g) => g.headers["x-service-event-id"] === after.eventId) ?? null, 10_000);
  expect(got2.at - t1, listenerOutput).toBeLessThanOrEqual(2000);
  expect(verifies(got2, secret)).toBe(true);
  // each event once
  const ids = received.map((g) => g.headers["x-service-event-id"]);
  expect(new Set(ids).size).toBe(ids.length);
}, 180_000);
