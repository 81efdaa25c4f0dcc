// Rules of the contract (/docs#section/Conventions and the surfaces' sections) that had no test
// through the real server, each here over real HTTP against the built app and the simulator:
// resume of a FAILED contract; idempotency keys forgotten after 24 h when a request arrives (not
// only when the sweep runs); reads and /webhooks/endpoints ignore Idempotency-Key; the Admin
// bucket shared by two keys of a shop and by export calls; a body of exactly 1 MiB accepted;
// reinstalling does not bring back revoked keys; a plan anchored before a downgrade still reads
// anchored; the Customer API offers no pause, resume, cancel, skip or address route.
import { randomUUID } from "node:crypto";
import { prisma } from "../../../app/db.server";
import { recordInstallation, setAppPlan } from "../../../app/domain/shop/lifecycle.server";
import { createKey, createPlanGroup } from "../../support/fixtures";
import { seedContract, seedWriteShop } from "../../support/admin-sim";
import { seedCustomerShop } from "../../support/customer-factories";
import { client } from "../customer/helpers";
import { useStack } from "../../support/stack";

vi.hoisted(() => {
  // Endpoint URLs are public https; this file creates some (never delivered: no worker runs).
  process.env.WEBHOOK_ALLOWED_PRIVATE_CIDRS = "127.0.0.1/32";
});

const stack = useStack({ workers: false }, 60_000);
const enc = encodeURIComponent;

