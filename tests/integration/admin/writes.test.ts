// Contract tests for the six subscription writes and idempotency (/docs#tag/Admin-API:-Subscription-writes,
// "States and transitions", "Idempotency"), against the real platform simulator.
import { prisma } from "../../../app/db.server";
import type { RunningSimulator } from "../../../simulator/server";
import { ALL_READ_SCOPES, api, enc } from "../../support/admin-factories";
import { seedContract, seedWriteShop, sim, startTestSimulator } from "../../support/admin-sim";
import { createBundle, createContract, createKey } from "../../support/fixtures";

let simulator: RunningSimulator;
beforeAll(async () => {
  simulator = await startTestSimulator();
});
afterAll(async () => {
  await simulator?.close();
});

const W = ["write:subscriptions"];
const ops = (domain: string, name: string) => simulator.state.shops[domain].operations.filter((o) => o.operation === name && o.outcome === "ok").length;
const mirror = (shopId: string, gid: string) => prisma.contract.findFirstOrThrow({ where: { shopId, contractGid: gid }, include: { lines: true } });

describe("a write-only key", () => {
  it("performs all six writes and reads nothing", async () => {
    const s = await seedWriteShop(simulator.url);
    const c = await seedContract(simulator.url, s);
    const key = (await createKey({ shopId: s.shop.id, name: "admin test", scopes: W })).key;
    const base = `/subscriptions/${enc(c.gid)}` as const;

    const pause = await api(key, "POST", `${base}/pause`);
    expect(pause.status).toBe(200);
    expect(pause.json).toMatchObject({ id: c.gid, contract_id: c.gid, action: "pause", previous_status: "ACTIVE", status: "PAUSED", line: null });

    const resume = await api(key, "POST", `${base}/resume`);
    expect(resume.json).toMatchObject({ action: "resume", previous_status: "PAUSED", status: "ACTIVE" });

    const before = (await mirror(s.shop.id, c.gid)).nextBillingAt!;
    const skip = await api(key, "POST", `${base}/skip`);
    expect(skip.status).toBe(200);
    const expected = new Date(before);
    expected.setUTCMonth(expected.getUTCMonth() + 1);
    expect(skip.json).toMatchObject({ action: "skip", status: "ACTIVE", next_billing_at: expected.toISOString() });

    const when = new Date(Date.now() + 40 * 86_400_000).toISOString();
    const reschedule = await api(key, "POST", `${base}/reschedule`, { body: { next_billing_at: when } });
    expect(reschedule.status).toBe(200);
    expect(reschedule.json).toMatchObject({ action: "reschedule", next_billing_at: when });

    const line = await api(key, "PATCH", `${base}/lines/${enc(c.lineGid)}`, { body: { quantity: 3 } });
    expect(line.status).toBe(200);
    expect(line.json).toMatchObject({ action: "update_line", line: { line_id: c.lineGid, quantity: 3 } });
    expect((await mirror(s.shop.id, c.gid)).lines[0].quantity).toBe(3);

    const cancel = await api(key, "POST", `${base}/cancel`);
    expect(cancel.json).toMatchObject({ action: "cancel", previous_status: "ACTIVE", status: "CANCELLED" });
    expect((await mirror(s.shop.id, c.gid)).status).toBe("CANCELLED");

    for (const r of [await api(key, "GET", "/subscriptions"), await api(key, "GET", base)]) {
      expect(r.status).toBe(403);
      expect(r.error?.code).toBe("insufficient_scope");
    }
    // Writes record no event: the inbound contract webhook does.
    expect(await prisma.event.count({ where: { shopId: s.shop.id } })).toBe(0);
  });

  it("a read-only key cannot write (403, key not spent)", async () => {
    const s = await seedWriteShop(simulator.url);
    const c = await seedContract(simulator.url, s);
    const reader = (await createKey({ shopId: s.shop.id, name: "admin test", scopes: ALL_READ_SCOPES })).key;
    const r = await api(reader, "POST", `/subscriptions/${enc(c.gid)}/pause`, { idempotencyKey: "same" });
    expect(r.status).toBe(403);
    expect(r.error?.message).toContain("write:subscriptions");
    const writer = (await createKey({ shopId: s.shop.id, name: "admin test", scopes: W })).key;
    expect((await api(writer, "POST", `/subscriptions/${enc(c.gid)}/pause`, { idempotencyKey: "same" })).status).toBe(200);
  });
});

