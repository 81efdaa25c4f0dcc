// Portal settings (docs/decisions/113-portal-settings.md) over real HTTP: what the merchant saves
// is exactly what GET /config answers, the next request already; bad settings are refused by field
// and store nothing; one shop's settings never touch another's or the headless origins on the
// same row. The shopper's own skip, pause and cancel at the simulator's Customer Account API
// (what the example portal's buttons call) act on their own contracts only.
import { prisma } from "../../../app/db.server";
import { DEFAULT_PORTAL_SETTINGS, portalSettings, savePortalSettings } from "../../../app/domain/retention/portal-settings.server";
import { startStack, type Stack } from "../../support/stack";
import { customerToken, seedCustomerShop, type CustomerShop } from "../../support/customer-factories";
import { client, simContract, type Json } from "./helpers";

let stack: Stack;
let s: CustomerShop;
let api: ReturnType<typeof client>;
let sessionA: string;

beforeAll(async () => {
  stack = await startStack({ workers: false });
  s = await seedCustomerShop(stack.control, stack.installShop);
  api = client(stack, () => s);
  sessionA = await api.sessionFor(s.customers.a);
}, 90_000);
afterAll(async () => {
  await stack?.close();
});

const config = async (session = sessionA) => {
  const res = await api.call("GET", "/config", { session });
  expect(res.status).toBe(200);
  return res.body;
};

const full = {
  rescheduleMaxMonths: 7,
  offerPause: false,
  offerSkip: true,
  showReasonSurvey: false,
  reasons: ["Too expensive", "Moving abroad", "Too much coffee"],
  hiddenActions: ["cancel", "skip", "change_date"],
};