type Res = { status: number; headers: Headers; body: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
function admin(key: string) {
  return async (method: string, path: string, opts: { body?: string | object; idempotencyKey?: string } = {}): Promise<Res> => {
    const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
    if (opts.body !== undefined) headers["Content-Type"] = "application/json";
    if (opts.idempotencyKey) headers["Idempotency-Key"] = opts.idempotencyKey;
    const res = await fetch(`${stack.appUrl}/api/admin/v1${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : {} };
  };
}

async function writeShop() {
  const s = await seedWriteShop(stack.sim.url);
  const { key } = await createKey({ shopId: s.shop.id, scopes: ["read:subscriptions", "write:subscriptions"] });
  return { s, call: admin(key) };
}

describe("subscription writes", () => {
  it("resume returns a FAILED contract to ACTIVE", async () => {
    const { s, call } = await writeShop();
    const c = await seedContract(stack.sim.url, s, { status: "FAILED" });
    const res = await call("POST", `/subscriptions/${enc(c.gid)}/resume`, { idempotencyKey: randomUUID() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ contract_id: c.gid, action: "resume", previous_status: "FAILED", status: "ACTIVE" });
    const sim = await stack.control.call<{ status: string }>("GET", `${stack.control.shop(s.shop.domain)}/contracts/${enc(c.gid)}`);
    expect(sim.status).toBe("ACTIVE");
  });

  it("an Idempotency-Key older than 24 h is forgotten when the retry arrives, before any sweep", async () => {
    const { s, call } = await writeShop();
    const c = await seedContract(stack.sim.url, s);
    const key = randomUUID();
    const first = await call("POST", `/subscriptions/${enc(c.gid)}/pause`, { idempotencyKey: key });
    expect(first.status).toBe(200);
    // Within 24 h: a different request under the key is a conflict.
    expect((await call("POST", `/subscriptions/${enc(c.gid)}/resume`, { idempotencyKey: key })).body.error?.code).toBe("idempotency_conflict");
    // 24 h and a second later (the row is still there: no sweep ran) the key names nothing.
    await prisma.$executeRaw`UPDATE idempotency_records SET created_at = now() - interval '24 hours 1 second' WHERE shop_id = ${s.shop.id} AND key = ${key}`;
    const later = await call("POST", `/subscriptions/${enc(c.gid)}/resume`, { idempotencyKey: key });
    expect(later.status, JSON.stringify(later.body)).toBe(200);
    expect(later.headers.get("idempotency-replayed")).toBeNull();
    expect(later.body).toMatchObject({ action: "resume", previous_status: "PAUSED", status: "ACTIVE" });
  });
});

describe("Idempotency-Key is ignored where the contract says so", () => {
  it("reads never replay, and a retried endpoint create makes a second endpoint with its own secret", async () => {
    const { shopId } = await stack.installShop();
    const { key } = await createKey({ shopId, scopes: ["read:subscriptions", "manage:webhooks"] });
    const call = admin(key);
    const idem = randomUUID();
    for (let i = 0; i < 2; i++) {
      const read = await call("GET", "/subscriptions", { idempotencyKey: idem });
      expect(read.status).toBe(200);
      expect(read.headers.get("idempotency-replayed")).toBeNull();
    }
    const body = { url: "https://93.184.216.34/hooks", events: ["subscription.paused"] };
    const a = await call("POST", "/webhooks/endpoints", { body, idempotencyKey: idem });
    const b = await call("POST", "/webhooks/endpoints", { body, idempotencyKey: idem });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.headers.get("idempotency-replayed")).toBeNull();
    expect(a.body.id).not.toBe(b.body.id);
    expect(a.body.secret).not.toBe(b.body.secret);
    expect((await call("GET", "/webhooks/endpoints")).body.data).toHaveLength(2);
  });
});

describe("the Admin bucket", () => {
  it("is one per shop: two keys and the export calls draw from it, another shop's keys do not", async () => {
    const { shopId } = await stack.installShop();
    const one = admin((await createKey({ shopId, scopes: ["read:subscriptions"] })).key);
    const two = admin((await createKey({ shopId, scopes: ["read:subscriptions"] })).key);
    const other = admin((await createKey({ shopId: (await stack.installShop()).shopId, scopes: ["read:subscriptions"] })).key);
    // Burst 120: spent by the two keys in turn until the bucket refuses.
    let spent = 0;
    for (;;) {
      const res = await (spent % 2 ? two : one)("GET", "/subscriptions?limit=1");
      if (res.status === 429) break;
      expect(res.status).toBe(200);
      spent++;
      expect(spent).toBeLessThan(140);
    }
    expect(spent).toBeGreaterThanOrEqual(120);
    const third = await two("GET", "/subscriptions?limit=1");
    expect([third.status, third.body.error?.code]).toEqual([429, "rate_limited"]);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    // The bucket refills while the test runs (a token a second at 60 a minute): on a
    // loaded machine one can land between the refusal above and the export call. So the bucket is
    // emptied again right before each call, and the call must be refused on one of five tries; an
    // export path that did not draw from the bucket would never be.
    for (const [method, path, body] of [
      ["POST", "/exports", { dataset: "subscriptions", format: "csv" }],
      ["GET", "/exports", undefined],
    ] as const) {
      const seen: unknown[] = [];
      for (let tries = 0; tries < 5; tries++) {
        for (let n = 0; n < 20 && (await two("GET", "/subscriptions?limit=1")).status !== 429; n++);
        const res = await one(method, path, { body });
        seen.push([res.status, res.body.error?.code]);
        if (res.status === 429) break;
      }
      expect(seen.at(-1), `${method} ${path}: ${JSON.stringify(seen)}`).toEqual([429, "rate_limited"]);
    }
    expect((await other("GET", "/subscriptions?limit=1")).status).toBe(200);
  });

  it("an export call spends a token of the same bucket as the reads", async () => {
    const { shopId } = await stack.installShop();
    const call = admin((await createKey({ shopId, scopes: ["read:subscriptions"] })).key);
    const remaining = async (res: Res) => Number(res.headers.get("x-service-ratelimit-remaining"));
    const a = await remaining(await call("GET", "/subscriptions?limit=1"));
    const b = await remaining(await call("GET", "/exports"));
    const c = await remaining(await call("POST", "/exports", { body: { dataset: "subscriptions", format: "csv" } }));
    expect([a - b, b - c]).toEqual([1, 1]);
  });
});

describe("request bodies", () => {
  it("a body of exactly 1 MiB is accepted; one byte more is 400 invalid_request", async () => {
    const { shopId } = await stack.installShop();
    const call = admin((await createKey({ shopId, scopes: ["manage:webhooks"] })).key);
    const json = JSON.stringify({ url: "https://93.184.216.34/big", events: ["subscription.paused"] });
    const padded = (size: number) => json + " ".repeat(size - Buffer.byteLength(json));
    const ok = await call("POST", "/webhooks/endpoints", { body: padded(1024 * 1024) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const over = await call("POST", "/webhooks/endpoints", { body: padded(1024 * 1024 + 1) });
    expect([over.status, over.body.error?.code]).toEqual([400, "invalid_request"]);
  });
});

describe("install lifecycle", () => {
  it("reinstalling does not bring back the keys the uninstall revoked", async () => {
    const { domain, shopId } = await stack.installShop();
    const call = admin((await createKey({ shopId, scopes: ["read:subscriptions"] })).key);
    expect((await call("GET", "/subscriptions")).status).toBe(200);
    await stack.control.call("POST", `${stack.control.shop(domain)}/uninstall`);
    await stack.settled(domain, async () => (await prisma.shop.findUniqueOrThrow({ where: { id: shopId } })).installState === "UNINSTALLED");
    const grant = await stack.control.installShop({ shop: domain });
    await recordInstallation(domain, grant.accessToken, grant.scope);
    expect((await prisma.shop.findUniqueOrThrow({ where: { id: shopId } })).installState).toBe("INSTALLED");
    const after = await call("GET", "/subscriptions");
    expect([after.status, after.body.error?.code]).toEqual([401, "credential_revoked"]);
  });

  it("a plan anchored while on Pro still reads anchored after a downgrade and re-upgrade", async () => {
    const { domain, shopId } = await stack.installShop();
    const call = admin((await createKey({ shopId, scopes: ["read:plans"] })).key);
    await createPlanGroup(shopId, {
      scheduleMode: "ANCHORED",
      anchorDay: 15,
      anchorMonths: [],
      cutoffDays: 3,
      preAnchorBehavior: "NEXT",
      scheduleLabel: "Ships the 15th",
    });
    await setAppPlan(domain, "FREE");
    expect((await call("GET", "/plans")).body.error?.code).toBe("plan_upgrade_required");
    await setAppPlan(domain, "PRO");
    const plans = await call("GET", "/plans");
    expect(plans.status).toBe(200);
    expect(plans.body.data[0].schedule).toMatchObject({ mode: "anchored", anchor_day: 15 });
  });
});

describe("the Customer API leaves pause, resume, cancel, skip and the address to the platform", () => {
  it("has no such route: 404 not_found for each, with a valid session", async () => {
    const s = await seedCustomerShop(stack.control, stack.installShop);
    const api = client(stack, () => s);
    const session = await api.sessionFor(s.customers.a);
    const contract = enc(s.contracts.a.id);
    for (const action of ["pause", "resume", "cancel", "skip", "address", "delivery-address", "activate"]) {
      for (const method of ["POST", "PATCH", "PUT"]) {
        const res = await api.call(method, `/subscriptions/${contract}/${action}`, { session, body: {} });
        expect([method, action, res.status, res.body.error?.code]).toEqual([method, action, 404, "not_found"]);
      }
    }
    // The contract itself takes no write either.
    const whole = await api.call("PATCH", `/subscriptions/${contract}`, { session, body: { status: "PAUSED" } });
    expect([404, 405]).toContain(whole.status);
  });
});