describe("states and transitions", () => {
  it("pause on a paused contract succeeds with previous_status PAUSED", async () => {
    const s = await seedWriteShop(simulator.url);
    const c = await seedContract(simulator.url, s, { status: "PAUSED" });
    const key = (await createKey({ shopId: s.shop.id, name: "admin test", scopes: W })).key;
    const r = await api(key, "POST", `/subscriptions/${enc(c.gid)}/pause`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ previous_status: "PAUSED", status: "PAUSED" });
  });

  it("cancel on a cancelled contract is 409 state_conflict", async () => {
    const s = await seedWriteShop(simulator.url);
    const c = await seedContract(simulator.url, s, { status: "CANCELLED" });
    const key = (await createKey({ shopId: s.shop.id, name: "admin test", scopes: W })).key;
    const r = await api(key, "POST", `/subscriptions/${enc(c.gid)}/cancel`);
    expect(r.status).toBe(409);
    expect(r.error?.code).toBe("state_conflict");
  });

  it("skip and reschedule on a non-active contract are 409 state_conflict", async () => {
    const s = await seedWriteShop(simulator.url);
    const c = await seedContract(simulator.url, s, { status: "PAUSED" });
    const key = (await createKey({ shopId: s.shop.id, name: "admin test", scopes: W })).key;
    expect((await api(key, "POST", `/subscriptions/${enc(c.gid)}/skip`)).error?.code).toBe("state_conflict");
    const later = new Date(Date.now() + 9 * 86_400_000).toISOString();
    expect((await api(key, "POST", `/subscriptions/${enc(c.gid)}/reschedule`, { body: { next_billing_at: later } })).error?.code).toBe("state_conflict");
  });

  it("a simulator refusal naming a field is 400 invalid_request; without a field 409", async () => {
    const s = await seedWriteShop(simulator.url);
    const c = await seedContract(simulator.url, s);
    const key = (await createKey({ shopId: s.shop.id, name: "admin test", scopes: W })).key;
    await sim(simulator.url, "POST", `/shops/${s.shop.domain}/failures`, {
      operation: "subscriptionContractSetNextBillingDate",
      userErrors: [{ field: ["date"], message: "Date is outside the allowed window", code: "INVALID" }],
    });
    const later = new Date(Date.now() + 9 * 86_400_000).toISOString();
    const r = await api(key, "POST", `/subscriptions/${enc(c.gid)}/reschedule`, { body: { next_billing_at: later }, idempotencyKey: "refused-1" });
    expect(r.status).toBe(400);
    expect(r.error?.code).toBe("invalid_request");
    expect(r.error?.message).toContain("date");
    // The failure is the outcome under that key: replayed verbatim, nothing runs again.
    const again = await api(key, "POST", `/subscriptions/${enc(c.gid)}/reschedule`, { body: { next_billing_at: later }, idempotencyKey: "refused-1" });
    expect(again.status).toBe(400);
    expect(again.text).toBe(r.text);
    expect(again.headers.get("idempotency-replayed")).toBe("true");

    await sim(simulator.url, "POST", `/shops/${s.shop.domain}/failures`, {
      operation: "subscriptionContractPause",
      userErrors: [{ field: null, message: "Contract is being billed", code: "INVALID" }],
    });
    const p = await api(key, "POST", `/subscriptions/${enc(c.gid)}/pause`);
    expect(p.status).toBe(409);
    expect(p.error?.code).toBe("state_conflict");
  });

  it("a 500 is stored and replayed byte for byte", async () => {
    const s = await seedWriteShop(simulator.url);
    const c = await seedContract(simulator.url, s);
    const key = (await createKey({ shopId: s.shop.id, name: "admin test", scopes: W })).key;
    await sim(simulator.url, "POST", `/shops/${s.shop.domain}/failures`, { operation: "subscriptionContractCancel", status: 503 });
    const r = await api(key, "POST", `/subscriptions/${enc(c.gid)}/cancel`, { idempotencyKey: "boom" });
    expect(r.status).toBe(500);
    expect(r.error?.code).toBe("internal_error");
    const again = await api(key, "POST", `/subscriptions/${enc(c.gid)}/cancel`, { idempotencyKey: "boom" });
    expect(again.status).toBe(500);
    expect(again.text).toBe(r.text);
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(again.headers.get("x-service-request-id")).toBe(r.error?.request_id);
    expect(ops(s.shop.domain, "subscriptionContractCancel")).toBe(0);
  });

  it("when the reconcile fails the write still answers 200 with the pre-write mirror values", async () => {
    const s = await seedWriteShop(simulator.url);
    const c = await seedContract(simulator.url, s);
    const key = (await createKey({ shopId: s.shop.id, name: "admin test", scopes: W })).key;
    const before = await mirror(s.shop.id, c.gid);
    await sim(simulator.url, "POST", `/shops/${s.shop.domain}/failures`, { operation: "subscriptionContract", status: 401 });
    const r = await api(key, "POST", `/subscriptions/${enc(c.gid)}/pause`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ previous_status: "ACTIVE", status: "ACTIVE", next_billing_at: before.nextBillingAt!.toISOString() });
    expect(simulator.state.shops[s.shop.domain].contracts[c.gid].status).toBe("PAUSED");
  });
});

