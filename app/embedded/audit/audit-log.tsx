// The Audit log page's table: IndexFilters (actor-type tabs, an id search, target and time filters)
// over an IndexTable of audit events. Filters live in the URL (app/embedded/audit/page.server.ts).
import { useEffect, useRef, useState } from "react";
import { useFocusableTableScroll } from "../use-focusable-table-scroll";
import { useNavigate } from "@remix-run/react";
import { Badge, BlockStack, Box, Button, Card, ChoiceList, IndexFilters, IndexTable, InlineStack, Text, useSetIndexFiltersMode } from "@shopify/polaris";
import { useFormat } from "../shop-format";

export interface AuditRow {
  id: string;
  actor: { type: string; id: string; name: string | null };
  requestId: string | null;
  action: string;
  target: { type: string; id: string };
  outcome: string;
  errorCode: string | null;
  changes: Record<string, { before: unknown; after: unknown }>;
  createdAt: string;
}

export interface AuditFiltersView {
  actor: string;
  target: string;
  since: string;
  q: string;
}

const ACTOR_LABEL: Record<string, string> = { "": "All", api_key: "API keys", staff: "Staff", customer: "Customers", system: "System" };
const SINCE_LABEL: Record<string, string> = { "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days" };
const label = (s: string) => s.replace(/_/g, " ");

function actorText(a: AuditRow["actor"]): string {
  if (a.type === "api_key") return `API key ${a.name ?? ""} (${a.id.slice(0, 8)}…)`;
  if (a.type === "staff") return `Staff user ${a.id}`;
  if (a.type === "customer") return `Customer ${a.id.split("/").pop()}`;
  return `System: ${a.id}`;
}

const show = (v: unknown) => (v === null || v === undefined ? "—" : Array.isArray(v) ? v.join(", ") : String(v));

function Changes({ changes }: { changes: AuditRow["changes"] }) {
  const entries = Object.entries(changes);
  if (!entries.length)
    return (
      <Text as="span" tone="subdued">
        No field changed
      </Text>
    );
  return (
    <BlockStack gap="050">
      {entries.map(([field, c]) => (
        <Text as="span" variant="bodySm" key={field}>
          {label(field)}: {show(c.before)} → {show(c.after)}
        </Text>
      ))}
    </BlockStack>
  );
}

export function AuditLog(props: {
  events: AuditRow[];
  filters: AuditFiltersView;
  actorTypes: readonly string[];
  targetTypes: readonly string[];
  paged: boolean;
  nextCursor: string | null;
}) {
  const { formatDateTime } = useFormat();
  const { events, filters, actorTypes, targetTypes } = props;
  const navigate = useNavigate();
  const { mode, setMode } = useSetIndexFiltersMode();
  const [query, setQuery] = useState(filters.q);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const apply = (next: Partial<AuditFiltersView>, cursor?: string) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...filters, ...next })) if (v) p.set(k, v);
    if (cursor) p.set("cursor", cursor);
    navigate(`/app/audit${p.size ? `?${p}` : ""}`, { replace: true, preventScrollReset: true });
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  const wrap = useFocusableTableScroll("Audit events", [events]);
  const tabValues = ["", ...actorTypes];
  const tabs = tabValues.map((v, i) => ({ id: `actor-${v || "all"}`, content: ACTOR_LABEL[v] ?? v, index: i }));
  const applied = [
    ...(filters.target ? [{ key: "target", label: `Target: ${label(filters.target)}`, onRemove: () => apply({ target: "" }) }] : []),
    ...(filters.since ? [{ key: "since", label: SINCE_LABEL[filters.since], onRemove: () => apply({ since: "" }) }] : []),
  ];

  return (
    <Card padding="0">
      <IndexFilters
        queryValue={query}
        queryPlaceholder="Search by actor or target id"
        onQueryChange={(v) => {
          setQuery(v);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => apply({ q: v.trim() }), 400);
        }}
        onQueryClear={() => {
          setQuery("");
          apply({ q: "" });
        }}
        tabs={tabs}
        selected={Math.max(0, tabValues.indexOf(filters.actor))}
        onSelect={(i) => apply({ actor: tabValues[i] ?? "" })}
        filters={[
          {
            key: "target",
            label: "Target",
            shortcut: true,
            filter: (
              <ChoiceList
                title="Target"
                titleHidden
                choices={targetTypes.map((t) => ({ label: label(t), value: t }))}
                selected={filters.target ? [filters.target] : []}
                onChange={(v) => apply({ target: v[0] ?? "" })}
              />
            ),
          },
          {
            key: "since",
            label: "Time",
            shortcut: true,
            filter: (
              <ChoiceList
                title="Time"
                titleHidden
                choices={Object.entries(SINCE_LABEL).map(([value, l]) => ({ label: l, value }))}
                selected={filters.since ? [filters.since] : []}
                onChange={(v) => apply({ since: v[0] ?? "" })}
              />
            ),
          },
        ]}
        appliedFilters={applied}
        onClearAll={() => {
          setQuery("");
          apply({ target: "", since: "", q: "" });
        }}
        mode={mode}
        setMode={setMode}
        canCreateNewView={false}
        filteringAccessibilityTooltip="Filter the audit log"
      />
      <div ref={wrap}>
        <IndexTable
          resourceName={{ singular: "audit event", plural: "audit events" }}
          itemCount={events.length}
          selectable={false}
          emptyState={
            <div style={{ padding: "1rem" }}>
              <Text as="p">No audit events match.</Text>
            </div>
          }
          headings={[{ title: "When" }, { title: "Action" }, { title: "Actor" }, { title: "Target" }, { title: "Outcome" }, { title: "Changes" }]}
        >
          {events.map((e, i) => (
            <IndexTable.Row id={e.id} key={e.id} position={i}>
              <IndexTable.Cell>
                <BlockStack gap="050">
                  <Text as="span">{formatDateTime(e.createdAt)}</Text>
                  {e.requestId && (
                    <Text as="span" variant="bodySm" tone="subdued">
                      {e.requestId}
                    </Text>
                  )}
                </BlockStack>
              </IndexTable.Cell>
              <IndexTable.Cell>
                <Text as="span" fontWeight="semibold">
                  {e.action}
                </Text>
              </IndexTable.Cell>
              <IndexTable.Cell>{actorText(e.actor)}</IndexTable.Cell>
              <IndexTable.Cell>
                <BlockStack gap="050">
                  <Text as="span">{label(e.target.type)}</Text>
                  <Text as="span" variant="bodySm" tone="subdued">
                    {e.target.id}
                  </Text>
                </BlockStack>
              </IndexTable.Cell>
              <IndexTable.Cell>
                <Badge tone={e.outcome === "success" ? "success" : "critical"}>
                  {e.outcome === "success" ? "Success" : `Failed: ${e.errorCode ?? "error"}`}
                </Badge>
              </IndexTable.Cell>
              <IndexTable.Cell>
                <Changes changes={e.changes} />
              </IndexTable.Cell>
            </IndexTable.Row>
          ))}
        </IndexTable>
      </div>
      {(props.paged || props.nextCursor) && (
        <Box padding="400" borderBlockStartWidth="025" borderColor="border">
          <InlineStack gap="200">
            {props.paged && <Button onClick={() => apply({})}>Newest</Button>}
            {props.nextCursor && <Button onClick={() => apply({}, props.nextCursor!)}>Older events</Button>}
          </InlineStack>
        </Box>
      )}
    </Card>
  );
}
