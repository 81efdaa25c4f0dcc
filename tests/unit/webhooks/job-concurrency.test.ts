// How many webhooks jobs a worker process runs at once (app/domain/outbound-webhooks/jobs.server.ts,
// docs/decisions/077): four jobs of up to ten deliveries per ten requests in flight, or
// WORKER_CONCURRENCY when that is larger.
import { webhookJobConcurrency } from "../../../app/domain/outbound-webhooks/jobs.server";

describe("webhooks job concurrency", () => {
  it("runs four jobs' worth of deliveries per ten requests in flight", () => {
    expect(webhookJobConcurrency(64, 4)).toBe(26); // the defaults
    expect(webhookJobConcurrency(60, 1)).toBe(24); // bench:webhooks
    expect(webhookJobConcurrency(1, 1)).toBe(1);
  });

  it("keeps WORKER_CONCURRENCY when it is larger", () => {
    expect(webhookJobConcurrency(2, 4)).toBe(4);
    expect(webhookJobConcurrency(64, 32)).toBe(32);
  });
});