describe("anchored plans", () => {
  it("skip moves to the next anchor and reschedule to the first anchor on or after the date", async () => {
    const s = await seedWriteShop(simulator.url, { anchored: { anchorDay: 15, anchorMonths: [3, 9] } });
    const now = new Date();
    // A current charge on an anchor: the next 15 March / 15 September after now.
    const y = now.getUTCFullYear();
    const candidates = [Date.UTC(y, 2, 15, 9), Date.UTC(y, 8, 15, 9), Date.UTC(y + 1, 2, 15, 9), Date.UTC(y + 1, 8, 15, 9)].filter(
      (t) => t > now.getTime() + 86_400_000,
    );
    const current = new Date(candidates[0]);
    const c = await seedContract(simulator.url, s, { nextBillingDate: current.toISOString() });
    const key = (await createKey({ shopId: s.shop.id, name: "admin test", scopes: W })).key;
    const skip = await api(key, "POST", `/subscriptions/${enc(c.gid)}/skip`);
    expect(skip.status).toBe(200);
    expect(skip.json.next_billing_at).toBe(new Date(candidates[1]).toISOString());

    // Reschedule to the 20th of a month: lands on the next anchor (15 Mar or 15 Sep) after it.
    const wanted = new Date(Date.UTC(y + 1, 3, 20, 9)); // 20 April next year -> 15 September next year
    const r = await api(key, "POST", `/subscriptions/${enc(c.gid)}/reschedule`, { body: { next_billing_at: wanted.toISOString() } });
    expect(r.status).toBe(200);
    expect(r.json.next_billing_at).toBe(new Date(Date.UTC(y + 1, 8, 15, 9)).toISOString());
    expect(simulator.state.shops[s.shop.domain].contracts[c.gid].nextBillingDate).toBe(r.json.next_billing_at);
  });
});

