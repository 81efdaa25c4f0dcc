// Redis Cluster (docs/decisions/161-redis-cluster-client.md, 162-queue-hash-tags.md): run by the
// cluster pass (vitest.cluster.config.ts, TEST_REDIS_CLUSTER=1) against the run's local three-master
// cluster. Each queue is one hash tag, so the queues' keys sit on more than one master; a worker
// process runs jobs of every queue and neither it nor this process logs CROSSSLOT or MOVED; an
// untagged prefix is refused at start, and shown to fail on the cluster.
import { Cluster } from "ioredis";
import { Queue } from "bullmq";
import { env, parseEnv } from "../../../app/env.server";
import { QUEUES, assertTaggedPrefix, checkQueuePrefixes, enqueue, enqueueBulk, queue, queueConnection, queuePrefix } from "../../../app/infra/queues.server";
import { keySlot, redis, scanKeys, unlinkKeys } from "../../../app/infra/redis.server";
import { withLease } from "../../../app/infra/redis-lock.server";
import { keyUsage, recordKeyUsage } from "../../../app/domain/keys/usage.server";
import { ADMIN_BUCKET, takeToken } from "../../../app/http/rate-limit.server";
import { startProcess, startWorker } from "../../support/processes";
import { deleteRedisPrefix } from "../../support/redis-keys";
import { eventually } from "../../support/stack";

const onCluster = process.env.REDIS_CLUSTER_NODES !== undefined && process.env.REDIS_CLUSTER_NODES !== "";
const PROBLEMS = /CROSSSLOT|MOVED/;

/** The cluster client, ready (its master list is known once it is). */
async function cluster(): Promise<Cluster> {
  const c = queueConnection();
  if (!(c instanceof Cluster)) throw new Error("not a cluster client: run with vitest.cluster.config.ts");
  if (c.status !== "ready") await new Promise((resolve) => c.once("ready", resolve));
  return c;
}

/** host:port of the master serving `key`, from CLUSTER SLOTS. */
async function masterOf(c: Cluster, key: string): Promise<string> {
  const slot = keySlot(key);
  const range = (await c.cluster("SLOTS")).find(([from, to]) => slot >= from && slot <= to)!;
  return `${range[2][0]}:${range[2][1]}`;
}

