// Win-back campaign writes (docs/decisions/117-winback-campaign-job.md): a campaign is a draft,
// editable, until started; started it is run by the campaign job; it can be paused and started
// again (its ledger keeps everyone it decided on, so nobody is sent to twice). Every write is one
// transaction with its audit row (docs/decisions/125-audit-log.md). Tenancy: every query names the shop.
import type { WinbackCampaign } from "@prisma/client";
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { audited, diffFields } from "../audit/audit.server";
import { CampaignForm, campaignFormErrors, type FieldErrors } from "./winback-form";

const FIELDS = ["name", "offerLabel", "discountPercent", "delayDays", "cancelledWithinDays", "reasons", "holdoutPercent", "attributionDays"] as const;

export type SaveResult = { ok: true; campaign: WinbackCampaign } | { ok: false; errors: FieldErrors };

async function ownCampaign(shopId: string, id: string): Promise<WinbackCampaign> {
  const c = await prisma.winbackCampaign.findFirst({ where: { id, shopId } });
  if (!c) throw new ApiError("not_found", `No win-back campaign ${id}`);
  return c;
}

export const getCampaign = (shopId: string, id: string) => prisma.winbackCampaign.findFirst({ where: { id, shopId } });

/** A new draft. */
export async function createCampaign(shopId: string, input: unknown): Promise<SaveResult> {
  const parsed = CampaignForm.safeParse(input);
  if (!parsed.success) return { ok: false, errors: campaignFormErrors(parsed.error.issues) };
  const campaign = await audited({ shopId, action: "campaign.create", target: { type: "campaign", id: "new" } }, async (tx) => {
    const created = await tx.winbackCampaign.create({ data: { shopId, status: "draft", ...parsed.data } });
    return { result: created, targetId: created.id, changes: diffFields(null, created, FIELDS) };
  });
  return { ok: true, campaign };
}

/** Edits a draft; a campaign that has run keeps its rules (its ledger was decided by them). */
export async function updateCampaign(shopId: string, id: string, input: unknown): Promise<SaveResult> {
  const parsed = CampaignForm.safeParse(input);
  if (!parsed.success) return { ok: false, errors: campaignFormErrors(parsed.error.issues) };
  const campaign = await audited({ shopId, action: "campaign.update", target: { type: "campaign", id } }, async (tx) => {
    const before = await tx.winbackCampaign.findFirst({ where: { id, shopId } });
    if (!before) throw new ApiError("not_found", `No win-back campaign ${id}`);
    if (before.status !== "draft") throw new ApiError("state_conflict", "Only a draft campaign can be edited");
    const after = await tx.winbackCampaign.update({ where: { id }, data: parsed.data });
    return { result: after, changes: diffFields(before, after, FIELDS) };
  });
  return { ok: true, campaign };
}

/** draft or paused -> active: the next run of the campaign job picks it up. */
export async function startCampaign(shopId: string, id: string, now = new Date()): Promise<WinbackCampaign> {
  return setStatus(shopId, id, "campaign.start", ["draft", "paused"], "active", now);
}

/** active -> paused: the job skips it; mail already queued still goes (it was decided). */
export async function pauseCampaign(shopId: string, id: string): Promise<WinbackCampaign> {
  return setStatus(shopId, id, "campaign.pause", ["active"], "paused");
}

async function setStatus(shopId: string, id: string, action: string, from: string[], to: string, now?: Date): Promise<WinbackCampaign> {
  await ownCampaign(shopId, id);
  return audited({ shopId, action, target: { type: "campaign", id } }, async (tx) => {
    // The status is checked by the UPDATE itself: two clicks at once move it once.
    const { count } = await tx.winbackCampaign.updateMany({
      where: { id, shopId, status: { in: from } },
      data: { status: to, ...(to === "active" && now ? { startedAt: now } : {}) },
    });
    const after = await tx.winbackCampaign.findFirstOrThrow({ where: { id, shopId } });
    if (count === 0) throw new ApiError("state_conflict", `The campaign is ${after.status}`);
    return { result: after, changes: { status: { before: from.length === 1 ? from[0] : null, after: to } } };
  });
}
