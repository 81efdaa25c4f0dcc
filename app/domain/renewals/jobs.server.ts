// The billing scheduler's queue side (docs/decisions/080). A BullMQ job scheduler ("billing-tick",
// BILLING_CRON, re-asserted by every worker like the other schedulers, decision 004) adds one
// "billing-run" job per installed shop. The job id is the shop's, and the job is removed when it
// ends, so a shop never has two runs at once: a tick while one is waiting or running adds nothing.
import { prisma } from "../../db.server";
import { QUEUES, enqueueBulk } from "../../infra/queues.server";

export const billingRunJobId = (shopDomain: string) => `billing-run-${shopDomain}`;

/** Queues a billing run for every installed shop, or for the installed shops among `domains`. */
export async function queueBillingRuns(domains?: string[]): Promise<{ shops: number }> {
  const shops = await prisma.shop.findMany({
    where: { installState: "INSTALLED", ...(domains ? { domain: { in: domains } } : {}) },
    select: { domain: true },
  });
  await enqueueBulk(
    QUEUES.billing,
    shops.map((s) => ({
      name: "billing-run" as const,
      data: { shopDomain: s.domain },
      opts: { jobId: billingRunJobId(s.domain), removeOnComplete: true, removeOnFail: true, attempts: 3 },
    })),
  );
  return { shops: shops.length };
}
