// One subscription: lines, schedule and history, with pause, resume, skip, reschedule and cancel
// (cancel asks for confirmation). The actions call the same domain functions as the Admin API
// writes (app/domain/subscriptions/writes.server.ts), so the platform is asked, refusals map the
// same way, and the mirror is reconciled before the page answers.
import { useEffect, useState } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { Banner, Button, InlineStack, Layout, Page, Text, TextField } from "@shopify/polaris";
import { ConfirmModal } from "../embedded/confirm-modal";
import { adminContext, staffAction } from "../embedded/context.server";
import { statusLabel } from "../embedded/format";
import { useFormat } from "../embedded/shop-format";
import { StatusBadge } from "../embedded/status-badge";
import { getSubscription } from "../domain/subscriptions/reads.server";
import { subscriptionHistory, undoableSkip, type HistoryActor, type HistoryEntry } from "../domain/subscriptions/history.server";
import { findOwnedContract } from "../domain/subscriptions/reads.server";
import {
  cancelSubscription,
  pauseSubscription,
  rescheduleSubscription,
  resumeSubscription,
  skipSubscription,
  undoSkip,
  updateSubscriptionLine,
  type WriteContext,
} from "../domain/subscriptions/writes.server";
import { ApiError } from "../infra/errors";
import { iso } from "../domain/shared/money.server";
import { subscriptionDetailJson } from "../surfaces/admin/wire";
import { SectionCard } from "../embedded/section-card";
import { ChargesCard, CustomerCard, PaymentCard } from "../embedded/subscription-particulars";
import { LineEditor } from "../embedded/line-editor";
import { chargeHistory, detailCustomer, detailPaymentMethod } from "../domain/subscriptions/detail.server";

const contractGid = (id: string | undefined): string => {
  if (!id || !/^\d{1,20}$/.test(id)) throw new Response("Not found", { status: 404 });
  return `gid://shopify/SubscriptionContract/${id}`;
};

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  const gid = contractGid(params.id);
  try {
    // The Admin API's shape of the same read (the page shows what GET /subscriptions/{id} answers).
    const subscription = subscriptionDetailJson(await getSubscription({ shopId: shop.id, canReadCustomers: true, contractGid: gid }));
    // Customer, address and payment method are read live from Shopify, side by side; a failed read
    // shows a banner, not an error page (docs/decisions/135-subscription-detail-live.md).
    const owned = await findOwnedContract(shop.id, gid);
    const [history, undo, charges, customer, payment] = await Promise.all([
      subscriptionHistory(shop.id, gid),
      owned ? undoableSkip(shop.id, owned) : null,
      chargeHistory(shop.id, gid),
      detailCustomer(shop.domain, subscription.customer_id),
      detailPaymentMethod(shop.domain, gid),
    ]);
    return json({ subscription, history, undo: undo ? { restore_to: undo.restoreTo.toISOString() } : null, charges, customer, payment });
  } catch (err) {
    if (err instanceof ApiError && err.code === "not_found") throw new Response("Not found", { status: 404 });
    throw err;
  }
};

const ACTIONS = ["pause", "resume", "skip", "undo_skip", "reschedule", "cancel", "quantity", "variant"] as const;
type Action = (typeof ACTIONS)[number];
type ActionResult = { ok: true; action: Action; status: string; next_billing_at: string | null } | { ok: false; error: string };

// A refusal the merchant can cause by what they typed or clicked is an answered form: the page shows
// it in words. (A 4xx would also log a console error in the admin for every typo.)
const refused = (error: string) => json<ActionResult>({ ok: false, error });

