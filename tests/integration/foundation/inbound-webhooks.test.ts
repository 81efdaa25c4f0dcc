// Inbound Shopify webhooks end to end: the simulator (or this test, signing like Shopify) POSTs to
// the built app over HTTP; real BullMQ workers update the mirror in the real database.
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { prisma } from "../../../app/db.server";
import { env } from "../../../app/env.server";

import { platformFor } from "../../../app/platform/index.server";
import { QUEUES, enqueue, queue } from "../../../app/infra/queues.server";
import { postShopifyWebhook } from "../../support/shopify-webhooks";
import { eventually, useStack } from "../../support/stack";
import { createKey } from "../../support/fixtures";

const stack = useStack();

type SimContract = { id: string; customerId: string; status: string; revisionId: number };

async function createContract(domain: string, input: Record<string, unknown> = {}): Promise<SimContract> {
  return stack.control.call<SimContract>("POST", `${stack.control.shop(domain)}/contracts`, input);
}

// Scoped to the shop's domain: simulator gids restart with each simulator, so other tests'
// shops in this worker's database reuse them.
const mirrorOf = (domain: string, gid: string) => prisma.contract.findFirst({ where: { shop: { domain }, contractGid: gid } });
const eventsOf = (domain: string, gid: string) =>
  prisma.event.findMany({ where: { shop: { domain }, data: { path: ["contract_id"], equals: gid } }, orderBy: { createdAt: "asc" } });

/** A webhook signed as Shopify signs it (a wrong `secret` to test the refusal). */
const postWebhook = (topic: string, domain: string, payload: object, opts: { webhookId?: string; secret?: string } = {}) =>
  postShopifyWebhook(stack.appUrl, topic, domain, payload, opts);

const updatePayload = (c: SimContract, status: string, revision: number) => ({
  admin_graphql_api_id: c.id,
  id: Number(c.id.split("/").pop()),
  admin_graphql_api_customer_id: c.customerId,
  customer_id: Number(c.customerId.split("/").pop()),
  status: status.toLowerCase(),
  currency_code: "USD",
  billing_policy: { interval: "month", interval_count: 1, min_cycles: null, max_cycles: null },
  delivery_policy: { interval: "month", interval_count: 1 },
  revision_id: String(revision),
});

