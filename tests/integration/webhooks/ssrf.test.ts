// The endpoint URL rules as a table (docs/decisions/053-webhook-url-rules.md): every URL below is
// refused at create (400 invalid_request saying which rule) AND at delivery, by a worker process
// with no private range admitted, for endpoints written straight into the database (as if the
// rules had been weaker when they were created, or a name's DNS answer had changed since).
// Loopback rows point at a live HTTPS receiver, which must never see a request.
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { prisma } from "../../../app/db.server";

import { publishEventNow } from "../../../app/domain/outbound-webhooks/publish.server";
import { secretContext } from "../../../app/domain/outbound-webhooks/deliver.server";
import { seal } from "../../../app/infra/secret-box.server";
import type { WorkerProcess } from "../../support/processes";
import { eventually, startStack, type Stack } from "../../support/stack";
import { makeCert, startDeliveryWorker, startReceiver, type Receiver } from "../../support/webhook-receivers";
import { createKey } from "../../support/fixtures";

let stack: Stack;
let receiver: Receiver;
let worker: WorkerProcess | undefined;
beforeAll(async () => {
  stack = await startStack({ workers: false });
  receiver = await startReceiver(makeCert());
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await stack?.close();
});

function table(port: number): Array<[url: string, why: RegExp]> {
  const P = port;
  const loop = /loopback/;
  return [
    [`http://127.0.0.1:${P}/hooks`, /https/],
    ["http://hooks.example.com/", /https/],
    ["ftp://hooks.example.com/", /https/],
    ["https://user:pass@hooks.example.com/", /credentials/],
    [`https://user@127.0.0.1:${P}/hooks`, /credentials/],
    [`https://127.0.0.1:${P}/hooks`, loop],
    [`https://2130706433:${P}/hooks`, loop], // decimal
    [`https://0x7f000001:${P}/hooks`, loop], // hex
    [`https://0177.0.0.1:${P}/hooks`, loop], // octal
    [`https://017700000001:${P}/hooks`, loop], // octal, one number
    [`https://127.1:${P}/hooks`, loop], // short form
    [`https://0x7f.1:${P}/hooks`, loop], // hex, short form
    ["https://127.0.0.2/", loop],
    ["https://0/", /this-network/],
    ["https://0.0.0.0/", /this-network/],
    ["https://10.0.0.1/", /private/],
    ["https://167772161/", /private/], // 10.0.0.1, decimal
    ["https://0xa000001/", /private/], // 10.0.0.1, hex
    ["https://172.16.0.1/", /private/],
    ["https://172.31.255.255/", /private/],
    ["https://192.168.1.1/", /private/],
    ["https://0xc0.0xa8.1.1/", /private/], // hex octets
    ["https://169.254.169.254/latest/meta-data/", /metadata/],
    ["https://2852039166/", /metadata/], // 169.254.169.254, decimal
    ["https://100.64.0.1/", /carrier-grade NAT/],
    ["https://100.127.255.254/", /carrier-grade NAT/],
    ["https://198.18.0.1/", /benchmarking/],
    ["https://192.0.2.10/", /documentation/],
    ["https://224.0.0.1/", /multicast/],
    ["https://255.255.255.255/", /reserved/],
    [`https://[::1]:${P}/hooks`, loop],
    ["https://[::]/", /unspecified/],
    ["https://[::ffff:10.0.0.1]/", /IPv4-mapped/],
    [`https://[::ffff:127.0.0.1]:${P}/hooks`, /IPv4-mapped/],
    ["https://[::ffff:8.8.8.8]/", /IPv4-mapped/], // wrapped, even when public
    ["https://[::127.0.0.1]/", /IPv4-compatible/],
    ["https://[fd00::1]/", /unique-local/],
    ["https://[fd12:3456:789a::1]/", /unique-local/],
    ["https://[fc00::1]/", /unique-local/],
    ["https://[fe80::1]/", /link-local/],
    ["https://[fec0::1]/", /site-local/],
    ["https://[ff02::1]/", /multicast/],
    ["https://[2001:db8::1]/", /documentation/],
    ["https://[64:ff9b::a00:1]/", /NAT64/], // NAT64 of 10.0.0.1
    ["https://[64:ff9b::808:808]/", /NAT64/],
    ["https://[2002:a00:1::1]/", /6to4/], // 6to4 of 10.0.0.1
    ["https://[2001::1]/", /Teredo/],
    [`https://localhost:${P}/hooks`, /resolves to a disallowed address.*loopback/],
    [`https://${hostname()}:${P}/hooks`, /resolves to a disallowed address.*loopback/],
    ["https://does-not-exist.invalid/", /does not resolve/],
  ];
}

describe("endpoint URL rules (SSRF)", () => {
  it("every URL of the table is refused at create with 400 invalid_request naming the rule", async () => {
    const rows = table(receiver.port);
    expect(rows.length).toBeGreaterThanOrEqual(40);
    const { shopId } = await stack.installShop();
    const { key } = await createKey({ shopId, name: "hooks", scopes: ["manage:webhooks"], kind: "SECRET" });
    for (const [url, why] of rows) {
      const res = await fetch(`${stack.appUrl}/api/admin/v1/webhooks/endpoints`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ url, events: ["subscription.paused"] }),
      });
      const body = (await res.json()) as { error?: { code: string; message: string } };
      expect(res.status, `${url}: ${JSON.stringify(body)}`).toBe(400);
      expect(body.error?.code, url).toBe("invalid_request");
      expect(body.error?.message, url).toMatch(why);
    }
    expect(await prisma.webhookEndpoint.count({ where: { shopId } })).toBe(0);

    // The control: a public address passes the same check (it is never dialled here).
    const ok = await fetch(`${stack.appUrl}/api/admin/v1/webhooks/endpoints`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ url: "https://93.184.215.14/hooks", events: ["subscription.paused"] }),
    });
    expect(ok.status).toBe(201);
  });

  it("every URL of the table is refused again at delivery, before any connection", async () => {
    const rows = table(receiver.port);
    const { shopId } = await stack.installShop();
    for (const [url] of rows) {
      const id = randomUUID();
      await prisma.webhookEndpoint.create({
        data: { id, shopId, url, events: ["subscription.paused"], secretCiphertext: seal(`whsec_${randomUUID()}`, secretContext(id)) },
      });
    }
    worker = await startDeliveryWorker(null, { WEBHOOK_ALLOWED_PRIVATE_CIDRS: "" });
    const { deliveryIds } = await publishEventNow({
      shopId,
      type: "subscription.paused",
      sourceKey: `ssrf:${randomUUID()}`,
      data: { contract_id: "gid://shopify/SubscriptionContract/1", customer_id: "gid://shopify/Customer/1", previous_status: "ACTIVE", new_status: "PAUSED" },
    });
    expect(deliveryIds).toHaveLength(rows.length);
    const attempted = await eventually(async () => {
      const ds = await prisma.webhookDelivery.findMany({ where: { id: { in: deliveryIds } }, include: { endpoint: { select: { url: true } } } });
      return ds.every((d) => d.attempts >= 1) ? ds : null;
    }, 30_000);
    for (const d of attempted) {
      const why = rows.find(([u]) => u === d.endpoint.url)![1];
      expect(d.status, d.endpoint.url).toBe("failed");
      expect(d.responseCode, d.endpoint.url).toBeNull();
      expect(d.lastError, d.endpoint.url).toMatch(/^refused by the URL rules: /);
      expect(d.lastError, d.endpoint.url).toMatch(why);
    }
    expect(receiver.count()).toBe(0);
  }, 90_000);
});