describe("portal settings and GET /config", () => {
  it("a shop without settings reads the defaults on the page and from GET /config", async () => {
    expect(await portalSettings(s.shopId)).toEqual(DEFAULT_PORTAL_SETTINGS);
    expect(await config()).toEqual({
      reschedule_max_months: 3,
      cancel_flow: { offer_pause: true, offer_skip: true, show_reason_survey: true, reasons: [] },
      portal_actions: {
        hide_skip: false,
        hide_pause: false,
        hide_cancel: false,
        hide_edit_address: false,
        hide_edit_quantity: false,
        hide_swap_product: false,
        hide_change_date: false,
      },
    });
  });

  it("GET /config answers exactly what was saved, at once, and the page reads it back in menu order", async () => {
    await prisma.portalConfig.upsert({
      where: { shopId: s.shopId },
      create: { shopId: s.shopId, allowedOrigins: ["https://headless.example"] },
      update: { allowedOrigins: ["https://headless.example"] },
    });
    const saved = await savePortalSettings(s.shopId, full);
    expect(saved.ok).toBe(true);
    expect(await config()).toEqual({
      reschedule_max_months: 7,
      cancel_flow: { offer_pause: false, offer_skip: true, show_reason_survey: false, reasons: ["Too expensive", "Moving abroad", "Too much coffee"] },
      portal_actions: {
        hide_skip: true,
        hide_pause: false,
        hide_cancel: true,
        hide_edit_address: false,
        hide_edit_quantity: false,
        hide_swap_product: false,
        hide_change_date: true,
      },
    });
    expect(await portalSettings(s.shopId)).toEqual({ ...full, hiddenActions: ["skip", "cancel", "change_date"] });
    // The headless origins on the same row are the API keys page's, not this page's.
    expect((await prisma.portalConfig.findUniqueOrThrow({ where: { shopId: s.shopId } })).allowedOrigins).toEqual(["https://headless.example"]);

    // Showing everything again is a save like any other (a full object, not a patch).
    await savePortalSettings(s.shopId, { ...full, hiddenActions: [], reasons: [] });
    const again = await config();
    expect(Object.values(again.portal_actions as Json).every((v) => v === false)).toBe(true);
    expect(again.cancel_flow.reasons).toEqual([]);
  });

  it("the reschedule window saved here is the one POST /reschedule enforces", async () => {
    await savePortalSettings(s.shopId, { ...full, rescheduleMaxMonths: 1, hiddenActions: [] });
    const far = new Date(Date.now() + 45 * 86_400_000).toISOString().slice(0, 10);
    const refused = await api.call("POST", `/subscriptions/${encodeURIComponent(s.contracts.a.id)}/reschedule`, { session: sessionA, body: { date: far } });
    expect(refused.status).toBe(400);
    await savePortalSettings(s.shopId, { ...full, rescheduleMaxMonths: 2, hiddenActions: [] });
    const ok = await api.call("POST", `/subscriptions/${encodeURIComponent(s.contracts.a.id)}/reschedule`, { session: sessionA, body: { date: far } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it.each([
    ["a window of 0 months", { rescheduleMaxMonths: 0 }, "rescheduleMaxMonths"],
    ["a window over 24 months", { rescheduleMaxMonths: 25 }, "rescheduleMaxMonths"],
    ["a window that is not a number", { rescheduleMaxMonths: Number.NaN }, "rescheduleMaxMonths"],
    ["a fractional window", { rescheduleMaxMonths: 1.5 }, "rescheduleMaxMonths"],
    ["the same reason twice", { reasons: ["Too expensive", "too expensive"] }, "reasons"],
    ["21 reasons", { reasons: Array.from({ length: 21 }, (_, i) => `Reason ${i}`) }, "reasons"],
    ["a reason of 81 characters", { reasons: ["x".repeat(81)] }, "reasons"],
    ["an action the portal does not have", { hiddenActions: ["delete_account"] }, "hiddenActions"],
    ["a flag that is not a boolean", { offerPause: "yes" }, "offerPause"],
  ])("refuses %s on its field and stores nothing", async (_name, change, field) => {
    await savePortalSettings(s.shopId, full);
    const before = await config();
    const res = await savePortalSettings(s.shopId, { ...full, ...change });
    expect(res.ok).toBe(false);
    expect(Object.keys(res.ok ? {} : res.errors)).toEqual([field]);
    expect(await config()).toEqual(before);
  });

  it("one shop's settings never reach another shop's GET /config", async () => {
    const other = await seedCustomerShop(stack.control, stack.installShop);
    const otherSession = await api.sessionFor(other.customers.a, other);
    await savePortalSettings(s.shopId, full);
    await savePortalSettings(other.shopId, { ...full, rescheduleMaxMonths: 12, hiddenActions: ["pause"] });
    const mine = await config();
    const theirs = await api.call("GET", "/config", { key: other.publishableKey, session: otherSession });
    expect(mine.reschedule_max_months).toBe(7);
    expect(mine.portal_actions.hide_pause).toBe(false);
    expect(theirs.body.reschedule_max_months).toBe(12);
    expect(theirs.body.portal_actions).toMatchObject({ hide_pause: true, hide_skip: false });
  });
});

describe("the shopper's own skip, pause and cancel at the Customer Account API (simulator)", () => {
  const account = async (customerId: string, query: string, variables: Json) => {
    const { numericId } = await stack.control.call<{ numericId: number }>("GET", stack.control.shop(s.domain));
    const res = await fetch(`${stack.sim.url}/shopify.com/${numericId}/account/customer/api/2026-10/graphql`, {
      method: "POST",
      headers: { Authorization: await customerToken(stack.control, s.domain, customerId), "Content-Type": "application/json" },
      body: JSON.stringify({ query, variables }),
    });
    return ((await res.json()) as { data: Json }).data;
  };
  const PAUSE = `mutation P($id: ID!) { subscriptionContractPause(subscriptionContractId: $id) { contract { id status } userErrors { code message } } }`;
  const CANCEL = `mutation C($id: ID!) { subscriptionContractCancel(subscriptionContractId: $id) { contract { id status } userErrors { code message } } }`;
  const SKIP = `mutation S($input: SubscriptionBillingCycleInput!) { subscriptionBillingCycleSkip(billingCycleInput: $input) { billingCycle { cycleIndex skipped } userErrors { code message } } }`;

  it("acts on the token's own contract and refuses another customer's as not existing", async () => {
    const theirs = await account(s.customers.a, PAUSE, { id: s.contracts.b.id });
    expect(theirs.subscriptionContractPause).toEqual({
      contract: null,
      userErrors: [{ code: "SUBSCRIPTION_CONTRACT_DOES_NOT_EXIST", message: "Contract does not exist" }],
    });
    expect((await simContract(stack, s.domain, s.contracts.b.id)).status).toBe("ACTIVE");

    const before = (await simContract(stack, s.domain, s.contracts.aBox.id)).nextBillingDate as string;
    const skipped = await account(s.customers.a, SKIP, { input: { contractId: s.contracts.aBox.id, selector: { date: before } } });
    expect(skipped.subscriptionBillingCycleSkip).toEqual({ billingCycle: { cycleIndex: 1, skipped: true }, userErrors: [] });
    expect((await simContract(stack, s.domain, s.contracts.aBox.id)).nextBillingDate).not.toBe(before);

    const paused = await account(s.customers.a, PAUSE, { id: s.contracts.aBox.id });
    expect(paused.subscriptionContractPause).toEqual({ contract: { id: s.contracts.aBox.id, status: "PAUSED" }, userErrors: [] });
    const cancelled = await account(s.customers.a, CANCEL, { id: s.contracts.aBox.id });
    expect(cancelled.subscriptionContractCancel.contract.status).toBe("CANCELLED");
    // A cancelled contract cannot be paused again: Shopify's refusal, in the Customer Account API's own code.
    const again = await account(s.customers.a, PAUSE, { id: s.contracts.aBox.id });
    expect(again.subscriptionContractPause.userErrors).toEqual([{ code: "INVALID", message: "Contract can't transition from cancelled to paused" }]);
    // The three changes reached the app as contract webhooks; let them land before the stack closes.
    await stack.sim.idle();
  });
});
