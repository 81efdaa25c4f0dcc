// Queue jobs have one payload type per job, shared by producer and worker
// (docs/decisions/040-typed-jobs.md). The type checks below run under `tsc --noEmit` (npm test's
// typecheck step): a `@ts-expect-error` that stops erroring fails the typecheck. The source scan
// keeps every producer on `enqueue` and every processor free of casts.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { PAYLOADS_ARE_JSON, QUEUES, type JobData, type QueueJobs, type TypedJob, enqueue, enqueueBulk } from "../../../app/infra/queues.server";
import { PROCESSORS } from "../../../workers/processors";
import type { ContractWebhook } from "../../../app/infra/job-payloads";

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "node_modules" || name === "build" ? [] : files(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

describe("typed jobs", () => {
  it("every queue in QueueJobs has a name in QUEUES and a processor for each of its jobs", () => {
    expect(Object.keys(QUEUES).sort()).toEqual(Object.keys(PROCESSORS).sort());
    for (const [name, value] of Object.entries(QUEUES)) expect(value).toBe(name);
    expect(PAYLOADS_ARE_JSON).toBe(true);
  });

  it("producers and processors agree on each payload (compile-time)", () => {
    expectTypeOf<JobData<"mirror", "sync-contract">>().toEqualTypeOf<ContractWebhook>();
    expectTypeOf<TypedJob<"exports", "render">["data"]>().toEqualTypeOf<{ exportId: string }>();
    expectTypeOf<keyof QueueJobs["sweeps"]>().toEqualTypeOf<
      | "daily-sweep"
      | "reconcile-all"
      | "exports-requeue"
      | "imports-requeue"
      | "webhooks-requeue"
      | "mail-requeue"
      | "card-expiry"
      | "box-reminder"
      | "box-cutoff-tick"
      | "box-cutoff"
      | "gifts-tick"
      | "winback-tick"
      | "winback-run"
    >();
    // Never called: these lines exist for the type checker.
    const mistakes = () => {
      // @ts-expect-error a misspelt field is refused at the producer
      void enqueue(QUEUES.mirror, "reconcile-shop", { domian: "x.myshopify.com" });
      // @ts-expect-error a job name the queue does not have
      void enqueue(QUEUES.exports, "rendr", { exportId: "x" });
      // @ts-expect-error another job's payload
      void enqueue(QUEUES.privacy, "customer-data-request", { domain: "x.myshopify.com", customerGid: "gid://shopify/Customer/1" });
      // @ts-expect-error bulk jobs are checked name by name
      void enqueueBulk(QUEUES.mirror, [{ name: "sync-storefront", data: { shopDomain: "x" } }]);
    };
    expect(typeof mistakes).toBe("function");
  });

  it("no job payload is cast back, and nothing adds a job around enqueue", () => {
    const offenders: string[] = [];
    for (const file of [...files("app"), ...files("workers"), ...files("scripts"), ...files("prisma")]) {
      const text = readFileSync(file, "utf8");
      text.split("\n").forEach((line, i) => {
        const where = `${file}:${i + 1}: ${line.trim()}`;
        if (/job\.data\s+as\b/.test(line) || /\bdata:\s*object\b/.test(line)) offenders.push(where);
        if (file !== path.join("app", "infra", "queues.server.ts") && /\bqueue\([^)]*\)\s*\.(add|addBulk)\(/.test(line)) offenders.push(where);
      });
    }
    expect(offenders).toEqual([]);
  });
});
