// The Notifications page's log: an IndexTable of the shop's messages with IndexFilters (status
// tabs, a customer-id search, a message filter). Filters live in the URL, so a reload or a shared
// link shows the same view; the loader reads them (app/embedded/notifications-page.server.ts).
import { useEffect, useRef, useState } from "react";
import { useFocusableTableScroll } from "./use-focusable-table-scroll";
import { useFetcher, useNavigate } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, ChoiceList, IndexFilters, IndexTable, Text, useSetIndexFiltersMode, type BadgeProps } from "@shopify/polaris";
import type { MailLogRow } from "../domain/notifications/log.server";
import { useFormat } from "./shop-format";
import type { Formatter } from "./format";

const TONES: Record<string, BadgeProps["tone"]> = {
  delivered: "success",
  sent: "info",
  bounced: "critical",
  failed: "critical",
  deferred: "warning",
  skipped: undefined,
  queued: "attention",
  held: "warning",
};

export function StatusPill({ status }: { status: string }) {
  return <Badge tone={TONES[status]}>{status.charAt(0).toUpperCase() + status.slice(1)}</Badge>;
}

function lifecycle(r: MailLogRow, { formatDateTime }: Formatter): string {
  const steps = [`queued ${formatDateTime(r.created_at)}`];
  if (r.status === "queued" || r.status === "deferred") steps.push(`next try ${formatDateTime(r.send_after)}`);
  if (r.sent_at) steps.push(`sent ${formatDateTime(r.sent_at)}`);
  if (r.delivered_at) steps.push(`delivered ${formatDateTime(r.delivered_at)}`);
  if (r.bounced_at) steps.push(`bounced ${formatDateTime(r.bounced_at)}`);
  return steps.join(" → ");
}

export function NotificationLog(props: {
  rows: MailLogRow[];
  statuses: string[];
  kinds: { label: string; value: string }[];
  filters: { status: string; kind: string; customer: string };
}) {
  const format = useFormat();
  const { rows, statuses, kinds, filters } = props;
  const navigate = useNavigate();
  // A held message may have reached the customer: only the merchant sends it again
  // (docs/decisions/133). One fetcher for the log: a resent row leaves the "Held" view at once.
  const resender = useFetcher<{ ok: boolean; message?: string; error?: string }>();
  const resent = resender.state === "idle" ? resender.data : undefined;
  useEffect(() => {
    if (resent) window.shopify?.toast.show(resent.ok ? resent.message! : resent.error!);
  }, [resent]);
  const { mode, setMode } = useSetIndexFiltersMode();
  const [query, setQuery] = useState(filters.customer);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const apply = (next: Partial<typeof filters>) => {
    const merged = { ...filters, ...next };
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(merged)) if (v) p.set(k, v);
    navigate(`/app/notifications${p.size ? `?${p}` : ""}#log`, { replace: true, preventScrollReset: true });
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  const wrap = useFocusableTableScroll("Message log", [rows]);
  const tabs = ["", ...statuses].map((s, i) => ({ id: `status-${s || "all"}`, content: s ? s.charAt(0).toUpperCase() + s.slice(1) : "All", index: i }));
  const selected = Math.max(0, ["", ...statuses].indexOf(filters.status));
  const kindLabel = kinds.find((k) => k.value === filters.kind)?.label;

  return (
    <Card padding="0">
      <IndexFilters
        queryValue={query}
        queryPlaceholder="Search by customer id"
        onQueryChange={(v) => {
          setQuery(v);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => apply({ customer: v.trim() }), 400);
        }}
        onQueryClear={() => {
          setQuery("");
          apply({ customer: "" });
        }}
        tabs={tabs}
        selected={selected}
        onSelect={(i) => apply({ status: ["", ...statuses][i] ?? "" })}
        filters={[
          {
            key: "kind",
            label: "Message",
            shortcut: true,
            filter: (
              <ChoiceList
                title="Message"
                titleHidden
                choices={kinds}
                selected={filters.kind ? [filters.kind] : []}
                onChange={(v) => apply({ kind: v[0] ?? "" })}
              />
            ),
          },
        ]}
        appliedFilters={kindLabel ? [{ key: "kind", label: `Message: ${kindLabel}`, onRemove: () => apply({ kind: "" }) }] : []}
        onClearAll={() => {
          setQuery("");
          apply({ kind: "", customer: "" });
        }}
        mode={mode}
        setMode={setMode}
        canCreateNewView={false}
        filteringAccessibilityTooltip="Filter the log"
      />
      <div ref={wrap}>
        <IndexTable
          resourceName={{ singular: "message", plural: "messages" }}
          itemCount={rows.length}
          selectable={false}
          emptyState={
            <div style={{ padding: "1rem" }}>
              <Text as="p">No messages match.</Text>
            </div>
          }
          headings={[{ title: "Message" }, { title: "Status" }, { title: "Customer" }, { title: "Lifecycle" }, { title: "SMTP reply and reason" }]}
        >
          {rows.map((r, i) => (
            <IndexTable.Row id={r.id} key={r.id} position={i}>
              <IndexTable.Cell>
                <BlockStack gap="050">
                  <Text as="span" fontWeight="semibold">
                    {r.title}
                  </Text>
                  <Text as="span" tone="subdued">
                    {kinds.find((k) => k.value === r.event)?.label ?? r.event}
                  </Text>
                </BlockStack>
              </IndexTable.Cell>
              <IndexTable.Cell>
                <StatusPill status={r.status} />
              </IndexTable.Cell>
              <IndexTable.Cell>{r.customer_id.split("/").pop()}</IndexTable.Cell>
              <IndexTable.Cell>
                <Text as="span" variant="bodySm">
                  {lifecycle(r, format)}
                  {r.attempts > 1 ? ` (${r.attempts} attempts)` : ""}
                </Text>
              </IndexTable.Cell>
              <IndexTable.Cell>
                <BlockStack gap="050">
                  {r.smtp_response && (
                    <Text as="span" variant="bodySm">
                      {r.smtp_response}
                    </Text>
                  )}
                  {r.reason && r.reason !== r.smtp_response && (
                    <Text as="span" variant="bodySm" tone="subdued">
                      {r.reason}
                    </Text>
                  )}
                  {r.status === "held" && (
                    <Button
                      size="slim"
                      loading={resender.state !== "idle" && resender.formData?.get("id") === r.id}
                      onClick={() => resender.submit({ intent: "resend", id: r.id }, { method: "post" })}
                    >
                      Resend
                    </Button>
                  )}
                </BlockStack>
              </IndexTable.Cell>
            </IndexTable.Row>
          ))}
        </IndexTable>
      </div>
    </Card>
  );
}
