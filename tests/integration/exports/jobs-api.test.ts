// Export jobs over real HTTP (/docs#tag/Admin-API:-Exports): the in-process web server, real BullMQ workers, real
// files. Create -> queued -> running -> ready, the download's exact bytes and headers against
// golden files, every 400/403/409 rule, one job per shop under 20 parallel POSTs, and the list
// and catalogue.
import { createHash } from "node:crypto";
import { prisma } from "../../../app/db.server";
import { QUEUES, queue } from "../../../app/infra/queues.server";
import { useStack } from "../../support/stack";
import { exportsClient, exportsShop, finished, golden, insertGoldenContracts } from "../../support/exports";

// Worker round trips on a loaded machine: generous per-test time (no wall-clock assertions).
vi.setConfig({ testTimeout: 120_000 });

const stack = useStack();

const shopWithKey = (scopes?: string[], plan?: "PRO" | "FREE") => exportsShop(stack, scopes, plan);

async function download(url: string) {
  const res = await fetch(url);
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe("POST /exports", () => {
  it("answers 202 with the queued record, defaults csv and {}, then the job runs to ready", async () => {
    const { shopId, call } = await shopWithKey();
    await insertGoldenContracts(shopId);
    const created = await call("POST", "/exports", { dataset: "subscriptions" });
    expect(created.status).toBe(202);
    expect(created.json).toMatchObject({
      dataset: "subscriptions",
      format: "csv",
      filters: {},
      status: "queued",
      row_count: null,
      byte_size: null,
      started_at: null,
      ready_at: null,
      expires_at: null,
      download_url: null,
      error: null,
    });
    expect(created.json.id).toEqual(expect.any(String));
    expect(created.headers.get("x-service-request-id")).toMatch(/^req_/);

    const job = await finished(call, created.json.id);
    expect(job.status).toBe("ready");
    expect(job.row_count).toBe(4);
    expect(new Date(job.started_at!).getTime()).toBeGreaterThanOrEqual(new Date(job.created_at).getTime());
    expect(new Date(job.expires_at!).getTime() - new Date(job.ready_at!).getTime()).toBe(24 * 3600_000);
    expect(job.progress).toBe(4);
    expect(job.download_url!).toMatch(new RegExp(`^${stack.appUrl}/api/exports/${job.id}/download\\?expires=\\d+&signature=[0-9a-f]{64}$`));
    const urlExpiry = new Date(job.download_url_expires_at!).getTime();
    expect(urlExpiry - Date.now()).toBeGreaterThan(3500_000);
    expect(urlExpiry - Date.now()).toBeLessThanOrEqual(3600_000);
    expect(Number(new URL(job.download_url!).searchParams.get("expires")) * 1000).toBe(urlExpiry);

    const { res, bytes } = await download(job.download_url!);
    expect(res.status).toBe(200);
    expect(bytes.equals(golden("subscriptions.golden.csv"))).toBe(true);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const day = job.ready_at!.slice(0, 10);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="subscriptions-${day}.csv"`);
    expect(res.headers.get("content-length")).toBe(String(bytes.length));
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(job.byte_size).toBe(bytes.length);
    const sha = createHash("sha256").update(bytes).digest();
    expect(job.sha256).toBe(sha.toString("hex"));
    expect(res.headers.get("content-digest")).toBe(`sha-256=:${sha.toString("base64")}:`);
    expect(res.headers.get("digest")).toBe(`SHA-256=${sha.toString("base64")}`);
  });

  it("renders JSONL byte-exact, and CSV and JSONL of the same data agree on row_count", async () => {
    const { shopId, call } = await shopWithKey();
    await insertGoldenContracts(shopId);
    const jsonl = await finished(call, (await call("POST", "/exports", { dataset: "subscriptions", format: "jsonl" })).json.id);
    const { res, bytes } = await download(jsonl.download_url!);
    expect(bytes.equals(golden("subscriptions.golden.jsonl"))).toBe(true);
    expect(res.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="subscriptions-\d{4}-\d{2}-\d{2}\.jsonl"$/);
    const csv = await finished(call, (await call("POST", "/exports", { dataset: "subscriptions", format: "csv" })).json.id);
    expect(jsonl.row_count).toBe(4);
    expect(csv.row_count).toBe(jsonl.row_count);
  });

  it("applies the subscriptions filters (the list's), and stores them normalised", async () => {
    const { shopId, call } = await shopWithKey();
    await insertGoldenContracts(shopId);
    const created = await call("POST", "/exports", { dataset: "subscriptions", format: "jsonl", filters: { status: "paused", customer_id: "32" } });
    expect(created.status).toBe(202);
    expect(created.json.filters).toEqual({ status: "PAUSED", customer_id: "gid://shopify/Customer/32" });
    const job = await finished(call, created.json.id);
    const text = (await download(job.download_url!)).bytes.toString("utf8");
    expect(job.row_count).toBe(1);
    expect(JSON.parse(text.trim()).contract_id).toBe("gid://shopify/SubscriptionContract/9002");
  });

  it.each([
    [{ dataset: "orders" }, /dataset: Unknown dataset "orders"/],
    [{ dataset: "subscriptions", format: "xlsx" }, /format: Unknown format "xlsx"/],
    [{ dataset: "subscriptions", filters: { colour: "red" } }, /Unknown filter "colour"/],
    [{ dataset: "subscriptions", filters: { status: "DONE" } }, /"DONE"/],
    [{ dataset: "plans", filters: { status: "ACTIVE" } }, /plans dataset takes no filters \(got "status"\)/],
    [{ dataset: "subscriptions", extra: 1 }, /extra/],
    [{}, /dataset/],
  ])("refuses %j with 400 invalid_request naming the value", async (body, message) => {
    const { shopId, call } = await shopWithKey(["read:subscriptions", "read:plans"]);
    const r = await call("POST", "/exports", body);
    expect(r.status).toBe(400);
    expect(r.error?.code).toBe("invalid_request");
    expect(r.error?.message).toMatch(message);
    expect(await prisma.exportJob.count({ where: { shopId } })).toBe(0);
  });

  it("demands every scope of the dataset: migration without read:customers is 403 naming it", async () => {
    const { call } = await shopWithKey(["read:subscriptions"]);
    const r = await call("POST", "/exports", { dataset: "migration" });
    expect(r.status).toBe(403);
    expect(r.error?.code).toBe("insufficient_scope");
    expect(r.error?.message).toContain('"read:customers"');
    const plans = await call("POST", "/exports", { dataset: "plans" });
    expect(plans.error?.message).toContain('"read:plans"');
  });

  it("a shop below Pro gets plan_upgrade_required", async () => {
    const { call } = await shopWithKey(["read:subscriptions"], "FREE");
    const r = await call("POST", "/exports", { dataset: "subscriptions" });
    expect(r.status).toBe(403);
    expect(r.error?.code).toBe("plan_upgrade_required");
  });

  it("one queued-or-running job per shop: 20 parallel POSTs give exactly one 202, the others 409 naming it", async () => {
    const { shopId, call } = await shopWithKey();
    // The queue is paused so the accepted job stays queued for the whole burst.
    await queue(QUEUES.exports).pause();
    let answers;
    try {
      answers = await Promise.all(Array.from({ length: 20 }, () => call("POST", "/exports", { dataset: "subscriptions" })));
    } finally {
      await queue(QUEUES.exports).resume();
    }
    const accepted = answers.filter((a) => a.status === 202);
    expect(accepted).toHaveLength(1);
    const conflicts = answers.filter((a) => a.status === 409);
    expect(conflicts).toHaveLength(19);
    for (const c of conflicts) {
      expect(c.error?.code).toBe("export_in_progress");
      expect(c.error?.message).toContain(accepted[0].json.id);
    }
    expect(await prisma.exportJob.count({ where: { shopId } })).toBe(1);
    // Once it is ready the slot is free again.
    await finished(call, accepted[0].json.id);
    expect((await call("POST", "/exports", { dataset: "subscriptions" })).status).toBe(202);
  });

  it("ignores the Idempotency-Key header: the same key twice is never replayed", async () => {
    const { call } = await shopWithKey();
    const first = await call("POST", "/exports", { dataset: "subscriptions" }, { "Idempotency-Key": "same" });
    expect(first.status).toBe(202);
    await finished(call, first.json.id);
    const second = await call("POST", "/exports", { dataset: "subscriptions" }, { "Idempotency-Key": "same" });
    expect(second.status).toBe(202);
    expect(second.json.id).not.toBe(first.json.id);
    expect(second.headers.get("idempotency-replayed")).toBeNull();
  });
});

describe("GET /exports, /exports/{id}, /exports/datasets", () => {
  it("lists the shop's recent jobs newest first in the list envelope; another shop's job is 404", async () => {
    const a = await shopWithKey();
    const b = await shopWithKey();
    const first = await finished(a.call, (await a.call("POST", "/exports", { dataset: "subscriptions" })).json.id);
    const second = await finished(a.call, (await a.call("POST", "/exports", { dataset: "subscriptions", format: "jsonl" })).json.id);
    const list = await a.call("GET", "/exports?limit=1");
    expect(list.status).toBe(200);
    expect(list.json.data.map((j: { id: string }) => j.id)).toEqual([second.id]);
    const next = await a.call("GET", `/exports?limit=1&cursor=${encodeURIComponent(list.json.next_cursor!)}`);
    expect(next.json.data.map((j: { id: string }) => j.id)).toEqual([first.id]);
    expect(next.json.next_cursor).toBeNull();
    expect((await b.call("GET", "/exports")).json.data).toEqual([]);
    const foreign = await b.call("GET", `/exports/${first.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.error?.code).toBe("not_found");
  });

  it("mints a fresh signed URL on every GET", async () => {
    const { call } = await shopWithKey();
    const job = await finished(call, (await call("POST", "/exports", { dataset: "subscriptions" })).json.id);
    await new Promise((r) => setTimeout(r, 1100));
    const again = await call("GET", `/exports/${job.id}`);
    expect(again.json.download_url).not.toBe(job.download_url!);
    expect(new Date(again.json.download_url_expires_at!).getTime()).toBeGreaterThan(new Date(job.download_url_expires_at!).getTime());
  });

  it("a key without the dataset's scopes neither lists the job nor gets its URL", async () => {
    const { shopId, call } = await shopWithKey();
    const job = await finished(call, (await call("POST", "/exports", { dataset: "subscriptions" })).json.id);
    const plansOnly = await exportsClient(stack, shopId, ["read:plans"]);
    expect((await plansOnly("GET", "/exports")).json.data).toEqual([]);
    const r = await plansOnly("GET", `/exports/${job.id}`);
    expect(r.status).toBe(403);
    expect(r.error?.code).toBe("insufficient_scope");
  });

  it("the catalogue shows only what the key's scopes allow, each with its required scopes and columns", async () => {
    const { call } = await shopWithKey(["read:subscriptions", "read:plans"]);
    const r = await call("GET", "/exports/datasets");
    expect(r.status).toBe(200);
    expect(r.json.data.map((d: { name: string }) => d.name)).toEqual(["subscriptions", "plans"]);
    const subs = r.json.data[0];
    expect(subs.scopes).toEqual(["read:subscriptions"]);
    expect(subs.filters).toContain("view");
    expect(subs.columns[3]).toEqual({ label: "Plan group ID", key: "plan_group_id" });
    expect(r.json.data[1].filters).toEqual([]);
    const all = await exportsClient(stack, (await prisma.shop.findFirstOrThrow({ where: { apiKeys: { some: {} } }, orderBy: { createdAt: "desc" } })).id, [
      "read:subscriptions",
      "read:customers",
      "read:plans",
      "read:bundles",
      "read:mixmatch",
    ]);
    const everything = await all("GET", "/exports/datasets");
    expect(everything.json.data.map((d: { name: string }) => d.name)).toEqual(["subscriptions", "plans", "bundles", "mix_match", "migration"]);
    expect(everything.json.data[4].scopes).toEqual(["read:subscriptions", "read:customers"]);
    expect(everything.json.data[4].customer_data).toBe(true);
  });
});