describe("inbound Shopify webhooks", () => {
  it("a pause through the GraphQL adapter changes the simulator, then the mirror via the signed update webhook", async () => {
    const { domain } = await stack.installShop();
    const contract = await createContract(domain); // the simulator sends subscription_contracts/create
    await stack.settled(domain, async () => (await mirrorOf(domain, contract.id))?.status === "ACTIVE");

    const platform = await platformFor(domain);
    expect(await platform.pauseContract(contract.id)).toMatchObject({ status: "PAUSED" });
    expect((await stack.control.getContract(domain, contract.id)).status).toBe("PAUSED");

    await eventually(async () => (await mirrorOf(domain, contract.id))?.status === "PAUSED");
    const events = await eventually(async () => {
      const list = await eventsOf(domain, contract.id);
      return list.length === 2 ? list : null;
    });
    expect(events.map((e) => e.type)).toEqual(["subscription.created", "subscription.paused"]);
    expect(events[1].data).toEqual({ contract_id: contract.id, customer_id: contract.customerId, previous_status: "ACTIVE", new_status: "PAUSED" });
  });

  it("a forged HMAC is refused with 401 and changes nothing", async () => {
    const { domain } = await stack.installShop();
    const contract = await createContract(domain);
    await eventually(async () => (await mirrorOf(domain, contract.id))?.status === "ACTIVE");
    const before = await eventsOf(domain, contract.id);

    const webhookId = randomUUID();
    const res = await postWebhook("subscription_contracts/update", domain, updatePayload(contract, "CANCELLED", 99), { webhookId, secret: "not-the-secret" });
    expect(res.status).toBe(401);
    expect(await prisma.inboundWebhook.findUnique({ where: { webhookId } })).toBeNull();
    expect(await queue(QUEUES.mirror).getJob(`shopify-${webhookId}`)).toBeUndefined();
    expect((await mirrorOf(domain, contract.id))?.status).toBe("ACTIVE");
    expect(await eventsOf(domain, contract.id)).toEqual(before);
  });

  it("a replayed webhook id is processed once, even when the copies arrive together", async () => {
    const { domain } = await stack.installShop();
    const contract = await createContract(domain);
    await eventually(async () => (await eventsOf(domain, contract.id)).length === 1);
    await stack.control.call("PATCH", `${stack.control.shop(domain)}/contracts/${encodeURIComponent(contract.id)}`, { status: "PAUSED" });
    await eventually(async () => (await eventsOf(domain, contract.id)).length === 2);

    // The same delivery three times (Shopify retries when it misses our 200): one event.
    const webhookId = randomUUID();
    const payload = updatePayload(contract, "CANCELLED", 1000);
    const answers = await Promise.all([1, 2, 3].map(() => postWebhook("subscription_contracts/update", domain, payload, { webhookId })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const again = await postWebhook("subscription_contracts/update", domain, payload, { webhookId });
    expect(again.status).toBe(200);

    await eventually(async () => (await eventsOf(domain, contract.id)).length === 3);
    await new Promise((r) => setTimeout(r, 300));
    const events = await eventsOf(domain, contract.id);
    expect(events.map((e) => e.type)).toEqual(["subscription.created", "subscription.paused", "subscription.cancelled"]);
    expect(await prisma.inboundWebhook.count({ where: { webhookId } })).toBe(1);
  });

  it("a late, older webhook announces nothing", async () => {
    const { domain } = await stack.installShop();
    const contract = await createContract(domain);
    await eventually(async () => (await eventsOf(domain, contract.id)).length === 1);
    const patch = (status: string) => stack.control.call("PATCH", `${stack.control.shop(domain)}/contracts/${encodeURIComponent(contract.id)}`, { status });
    await patch("PAUSED");
    await eventually(async () => (await eventsOf(domain, contract.id)).length === 2);
    const current = await stack.control.getContract(domain, contract.id);
    // An "ACTIVE" webhook from before the pause arrives now: revision 1 < the announced one.
    expect((await postWebhook("subscription_contracts/update", domain, updatePayload(contract, "ACTIVE", 1))).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect((await eventsOf(domain, contract.id)).map((e) => e.type)).toEqual(["subscription.created", "subscription.paused"]);
    expect(current.status).toBe("PAUSED");
  });

  it("another app's contract is never mirrored", async () => {
    const { domain } = await stack.installShop();
    const foreign = await createContract(domain, { app: "other" });
    const webhookId = randomUUID();
    expect((await postWebhook("subscription_contracts/update", domain, updatePayload(foreign, "ACTIVE", 5), { webhookId })).status).toBe(200);
    const job = await eventually(async () => {
      const j = await queue(QUEUES.mirror).getJob(`shopify-${webhookId}`);
      // Read again once completed: a job read just before it completed holds no return value yet.
      return (await j?.isCompleted()) ? queue(QUEUES.mirror).getJob(`shopify-${webhookId}`) : null;
    });
    expect(job?.returnvalue).toBe("ignored");
    expect(await mirrorOf(domain, foreign.id)).toBeNull();
  });

  it("app/uninstalled revokes every key, disables every endpoint and deletes every export in one transaction", async () => {
    const { domain, shopId } = await stack.installShop();
    const keys = await Promise.all(["a", "b"].map((name) => createKey({ shopId, name, scopes: ["read:plans"], kind: "SECRET" })));
    await prisma.webhookEndpoint.createMany({
      data: [1, 2].map((i) => ({ shopId, url: `https://hooks.example.com/${i}`, events: ["subscription.paused"], secretCiphertext: "x" })),
    });
    const dir = path.resolve(env().EXPORTS_DIR);
    mkdirSync(dir, { recursive: true });
    const storageKey = `${shopId}-export.csv`;
    writeFileSync(path.join(dir, storageKey), '\ufeff"a"\r\n');
    await prisma.exportJob.create({ data: { shopId, dataset: "plans", format: "csv", status: "ready", activeSlot: null, storageKey } });
    await prisma.exportJob.create({ data: { shopId, dataset: "subscriptions", format: "csv" } });
    const probe = () => fetch(`${stack.appUrl}/api/admin/v1/plans`, { headers: { Authorization: `Bearer ${keys[0].key}` } });
    expect((await probe()).status).not.toBe(401);

    // Make the last statement of the transaction fail: nothing before it may stick.
    const fn = `fail_export_delete_${shopId.replace(/\W/g, "")}`;
    await prisma.$executeRawUnsafe(
      `CREATE FUNCTION ${fn}() RETURNS trigger AS $$ BEGIN IF OLD.shop_id = '${shopId}' THEN RAISE EXCEPTION 'boom'; END IF; RETURN OLD; END $$ LANGUAGE plpgsql`,
    );
    await prisma.$executeRawUnsafe(`CREATE TRIGGER ${fn} BEFORE DELETE ON export_jobs FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
    try {
      const failed = await postWebhook("app/uninstalled", domain, { domain, myshopify_domain: domain });
      expect(failed.status).toBe(500);
      expect(await prisma.apiKey.count({ where: { shopId, revokedAt: { not: null } } })).toBe(0);
      expect(await prisma.webhookEndpoint.count({ where: { shopId, enabled: true } })).toBe(2);
      expect(await prisma.exportJob.count({ where: { shopId } })).toBe(2);
      expect((await prisma.shop.findUniqueOrThrow({ where: { id: shopId } })).installState).toBe("INSTALLED");
    } finally {
      await prisma.$executeRawUnsafe(`DROP TRIGGER ${fn} ON export_jobs`);
      await prisma.$executeRawUnsafe(`DROP FUNCTION ${fn}()`);
    }

    // The real uninstall, sent by the simulator.
    await stack.control.call("POST", `${stack.control.shop(domain)}/uninstall`);
    await stack.sim.idle(); // the app has answered the delivery: its work, files included, is done
    expect((await prisma.shop.findUniqueOrThrow({ where: { id: shopId } })).installState).toBe("UNINSTALLED");
    expect(await prisma.apiKey.count({ where: { shopId, revokedAt: null } })).toBe(0);
    expect(await prisma.webhookEndpoint.findMany({ where: { shopId }, select: { enabled: true, disabledReason: true } })).toEqual([
      { enabled: false, disabledReason: "uninstalled" },
      { enabled: false, disabledReason: "uninstalled" },
    ]);
    expect(await prisma.exportJob.count({ where: { shopId } })).toBe(0);
    expect(existsSync(path.join(dir, storageKey))).toBe(false);
    expect(await prisma.session.count({ where: { shop: domain } })).toBe(0);
    const refused = await probe();
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.code).toBe("credential_revoked");
  });

  it("a whole-shop reconcile job rebuilds the mirror from the platform, own contracts only", async () => {
    const { domain, shopId } = await stack.installShop();
    const bulk = await stack.control.call<{ ids: string[] }>("POST", `${stack.control.shop(domain)}/contracts/bulk`, {
      contracts: [...Array.from({ length: 130 }, () => ({})), ...Array.from({ length: 7 }, () => ({ app: "other" }))],
    });
    const job = await enqueue(QUEUES.mirror, "reconcile-shop", { domain });
    await eventually(async () => (await job.isCompleted()) || null, 30_000);
    const mirrored = await prisma.contract.findMany({ where: { shopId }, select: { contractGid: true } });
    expect(mirrored).toHaveLength(130);
    expect(new Set(mirrored.map((c) => c.contractGid))).toEqual(new Set(bulk.ids.slice(0, 130)));
  });

  describe("GDPR topics", () => {
    it("customers/redact erases that customer's records and nobody else's", async () => {
      const { domain, shopId } = await stack.installShop();
      const [mine, theirs] = [await createContract(domain), await createContract(domain)];
      await eventually(async () => (await prisma.contract.count({ where: { shopId } })) === 2);
      for (const c of [mine, theirs]) {
        await prisma.notificationPreference.create({ data: { shopId, customerGid: c.customerId, values: { reminders: false } } });
        await prisma.cancelReason.create({ data: { shopId, contractGid: c.id, customerGid: c.customerId, reason: "Too much coffee" } });
      }
      await stack.control.call("POST", `${stack.control.shop(domain)}/webhooks`, { topic: "customers/redact", customerId: mine.customerId });
      await eventually(async () => (await mirrorOf(domain, mine.id)) === null);
      expect(await prisma.notificationPreference.count({ where: { shopId, customerGid: mine.customerId } })).toBe(0);
      expect(await prisma.cancelReason.count({ where: { shopId, customerGid: mine.customerId } })).toBe(0);
      expect(await mirrorOf(domain, theirs.id)).not.toBeNull();
      expect(await prisma.cancelReason.count({ where: { shopId, customerGid: theirs.customerId } })).toBe(1);
    });

    it("customers/data_request is answered with a report of what the app holds", async () => {
      const { domain } = await stack.installShop();
      const c = await createContract(domain);
      await eventually(async () => mirrorOf(domain, c.id));
      await stack.control.call("POST", `${stack.control.shop(domain)}/webhooks`, { topic: "customers/data_request", customerId: c.customerId });
      const dir = path.resolve(env().EXPORTS_DIR, "data-requests", domain);
      const file = await eventually(async () => (existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith(".json")) : null));
      const report = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
      expect(report.customer_id).toBe(c.customerId);
      expect(report.subscriptions.map((s: { contractGid: string }) => s.contractGid)).toEqual([c.id]);
    });

    it("shop/redact erases the shop and everything it owns", async () => {
      const { domain, shopId } = await stack.installShop();
      await createContract(domain);
      await eventually(async () => (await prisma.contract.count({ where: { shopId } })) === 1);
      await stack.control.call("POST", `${stack.control.shop(domain)}/webhooks`, { topic: "shop/redact" });
      await eventually(async () => (await prisma.shop.findUnique({ where: { id: shopId } })) === null);
      expect(await prisma.contract.count({ where: { shopId } })).toBe(0);
      expect(await prisma.session.count({ where: { shop: domain } })).toBe(0);
    });
  });
});
