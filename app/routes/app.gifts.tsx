// Gifts (docs/decisions/136-gift-lifecycle.md): every gift with its status and timeline, a bounced
// claim e-mail flagged, the merchant's resend (to the same or a corrected address), and the expiry
// settings (how long a recipient has to claim; ship to the gifter or pause when nobody does).
// Reads: app/domain/gifts/admin.server.ts; writes: app/domain/gifts/delivery.server.ts.
import { useEffect, useRef, useState } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useFetcher, useLoaderData, useNavigate } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Button,
  Card,
  EmptyState,
  IndexFilters,
  IndexTable,
  InlineStack,
  Layout,
  Modal,
  Page,
  Select,
  Text,
  TextField,
  useSetIndexFiltersMode,
} from "@shopify/polaris";
import type { GiftStatus } from "@prisma/client";
import { adminContext, staffAction } from "../embedded/context.server";
import { useFormat } from "../embedded/shop-format";
import { SectionCard } from "../embedded/section-card";
import { giftRows } from "../domain/gifts/admin.server";
import { giftSettings, resendGift, saveGiftSettings } from "../domain/gifts/delivery.server";

const STATUSES: GiftStatus[] = ["PENDING", "SENT", "CLAIMED", "EXPIRED", "ENDED"];
const LABEL: Record<GiftStatus, string> = { PENDING: "Pending", SENT: "Sent", CLAIMED: "Claimed", EXPIRED: "Expired", ENDED: "Ended" };
const TONE = { PENDING: "attention", SENT: "info", CLAIMED: "success", EXPIRED: "warning", ENDED: undefined } as const;

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  const raw = new URL(request.url).searchParams.get("status")?.toUpperCase() ?? "";
  const status = (STATUSES as string[]).includes(raw) ? (raw as GiftStatus) : null;
  const [rows, settings] = await Promise.all([giftRows(shop.id, status), giftSettings(shop.id)]);
  return json({ rows, settings, status });
};

type ActionResult = { ok: true; message: string } | { ok: false; error: string };

const REFUSALS = {
  not_found: "That gift is not in this shop.",
  claimed: "This gift is claimed or ended: there is nothing to send.",
  invalid_email: "Enter a valid e-mail address.",
} as const;

export const action = (args: ActionFunctionArgs) =>
  staffAction(args, async ({ request }: ActionFunctionArgs) => {
    const { shop } = await adminContext(request);
    const form = await request.formData();
    if (form.get("intent") === "resend") {
      const r = await resendGift(shop.id, String(form.get("id") ?? ""), String(form.get("email") ?? ""));
      return json<ActionResult>(r.ok ? { ok: true, message: "Claim e-mail sent again" } : { ok: false, error: REFUSALS[r.reason] });
    }
    if (form.get("intent") === "settings") {
      const days = Number(form.get("expiryDays"));
      const policy = String(form.get("expiryPolicy"));
      if (!Number.isInteger(days) || days < 1 || days > 365) return json<ActionResult>({ ok: false, error: "The claim window is 1 to 365 days." });
      if (policy !== "SHIP_TO_GIFTER" && policy !== "PAUSE") return json<ActionResult>({ ok: false, error: "Choose what happens to an unclaimed gift." });
      await saveGiftSettings(shop.id, { expiryDays: days, expiryPolicy: policy });
      return json<ActionResult>({ ok: true, message: "Gift settings saved" });
    }
    return json<ActionResult>({ ok: false, error: "Unknown action" }, { status: 400 });
  });

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Row = Data["rows"][number];

function useToast(data: ActionResult | undefined) {
  useEffect(() => {
    if (data) window.shopify?.toast.show(data.ok ? data.message : data.error);
  }, [data]);
}

function SettingsCard({ settings }: { settings: Data["settings"] }) {
  const fetcher = useFetcher<ActionResult>();
  const [days, setDays] = useState(String(settings.expiryDays));
  const [policy, setPolicy] = useState<string>(settings.expiryPolicy);
  useToast(fetcher.state === "idle" ? fetcher.data : undefined);
  return (
    <SectionCard title="Unclaimed gifts">
      <TextField
        label="Days a recipient has to claim"
        type="number"
        min={1}
        max={365}
        value={days}
        onChange={setDays}
        autoComplete="off"
        helpText="Counted from the day the claim e-mail is sent."
      />
      <Select
        label="When nobody claims in time"
        options={[
          { label: "Ship to the gifter's address", value: "SHIP_TO_GIFTER" },
          { label: "Pause the subscription until it is claimed (after a resend)", value: "PAUSE" },
        ]}
        value={policy}
        onChange={setPolicy}
      />
      <InlineStack>
        <Button
          variant="primary"
          loading={fetcher.state !== "idle"}
          onClick={() => fetcher.submit({ intent: "settings", expiryDays: days, expiryPolicy: policy }, { method: "post" })}
        >
          Save settings
        </Button>
      </InlineStack>
    </SectionCard>
  );
}

