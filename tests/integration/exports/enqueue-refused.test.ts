// POST /exports when the queue refuses the job (/docs#tag/Admin-API:-Exports, failure code
// enqueue_failed), over real HTTP with a real Redis that refuses every write: a redis-server of
// this file's own (the worker's port + 57, inside its range) started with maxmemory far below what it already
// holds and the noeviction policy, so BullMQ's add fails with Redis's OOM error, as a full
// production Redis would answer. The job is failed with enqueue_failed and its slot is free (the
// next POST is not 409 export_in_progress). The rate limit falls back to its in-process bucket
// (docs/decisions/011-rate-limiter.md), so the requests themselves still pass.
vi.hoisted(() => {
  const port = 57 + Number(process.env.PORT ?? "22000");
  // vi.hoisted runs before the imports: node's own module through the CommonJS loader.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { execFileSync } = require("node:child_process") as { execFileSync: (file: string, args: string[]) => Buffer };
  execFileSync("redis-server", [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--save",
    "",
    "--appendonly",
    "no",
    "--maxmemory",
    "1",
    "--maxmemory-policy",
    "noeviction",
    "--daemonize",
    "yes",
    "--pidfile",
    `/tmp/svc-refusing-redis-${port}.pid`,
  ]);
  process.env.REDIS_URL = `redis://127.0.0.1:${port}/0`;
});
import { readFileSync } from "node:fs";
import { createKey } from "../../support/fixtures";
import { useStack } from "../../support/stack";

const stack = useStack({ workers: false }, 60_000);

afterAll(() => {
  const port = 57 + Number(process.env.PORT ?? "22000");
  const pid = Number(readFileSync(`/tmp/svc-refusing-redis-${port}.pid`, "utf8"));
  process.kill(pid);
});

it("a queue that refuses the job: failed with enqueue_failed, and the shop's export slot is free", async () => {
  const { shopId } = await stack.installShop();
  const { key } = await createKey({ shopId, scopes: ["read:subscriptions"] });
  const post = async () => {
    const res = await fetch(`${stack.appUrl}/api/admin/v1/exports`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ dataset: "subscriptions", format: "csv" }),
    });
    return { status: res.status, body: (await res.json()) as { id: string; status: string; error: { code: string } | null } };
  };
  const first = await post();
  expect(first.body).toMatchObject({ status: "failed", error: { code: "enqueue_failed" } });
  expect(first.status).toBe(202);
  const again = await fetch(`${stack.appUrl}/api/admin/v1/exports/${first.body.id}`, { headers: { Authorization: `Bearer ${key}` } });
  expect(await again.json()).toMatchObject({ id: first.body.id, status: "failed", error: { code: "enqueue_failed" } });
  // The slot was freed: the next create is tried (and refused by the queue again), not 409.
  const second = await post();
  expect(second.body).toMatchObject({ status: "failed", error: { code: "enqueue_failed" } });
  expect(second.body.id).not.toBe(first.body.id);
});