describe("redis cluster", () => {
  beforeAll(() => {
    if (!onCluster) throw new Error("run by the cluster pass only: npm run test:cluster (vitest.cluster.config.ts)");
  });

  it("computes the slot of a key as the cluster does", async () => {
    const c = await cluster();
    for (const key of ["svc:rl:admin:shop", `{${env().REDIS_PREFIX}:mirror}:mirror:wait`, "a{b}c", "x{}y", "{}", "tag{}{x}"]) {
      expect(keySlot(key)).toBe(await c.cluster("KEYSLOT", key));
    }
  });

  it("puts each queue under its own hash tag, and the queues' keys on more than one master", async () => {
    const c = await cluster();
    const prefix = env().REDIS_PREFIX;
    expect(checkQueuePrefixes()).toEqual(Object.values(QUEUES).map((q) => `{${prefix}:${q}}`));
    // Delayed a year: the jobs only make keys; no worker of a later file takes them.
    const jobs = await Promise.all(Object.values(QUEUES).map((q) => queue(q).add("cluster-probe", {}, { delay: 365 * 86_400_000 })));
    try {
      const masters = new Map<string, Set<string>>();
      for (const node of c.nodes("master")) {
        const keys = await node.keys(`{${prefix}:*`);
        if (keys.length) masters.set(`${node.options.host}:${node.options.port}`, new Set(keys.map((k) => k.slice(0, k.indexOf("}") + 1))));
      }
      // Every queue's keys on exactly one master, and the queues over more than one.
      for (const q of Object.values(QUEUES)) {
        const holders = [...masters].filter(([, tags]) => tags.has(`{${prefix}:${q}}`)).map(([m]) => m);
        expect(holders).toEqual([await masterOf(c, `{${prefix}:${q}}`)]);
      }
      expect(masters.size).toBeGreaterThan(1);
    } finally {
      await Promise.all(jobs.map((j) => j.remove()));
    }
  });

  it("runs jobs, bulk enqueues, rate limits, leases, key usage and key deletion with no CROSSSLOT or MOVED", async () => {
    const seen: string[] = [];
    const stderr = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      seen.push(String(chunk));
      return stderr(chunk, ...rest);
    }) as typeof process.stderr.write;
    const worker = startWorker(QUEUES.sweeps, { LOG_LEVEL: "warn", WORKER_CONCURRENCY: "50" });
    try {
      await worker.ready;
      // One bulk enqueue of more jobs than one addBulk chunk; every job runs (an unknown shop's
      // box-cutoff job is a no-op).
      const added = await enqueueBulk(
        QUEUES.sweeps,
        Array.from({ length: 600 }, (_, i) => ({
          name: "box-cutoff" as const,
          data: { domain: `no-such-shop-${i}.myshopify.com` },
          opts: { jobId: `cluster-bulk-${i}` },
        })),
      );
      expect(added).toHaveLength(600);
      await eventually(async () => {
        const done = await queue(QUEUES.sweeps).getJobs(["completed"], 0, -1);
        return done.filter((j) => j.id?.startsWith("cluster-bulk-")).length === 600 || null;
      }, 60_000);
      const job = await enqueue(QUEUES.sweeps, "exports-requeue", {});
      await eventually(async () => (await job.isCompleted()) || null, 30_000);

      // The command connection's scripts, each on its own key's slot.
      expect((await takeToken(ADMIN_BUCKET, "cluster-shop")).allowed).toBe(true);
      expect(await withLease(`${env().REDIS_PREFIX}:lease:{cluster}`, async () => "held")).toBe("held");
      await recordKeyUsage("cluster-key", 200);
      await recordKeyUsage("cluster-key", 429, { now: new Date(Date.now() - 3 * 86_400_000) });
      expect((await keyUsage(["cluster-key", "other-key"])).get("cluster-key")).toEqual({ requests: 2, client_errors: 1, server_errors: 0, rate_limited: 1 });

      // Keys over many slots: found on every master, deleted one slot at a time.
      const c = redis();
      const keys = Array.from({ length: 50 }, (_, i) => `${env().REDIS_PREFIX}:spread:${i}`);
      await Promise.all(keys.map((k) => c.set(k, "1")));
      expect((await scanKeys(c, `${env().REDIS_PREFIX}:spread:*`)).sort()).toEqual([...keys].sort());
      expect(await unlinkKeys(c, keys)).toBe(50);
      expect(await deleteRedisPrefix(c, `${env().REDIS_PREFIX}:spread`)).toBe(0);
    } finally {
      await worker.stop();
      process.stderr.write = stderr;
    }
    expect(worker.output()).not.toMatch(PROBLEMS);
    expect(seen.join("")).not.toMatch(PROBLEMS);
  }, 120_000);

  it("refuses an untagged queue prefix, which the cluster would refuse with CROSSSLOT", async () => {
    expect(() => assertTaggedPrefix(env().REDIS_PREFIX)).toThrow(/not one hash tag/);
    expect(() => assertTaggedPrefix(`{${env().REDIS_PREFIX}}x`)).toThrow(/not one hash tag/);
    expect(assertTaggedPrefix(queuePrefix(QUEUES.mail))).toBe(`{${env().REDIS_PREFIX}:mail}`);
    // What the rule prevents: BullMQ with an untagged prefix cannot add a job on a cluster.
    const untagged = new Queue("mail", { connection: await cluster(), prefix: `${env().REDIS_PREFIX}-untagged` });
    untagged.on("error", () => undefined);
    await expect(untagged.add("send", {})).rejects.toThrow(/CROSSSLOT/);
    await untagged.close();
    // A braced REDIS_PREFIX would end every queue's tag early (all queues on one slot): refused
    // when the configuration is read, and a worker process stops at start saying why.
    expect(() => parseEnv({ ...process.env, REDIS_PREFIX: "{svc}" })).toThrow(/REDIS_PREFIX: must not contain \{ or \} with REDIS_CLUSTER_NODES/);
    const refused = startProcess("workers/main.ts", { REDIS_PREFIX: "{svc}", WORKER_QUEUES: QUEUES.mail });
    expect(await refused.exited()).not.toBe(0);
    expect(refused.output()).toMatch(/REDIS_PREFIX: must not contain \{ or \}/);
  });
});