export const action = (args: ActionFunctionArgs) =>
  staffAction(args, async ({ request, params }: ActionFunctionArgs) => {
    const { shop } = await adminContext(request);
    const form = await request.formData();
    const intent = String(form.get("intent")) as Action;
    if (!ACTIONS.includes(intent)) return json<ActionResult>({ ok: false, error: "Unknown action." }, 400);
    const ctx: WriteContext = { shopId: shop.id, shopDomain: shop.domain, contractGid: contractGid(params.id) };
    try {
      let receipt;
      if (intent === "pause") receipt = await pauseSubscription(ctx);
      else if (intent === "resume") receipt = await resumeSubscription(ctx);
      else if (intent === "skip") receipt = await skipSubscription(ctx);
      else if (intent === "undo_skip") receipt = await undoSkip(ctx);
      else if (intent === "cancel") receipt = await cancelSubscription(ctx);
      else if (intent === "quantity" || intent === "variant") {
        const lineGid = String(form.get("line_id") ?? "");
        const quantity = Number(form.get("quantity"));
        if (intent === "quantity" && !(Number.isInteger(quantity) && quantity >= 1 && quantity <= 100_000)) {
          return refused("Enter a quantity between 1 and 100,000.");
        }
        const change = intent === "quantity" ? { quantity } : { variantId: String(form.get("variant_id") ?? "") };
        receipt = await updateSubscriptionLine({ ...ctx, lineGid, change });
      } else {
        const date = String(form.get("date") ?? "");
        if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return refused("Choose a date for the next charge.");
        receipt = await rescheduleSubscription({ ...ctx, nextBillingAt: new Date(`${date}T00:00:00Z`) });
      }
      return json<ActionResult>({ ok: true, action: intent, status: receipt.status, next_billing_at: iso(receipt.nextBillingAt) });
    } catch (err) {
      if (err instanceof ApiError) return refused(inWords(intent, err));
      throw err;
    }
  });

/** The domain's messages are written for developers (field names, ids); the merchant reads these. */
function inWords(intent: Action, err: ApiError): string {
  if (err.code === "not_found") return "This subscription or item no longer exists.";
  if (err.code === "invalid_request" && intent === "variant") return "That variant is not sold on this subscription's plan. Choose another.";
  if (err.code === "invalid_request" && intent === "reschedule") return "Choose a date in the future, within five years.";
  if (err.code === "internal_error") return "Shopify did not answer. Try again in a moment.";
  return err.message;
}

const DONE: Record<Action, string> = {
  pause: "Subscription paused",
  resume: "Subscription resumed",
  skip: "Next charge skipped",
  undo_skip: "Skip undone",
  quantity: "Quantity updated",
  variant: "Variant changed",
  reschedule: "Next charge rescheduled",
  cancel: "Subscription cancelled",
};

const HISTORY_LABEL: Record<string, string> = {
  "subscription.created": "Created",
  "subscription.paused": "Paused",
  "subscription.cancelled": "Cancelled",
  "subscription.reactivated": "Reactivated",
  "subscription.skip": "Next charge skipped",
  "subscription.skip_undone": "Skip undone",
  "subscription.reschedule": "Next charge rescheduled",
  "subscription.update_line": "Item changed",
  "subscription.update_address": "Delivery address changed",
};
const BY: Record<HistoryActor, string> = { staff: "by staff", api_key: "through the API", customer: "by the customer", system: "automatically" };

function historyText(h: HistoryEntry, formatDate: (iso: string | null) => string): string {
  const parts = [HISTORY_LABEL[h.type] ?? "Updated"];
  if (h.previous_status && h.new_status) parts.push(`(${statusLabel(h.previous_status)} → ${statusLabel(h.new_status)})`);
  if (h.next_charge) parts.push(`from ${formatDate(h.next_charge.before)} to ${formatDate(h.next_charge.after)}`);
  if (h.quantity) parts.push(`quantity ${h.quantity.before ?? "—"} → ${h.quantity.after ?? "—"}`);
  if (h.actor) parts.push(BY[h.actor]);
  return parts.join(" ");
}