function ResendModal({ row, onClose }: { row: Row; onClose: () => void }) {
  const fetcher = useFetcher<ActionResult>();
  const [email, setEmail] = useState(row.recipientEmail ?? "");
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useToast(result);
  useEffect(() => {
    if (result?.ok) onClose();
  }, [result, onClose]);
  return (
    <Modal open onClose={onClose} title="Resend the claim e-mail">
      <Modal.Section>
        <BlockStack gap="400">
          <Text as="p">A new link goes to this address and the earlier link stops working. The recipient gets a new claim window.</Text>
          <TextField
            label="Recipient's e-mail"
            type="email"
            value={email}
            onChange={setEmail}
            autoComplete="off"
            error={result && !result.ok ? result.error : undefined}
          />
          <InlineStack gap="200" align="end">
            <Button onClick={onClose}>Cancel</Button>
            <Button
              variant="primary"
              loading={fetcher.state !== "idle"}
              onClick={() => fetcher.submit({ intent: "resend", id: row.id, email }, { method: "post" })}
            >
              Resend
            </Button>
          </InlineStack>
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}

function GiftTable({ rows, status }: { rows: Row[]; status: GiftStatus | null }) {
  const { formatDateTime } = useFormat();
  const navigate = useNavigate();
  const { mode, setMode } = useSetIndexFiltersMode();
  const [resending, setResending] = useState<Row | null>(null);
  const tabs = ["All", ...STATUSES.map((s) => LABEL[s])].map((content, index) => ({ id: `gift-tab-${index}`, content, index }));
  // The table scrolls sideways at phone widths: a focusable, named region (axe: scrollable-region-focusable).
  const wrap = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const scroller = wrap.current?.querySelector<HTMLElement>(".Polaris-IndexTable-ScrollContainer");
    if (!scroller) return;
    scroller.tabIndex = 0;
    scroller.setAttribute("role", "region");
    scroller.setAttribute("aria-label", "Gifts");
  }, [rows]);
  return (
    <Card padding="0">
      <IndexFilters
        tabs={tabs}
        selected={status ? STATUSES.indexOf(status) + 1 : 0}
        onSelect={(i) => navigate(i === 0 ? "/app/gifts" : `/app/gifts?status=${STATUSES[i - 1].toLowerCase()}`, { replace: true })}
        queryValue=""
        hideQueryField
        onQueryChange={() => undefined}
        onQueryClear={() => undefined}
        filters={[]}
        onClearAll={() => undefined}
        mode={mode}
        setMode={setMode}
        canCreateNewView={false}
        hideFilters
      />
      <div ref={wrap}>
        <IndexTable
          resourceName={{ singular: "gift", plural: "gifts" }}
          itemCount={rows.length}
          selectable={false}
          emptyState={
            <EmptyState heading={status ? `No ${LABEL[status].toLowerCase()} gifts` : "No gifts yet"} image="">
              <Text as="p">
                Shoppers give a subscription with the theme&apos;s gift block on a plan you made giftable (Plans, &quot;Can be bought as a gift&quot;).
              </Text>
            </EmptyState>
          }
          headings={[{ title: "Recipient" }, { title: "Status" }, { title: "Subscription" }, { title: "Timeline" }, { title: "Actions" }]}
        >
          {rows.map((r, i) => (
            <IndexTable.Row id={r.id} key={r.id} position={i}>
              <IndexTable.Cell>
                <BlockStack gap="050">
                  <Text as="span" fontWeight="semibold">
                    {r.recipientName ?? r.recipientEmail}
                  </Text>
                  <Text as="span" tone="subdued">
                    {r.recipientEmail}
                  </Text>
                  {r.gifterName && (
                    <Text as="span" tone="subdued" variant="bodySm">
                      From {r.gifterName}
                    </Text>
                  )}
                </BlockStack>
              </IndexTable.Cell>
              <IndexTable.Cell>
                <InlineStack gap="100">
                  <Badge tone={TONE[r.status]}>{LABEL[r.status]}</Badge>
                  {r.bounced && <Badge tone="critical">E-mail bounced</Badge>}
                </InlineStack>
              </IndexTable.Cell>
              <IndexTable.Cell>
                <BlockStack gap="050">
                  <Text as="span">{r.productTitle ?? "—"}</Text>
                  <Text as="span" tone="subdued" variant="bodySm">
                    {r.kind === "PREPAID" ? `Prepaid: ${r.chargesRun} of ${r.prepaidCharges} charges` : "Recurring, paid by the gifter"}
                    {r.contractNumber ? ` · #${r.contractNumber}` : ""}
                  </Text>
                </BlockStack>
              </IndexTable.Cell>
              <IndexTable.Cell>
                <Text as="span" variant="bodySm">
                  {r.timeline.map((s) => `${s.label} ${formatDateTime(s.at)}`).join(" → ")}
                  {r.status === "PENDING" && r.sendAt ? ` → sends ${formatDateTime(r.sendAt)}` : ""}
                  {r.expiryAction === "paused" ? " (subscription paused)" : r.expiryAction === "ship_to_gifter" ? " (ships to the gifter)" : ""}
                </Text>
              </IndexTable.Cell>
              <IndexTable.Cell>
                {r.status !== "CLAIMED" && r.status !== "ENDED" && (
                  <Button
                    size="slim"
                    onClick={() => setResending(r)}
                    accessibilityLabel={`Resend or correct the e-mail to ${r.recipientEmail ?? "the recipient"}`}
                  >
                    {r.bounced ? "Correct e-mail and resend" : "Resend"}
                  </Button>
                )}
              </IndexTable.Cell>
            </IndexTable.Row>
          ))}
        </IndexTable>
      </div>
      {resending && <ResendModal row={resending} onClose={() => setResending(null)} />}
    </Card>
  );
}

export default function Gifts() {
  const { rows, settings, status } = useLoaderData<typeof loader>();
  return (
    <Page title="Gifts" subtitle="Gift subscriptions: when the recipient hears, whether the e-mail arrived, the claim, and the end.">
      <Layout>
        <Layout.Section>
          <GiftTable rows={rows} status={status} />
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <SettingsCard settings={settings} />
        </Layout.Section>
      </Layout>
    </Page>
  );
}
