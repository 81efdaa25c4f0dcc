// A shop's dunning and reminder policy (docs/decisions/081): stored per shop with defaults, shown
// and edited on the Billing settings page. No row means the defaults.
import { auditResult, diffFields } from "../audit/audit.server";
import type { DunningFinalAction } from "@prisma/client";
import { z } from "zod";
import { prisma } from "../../db.server";

export interface BillingPolicy {
  /** Days after the failed charge's due date on which it is retried, strictly ascending. */
  retryDays: number[];
  /** What happens when the last retry fails too. */
  finalAction: DunningFinalAction;
  /** subscription.renewal_reminder this many days before each charge; 0 turns reminders off. */
  reminderDays: number;
}

export const DEFAULT_BILLING_POLICY: Readonly<BillingPolicy> = Object.freeze({ retryDays: [1, 3, 7], finalAction: "PAUSE", reminderDays: 3 });

/** The limits the page and the domain share. */
export const POLICY_LIMITS = { maxRetries: 10, maxRetryDay: 60, maxReminderDays: 30 } as const;

export const BillingPolicySchema = z.object({
  retryDays: z
    // Messages in words: the page shows them on the field (never the validator's own).
    .array(
      z
        .number({ error: "write whole days separated by commas, such as 1, 3, 7" })
        .int("write whole days separated by commas, such as 1, 3, 7")
        .min(1, "retry days start at 1")
        .max(POLICY_LIMITS.maxRetryDay, `retry days end at ${POLICY_LIMITS.maxRetryDay}`),
    )
    .max(POLICY_LIMITS.maxRetries, `at most ${POLICY_LIMITS.maxRetries} retries`)
    .refine((days) => days.every((d, i) => i === 0 || d > days[i - 1]), "retry days must be strictly ascending"),
  finalAction: z.enum(["PAUSE", "CANCEL"], { error: "choose whether to pause or cancel" }),
  reminderDays: z
    .number({ error: "enter a whole number of days, 0 to turn reminders off" })
    .int("enter a whole number of days, 0 to turn reminders off")
    .min(0, "enter a whole number of days, 0 to turn reminders off")
    .max(POLICY_LIMITS.maxReminderDays, `at most ${POLICY_LIMITS.maxReminderDays} days`),
});

export async function billingPolicy(shopId: string): Promise<BillingPolicy> {
  const row = await prisma.billingSettings.findUnique({ where: { shopId } });
  return row
    ? { retryDays: row.retryDays, finalAction: row.finalAction, reminderDays: row.reminderDays }
    : { ...DEFAULT_BILLING_POLICY, retryDays: [...DEFAULT_BILLING_POLICY.retryDays] };
}

export async function saveBillingPolicy(
  shopId: string,
  input: unknown,
): Promise<{ ok: true; policy: BillingPolicy } | { ok: false; errors: Record<string, string> }> {
  const before = await billingPolicy(shopId);
  return auditResult(
    { shopId, action: "settings.billing_policy", target: { type: "settings", id: "billing_policy" } },
    () => saveBillingPolicyNow(shopId, input),
    (r) => ({ ok: r.ok, changes: r.ok ? diffFields(before, r.policy, ["retryDays", "finalAction", "reminderDays"]) : {} }),
  );
}

async function saveBillingPolicyNow(
  shopId: string,
  input: unknown,
): Promise<{ ok: true; policy: BillingPolicy } | { ok: false; errors: Record<string, string> }> {
  const parsed = BillingPolicySchema.safeParse(input);
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
    return { ok: false, errors };
  }
  const policy = parsed.data;
  await prisma.billingSettings.upsert({ where: { shopId }, create: { shopId, ...policy }, update: policy });
  return { ok: true, policy };
}

/** When retry `retryNumber` (1-based) of a cycle due at `cycleAt` is due; null when the policy has no such retry. */
export function retryDueAt(policy: BillingPolicy, cycleAt: Date, retryNumber: number): Date | null {
  const days = policy.retryDays[retryNumber - 1];
  return days === undefined ? null : new Date(cycleAt.getTime() + days * 86_400_000);
}