export default function SubscriptionDetail() {
  const { formatDate, formatDateTime, formatMoney } = useFormat();
  const { subscription: s, history, undo, charges, customer, payment } = useLoaderData<typeof loader>();
  const fetcher = useFetcher<ActionResult>();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [date, setDate] = useState("");
  const busy = fetcher.state !== "idle";
  const run = (intent: Action, extra: Record<string, string> = {}) => fetcher.submit({ intent, ...extra }, { method: "post" });

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) window.shopify?.toast.show(DONE[fetcher.data.action]);
  }, [fetcher.state, fetcher.data]);

  const error = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;
  const live = s.status !== "CANCELLED" && s.status !== "EXPIRED";
  const number = s.contract_id.split("/").pop();
  return (
    <Page
      title={`Subscription ${number}`}
      titleMetadata={<StatusBadge status={s.status} />}
      backAction={{ content: "Subscriptions", url: "/app/subscriptions" }}
      subtitle={s.product_title ?? undefined}
    >
      <Layout>
        {error && (
          <Layout.Section>
            <Banner tone="critical" title="The change was not made">
              <p>{error}</p>
            </Banner>
          </Layout.Section>
        )}
        <Layout.Section>
          <SectionCard title="Actions">
            {live ? (
              <>
                <InlineStack gap="200" wrap>
                  {s.status === "ACTIVE" && (
                    <Button onClick={() => run("pause")} disabled={busy}>
                      Pause
                    </Button>
                  )}
                  {(s.status === "PAUSED" || s.status === "FAILED") && (
                    <Button onClick={() => run("resume")} disabled={busy}>
                      Resume
                    </Button>
                  )}
                  {s.status === "ACTIVE" && (
                    <Button onClick={() => run("skip")} disabled={busy || !s.next_billing_at}>
                      Skip next charge
                    </Button>
                  )}
                  {undo && (
                    <Button onClick={() => run("undo_skip")} disabled={busy}>
                      {`Undo skip (back to ${formatDate(undo.restore_to)})`}
                    </Button>
                  )}
                  <Button tone="critical" onClick={() => setConfirmCancel(true)} disabled={busy}>
                    Cancel subscription
                  </Button>
                </InlineStack>
                {s.status === "ACTIVE" && (
                  <InlineStack gap="200" blockAlign="end" wrap>
                    <TextField label="Move the next charge to" type="date" value={date} onChange={setDate} autoComplete="off" />
                    <Button onClick={() => run("reschedule", { date })} disabled={busy || !date}>
                      Reschedule
                    </Button>
                  </InlineStack>
                )}
              </>
            ) : (
              <Text as="p">This subscription has ended; it cannot be changed.</Text>
            )}
          </SectionCard>
        </Layout.Section>
        <Layout.Section>
          <SectionCard title="Schedule" gap="200">
            {live && <Text as="p">Next charge: {formatDate(s.next_billing_at)}</Text>}
            <Text as="p">
              Frequency: {s.frequency_label ?? (s.billing_interval ? `every ${s.billing_interval_count} ${s.billing_interval.toLowerCase()}` : "—")}
            </Text>
            <Text as="p">
              Per charge: {formatMoney(s.charge_amount)} · Monthly: {formatMoney(s.monthly_amount)}
            </Text>
            <Text as="p">First order: {s.order_name ?? "—"}</Text>
          </SectionCard>
        </Layout.Section>
        <Layout.Section>
          <CustomerCard customer={customer} />
        </Layout.Section>
        <Layout.Section>
          <PaymentCard payment={payment} />
        </Layout.Section>
        <Layout.Section>
          <SectionCard title="Items" gap="300">
            {s.lines.map((l) => (
              <LineEditor key={l.line_id} line={l} editable={live} busy={busy} run={run} />
            ))}
          </SectionCard>
        </Layout.Section>
        <Layout.Section>
          <ChargesCard charges={charges} />
        </Layout.Section>
        <Layout.Section>
          <SectionCard title="History" gap="200">
            <ul aria-label="History" style={{ margin: 0, paddingLeft: "1.2em" }}>
              {history.map((h, i) => (
                <li key={i}>
                  <Text as="span">
                    {formatDateTime(h.at)}: {historyText(h, formatDate)}
                  </Text>
                </li>
              ))}
              <li>
                <Text as="span">{formatDateTime(s.created_at)}: Started</Text>
              </li>
            </ul>
          </SectionCard>
        </Layout.Section>
      </Layout>
      <ConfirmModal
        open={confirmCancel}
        onClose={() => setConfirmCancel(false)}
        title={`Cancel subscription ${number}?`}
        confirmLabel="Cancel subscription"
        cancelLabel="Keep it"
        onConfirm={() => {
          setConfirmCancel(false);
          run("cancel");
        }}
      >
        The customer will no longer be billed. Cancelling is final: the subscription cannot be resumed.
      </ConfirmModal>
    </Page>
  );
}
