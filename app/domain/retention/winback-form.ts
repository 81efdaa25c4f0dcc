// The win-back campaign form (docs/decisions/117-winback-campaign-job.md): the page and the domain
// share it, so it holds no server code. Refusals come back as { field: message }.
import { z } from "zod";

export const CampaignForm = z.object({
  name: z.string().trim().min(1, "Name the campaign").max(120, "At most 120 characters"),
  offerLabel: z.string().trim().min(1, "Say what the customer is offered").max(200, "At most 200 characters"),
  /** The discount code's percentage off; null: no code, the e-mail carries the offer label only. */
  discountPercent: z.number().int("Whole percent only").min(1, "At least 1%").max(100, "At most 100%").nullable(),
  delayDays: z.number().int("Whole days only").min(0, "0 days or more").max(365, "At most 365 days"),
  cancelledWithinDays: z.number().int("Whole days only").min(1, "At least 1 day").max(730, "At most 730 days"),
  reasons: z.array(z.string().trim().min(1).max(200)).max(50, "At most 50 reasons"),
  holdoutPercent: z.number().int("Whole percent only").min(0, "0% or more").max(50, "At most 50%"),
  attributionDays: z.number().int("Whole days only").min(1, "At least 1 day").max(365, "At most 365 days"),
});

export type CampaignForm = z.infer<typeof CampaignForm>;
export type FieldErrors = Record<string, string>;

export const CAMPAIGN_DEFAULTS: CampaignForm = {
  name: "",
  offerLabel: "",
  discountPercent: 15,
  delayDays: 7,
  cancelledWithinDays: 90,
  reasons: [],
  holdoutPercent: 10,
  attributionDays: 30,
};

/** The first zod message per field. */
export function campaignFormErrors(issues: readonly { path: PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) errors[issue.path.map(String).join(".") || "form"] ??= issue.message;
  return errors;
}

export type CampaignStatus = "draft" | "active" | "paused" | "ended";