describe("validation before the mutation does not spend the key", () => {
  it("reschedule: unparseable, past and beyond five years are 400; then the same key succeeds", async () => {
    const s = await seedWriteShop(simulator.url);
    const c = await seedContract(simulator.url, s);
    const key = (await createKey({ shopId: s.shop.id, name: "admin test", scopes: W })).key;
    const path = `/subscriptions/${enc(c.gid)}/reschedule` as const;
    const bad = ["next week", "2020-01-01T00:00:00Z", new Date(Date.now() + 6 * 365 * 86_400_000).toISOString(), 12345, null];
    for (const v of bad) {
      const r = await api(key, "POST", path, { body: { next_billing_at: v }, idempotencyKey: "fix-me" });
      expect(r.status, String(v)).toBe(400);
      expect(r.error?.code).toBe("invalid_request");
    }
    const good = new Date(Date.now() + 20 * 86_400_000).toISOString();
    const ok = await api(key, "POST", path, { body: { next_billing_at: good }, idempotencyKey: "fix-me" });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("idempotency-replayed")).toBeNull();
  });

  it("a contract that is not yours is 404 and does not spend the key", async () => {
    const s = await seedWriteShop(simulator.url);
    const other = await seedWriteShop(simulator.url);
    const theirs = await seedContract(simulator.url, other);
    const foreignApp = await createContract(s.shop.id, { createdByService: false });
    const mine = await seedContract(simulator.url, s);
    const key = (await createKey({ shopId: s.shop.id, name: "admin test", scopes: W })).key;
    for (const g of [theirs.gid, foreignApp.contractGid, "gid://shopify/SubscriptionContract/999999999"]) {
      const r = await api(key, "POST", `/subscriptions/${enc(g)}/pause`, { idempotencyKey: "k1" });
      expect(r.status).toBe(404);
      expect(r.error?.code).toBe("not_found");
    }
    expect(ops(other.shop.domain, "subscriptionContractPause")).toBe(0);
    // Same key, now a different (valid) request: the key was never spent.
    expect((await api(key, "POST", `/subscriptions/${enc(mine.gid)}/pause`, { idempotencyKey: "k1" })).status).toBe(200);
  });

  it("line edits: nothing to change, quantity < 1, non-variant id, unknown line, variant outside the group", async () => {
    const s = await seedWriteShop(simulator.url);
    const c = await seedContract(simulator.url, s);
    const key = (await createKey({ shopId: s.shop.id, name: "admin test", scopes: W })).key;
    const path = `/subscriptions/${enc(c.gid)}/lines/${enc(c.lineGid)}` as const;
    const cases: Array<[unknown, number]> = [
      [{}, 400],
      [{ quantity: 0 }, 400],
      [{ quantity: 1.5 }, 400],
      [{ variant_id: "gid://shopify/Product/1" }, 400],
      [{ variant_id: s.variants.outside }, 400],
    ];
    for (const [body, status] of cases) {
      const r = await api(key, "PATCH", path, { body, idempotencyKey: "line-k" });
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.error?.code).toBe("invalid_request");
    }
    const unknownLine = await api(key, "PATCH", `/subscriptions/${enc(c.gid)}/lines/${enc("gid://shopify/SubscriptionLine/1")}`, {
      body: { quantity: 2 },
      idempotencyKey: "line-k",
    });
    expect(unknownLine.status).toBe(404);
    expect(ops(s.shop.domain, "subscriptionDraftCommit")).toBe(0);
    // The group's other variant (known to the mirror through the group's bundle catalogue).
    const bundle = await createBundle({ shopId: s.shop.id, groupId: s.localGroup.id, title: "B", kind: "REGULAR" });
    await prisma.bundleBox.create({
      data: { bundleId: bundle.id, period: "2026-01", items: { create: [{ variantGid: s.variants.alsoInGroup, productTitle: "Coffee", priceCents: 2000 }] } },
    });
    const swap = await api(key, "PATCH", path, { body: { variant_id: s.variants.alsoInGroup, quantity: 2 }, idempotencyKey: "line-k" });
    expect(swap.status).toBe(200);
    expect(swap.json.line).toMatchObject({ variant_id: s.variants.alsoInGroup, quantity: 2, selling_plan_id: s.planGid, price: { amount: "20.00" } });
    expect(ops(s.shop.domain, "subscriptionDraftCommit")).toBe(1);
  });
});

describe("idempotency", () => {
  it("missing or malformed Idempotency-Key is 400 invalid_request", async () => {
    const s = await seedWriteShop(simulator.url);
    const c = await seedContract(simulator.url, s);
    const key = (await createKey({ shopId: s.shop.id, name: "admin test", scopes: W })).key;
    const p = `/subscriptions/${enc(c.gid)}/pause` as const;
    for (const k of [null, "x".repeat(256), "naïve", "tab\there"]) {
      const r = await api(key, "POST", p, { idempotencyKey: k });
      expect(r.status).toBe(400);
      expect(r.error?.code).toBe("invalid_request");
    }
    expect(ops(s.shop.domain, "subscriptionContractPause")).toBe(0);
    expect((await api(key, "POST", p, { idempotencyKey: "x".repeat(255) })).status).toBe(200);
  });

  it("replays byte for byte; key order ignored; a different request under the key is 409", async () => {
    const s = await seedWriteShop(simulator.url);
    const c = await seedContract(simulator.url, s);
    const key = (await createKey({ shopId: s.shop.id, name: "admin test", scopes: W })).key;
    const path = `/subscriptions/${enc(c.gid)}/lines/${enc(c.lineGid)}` as const;
    const first = await api(key, "PATCH", path, { rawBody: '{"quantity":4,"variant_id":null}', idempotencyKey: "same" });
    expect(first.status).toBe(200);
    const replay = await api(key, "PATCH", path, { rawBody: '{ "variant_id": null, "quantity": 4 }', idempotencyKey: "same" });
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(ops(s.shop.domain, "subscriptionDraftCommit")).toBe(1);
    const different = await api(key, "PATCH", path, { body: { quantity: 5 }, idempotencyKey: "same" });
    expect(different.status).toBe(409);
    expect(different.error?.code).toBe("idempotency_conflict");
    // Per shop and key, not per path.
    const otherPath = await api(key, "POST", `/subscriptions/${enc(c.gid)}/pause`, { idempotencyKey: "same" });
    expect(otherPath.error?.code).toBe("idempotency_conflict");
    // Another shop may use the same key.
    const s2 = await seedWriteShop(simulator.url);
    const c2 = await seedContract(simulator.url, s2);
    const key2 = (await createKey({ shopId: s2.shop.id, name: "admin test", scopes: W })).key;
    expect((await api(key2, "POST", `/subscriptions/${enc(c2.gid)}/pause`, { idempotencyKey: "same" })).status).toBe(200);
  });

  it("50 parallel identical writes under one key run the mutation exactly once", async () => {
    const s = await seedWriteShop(simulator.url);
    const c = await seedContract(simulator.url, s);
    const key = (await createKey({ shopId: s.shop.id, name: "admin test", scopes: W })).key;
    const when = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        api(key, "POST", `/subscriptions/${enc(c.gid)}/reschedule`, { body: { next_billing_at: when }, idempotencyKey: "parallel" }),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    const conflicts = answers.filter((a) => a.status === 409);
    expect(ok.length + conflicts.length).toBe(50);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const a of conflicts) expect(a.error?.code).toBe("idempotency_conflict");
    expect(ok.filter((a) => a.headers.get("idempotency-replayed") === null)).toHaveLength(1);
    for (const a of ok) expect(a.text).toBe(ok[0].text);
    expect(ops(s.shop.domain, "subscriptionContractSetNextBillingDate")).toBe(1);
    // After the dust settles every retry is a replay.
    const later = await api(key, "POST", `/subscriptions/${enc(c.gid)}/reschedule`, { body: { next_billing_at: when }, idempotencyKey: "parallel" });
    expect(later.headers.get("idempotency-replayed")).toBe("true");
    expect(later.text).toBe(ok[0].text);
  });
});
