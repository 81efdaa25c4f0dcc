// The API keys page's list (docs/decisions/150-keys-list.md): an IndexTable of the shop's keys,
// 20 to a page, with tabs for active and ended keys, a search by name and a kind filter, all
// kept in the address (?status, ?kind, ?q, ?page) so a view can be reloaded or shared.
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, ChoiceList, IndexFilters, IndexTable, Text, useBreakpoints, useSetIndexFiltersMode } from "@shopify/polaris";
import { useFormat } from "./shop-format";

export const KEYS_PAGE_SIZE = 20;

export interface KeysQuery {
  status: "all" | "active" | "ended";
  kind: "" | "SECRET" | "PUBLISHABLE";
  q: string;
  page: number;
}

/** The list's view from the address; anything unknown (Shopify's own frame parameters too) is ignored. */
export function keysQuery(params: URLSearchParams): KeysQuery {
  const status = params.get("status");
  const kind = params.get("kind");
  const page = Number(params.get("page"));
  return {
    status: status === "active" || status === "ended" ? status : "all",
    kind: kind === "SECRET" || kind === "PUBLISHABLE" ? kind : "",
    q: (params.get("q") ?? "").trim().slice(0, 100),
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

interface Selectable {
  name: string;
  kind: string;
  state: "active" | "revoked" | "expired";
}

/** One page of the keys the view selects, newest first as given. */
export function selectKeys<T extends Selectable>(keys: T[], query: KeysQuery, size: number): { rows: T[]; total: number; hasNext: boolean } {
  const q = query.q.toLowerCase();
  const matching = keys.filter(
    (k) =>
      (query.status === "all" || (query.status === "active" ? k.state === "active" : k.state !== "active")) &&
      (!query.kind || k.kind === query.kind) &&
      (!q || k.name.toLowerCase().includes(q)),
  );
  const start = (query.page - 1) * size;
  return { rows: matching.slice(start, start + size), total: matching.length, hasNext: start + size < matching.length };
}

export interface KeyRow {
  id: string;
  name: string;
  kind: string;
  scopes: string[];
  hint: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  state: string;
  /** null: the figures could not be read just now (app/domain/keys/usage.server.ts), not "no traffic". */
  usage: { requests: number; client_errors: number; server_errors: number; rate_limited: number } | null;
}

const TABS = [
  { id: "all", label: "All" },
  { id: "active", label: "Active" },
  { id: "ended", label: "Revoked or expired" },
] as const;

const KIND_LABEL: Record<string, string> = { SECRET: "Secret", PUBLISHABLE: "Publishable" };

export function KeysTable<R extends KeyRow>(props: { keys: R[]; query: KeysQuery; total: number; hasNext: boolean; onRevoke: (k: R) => void }) {
  const { formatDate } = useFormat();
  const { keys, query, total, hasNext, onRevoke } = props;
  const navigate = useNavigate();
  const { smDown } = useBreakpoints();
  const { mode, setMode } = useSetIndexFiltersMode();
  const [search, setSearch] = useState(query.q);
  useEffect(() => setSearch(query.q), [query.q]);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);

  const go = (next: Partial<KeysQuery>) => {
    const v = { ...query, page: 1, ...next };
    const p = new URLSearchParams();
    if (v.status !== "all") p.set("status", v.status);
    if (v.kind) p.set("kind", v.kind);
    if (v.q) p.set("q", v.q);
    if (v.page > 1) p.set("page", String(v.page));
    navigate(`/app/keys${p.size ? `?${p}` : ""}`, { replace: true, preventScrollReset: true });
  };

  return (
    <Card padding="0">
      <div style={{ padding: "var(--p-space-300) var(--p-space-400) 0" }}>
        <Text as="h2" variant="headingMd">
          {`Keys (${total})`}
        </Text>
      </div>
      <IndexFilters
        queryValue={search}
        queryPlaceholder="Search keys by name"
        onQueryChange={(v) => {
          setSearch(v);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => go({ q: v.trim() }), 400);
        }}
        onQueryClear={() => {
          setSearch("");
          go({ q: "" });
        }}
        tabs={TABS.map((t, i) => ({ id: t.id, content: t.label, index: i }))}
        selected={Math.max(
          0,
          TABS.findIndex((t) => t.id === query.status),
        )}
        onSelect={(i) => go({ status: TABS[i].id })}
        filters={[
          {
            key: "kind",
            label: "Kind",
            filter: (
              <ChoiceList
                title="Kind"
                titleHidden
                choices={[
                  { label: "Secret", value: "SECRET" },
                  { label: "Publishable", value: "PUBLISHABLE" },
                ]}
                selected={query.kind ? [query.kind] : []}
                onChange={(v) => go({ kind: (v[0] ?? "") as KeysQuery["kind"] })}
              />
            ),
            shortcut: true,
          },
        ]}
        appliedFilters={query.kind ? [{ key: "kind", label: `Kind: ${KIND_LABEL[query.kind]}`, onRemove: () => go({ kind: "" }) }] : []}
        onClearAll={() => {
          setSearch("");
          go({ q: "", kind: "" });
        }}
        mode={mode}
        setMode={setMode}
        canCreateNewView={false}
        filteringAccessibilityTooltip="Search and filter"
      />
      <IndexTable
        resourceName={{ singular: "key", plural: "keys" }}
        itemCount={keys.length}
        selectable={false}
        condensed={smDown}
        emptyState={
          <div style={{ padding: "1.5rem", textAlign: "center" }}>
            <Text as="p">{total === 0 && !query.q && !query.kind && query.status === "all" ? "No keys yet." : "No keys match."}</Text>
          </div>
        }
        headings={[
          { title: "Name" },
          { title: "Key" },
          { title: "Scopes" },
          { title: "Status" },
          { title: "Last used" },
          { title: "Last 30 days" },
          { title: "Action" },
        ]}
        pagination={{
          hasNext,
          onNext: () => go({ page: query.page + 1 }),
          hasPrevious: query.page > 1,
          onPrevious: () => go({ page: query.page - 1 }),
          label: `Page ${query.page} of ${Math.max(1, Math.ceil(total / KEYS_PAGE_SIZE))}`,
          accessibilityLabels: { previous: "Previous page", next: "Next page" },
        }}
      >
        {keys.map((k, i) => {
          const status = (
            <Badge tone={k.state === "active" ? "success" : "critical"}>
              {k.state === "active" ? "Active" : k.state === "revoked" ? "Revoked" : "Expired"}
            </Badge>
          );
          const usage = k.usage
            ? `${k.usage.requests} requests, ${k.usage.client_errors} refused, ${k.usage.server_errors} failed, ${k.usage.rate_limited} rate-limited`
            : "Usage figures are unavailable right now; try again in a minute";
          const revoke = k.state === "active" && (
            <Button size="slim" tone="critical" onClick={() => onRevoke(k)} accessibilityLabel={`Revoke ${k.name}`}>
              Revoke
            </Button>
          );
          const name = (
            <BlockStack gap="050">
              <Text as="span" fontWeight="semibold" breakWord>
                {k.name}
              </Text>
              <Text as="span" tone="subdued" variant="bodySm">
                {`${KIND_LABEL[k.kind] ?? k.kind} · created ${formatDate(k.createdAt)} · expires ${k.expiresAt ? formatDate(k.expiresAt) : "never"}`}
              </Text>
            </BlockStack>
          );
          return (
            <IndexTable.Row id={k.id} key={k.id} position={i}>
              {smDown ? (
                <div style={{ padding: "var(--p-space-300) var(--p-space-400)" }}>
                  <BlockStack gap="100">
                    {name}
                    <Text as="span" breakWord>
                      <code>{k.hint}</code>
                    </Text>
                    <Text as="span" breakWord>{`Scopes: ${k.scopes.join(", ") || "none"}`}</Text>
                    <div>{status}</div>
                    <Text as="span" tone="subdued">{`Last used ${formatDate(k.lastUsedAt)} · Last 30 days: ${usage}`}</Text>
                    {revoke && <div>{revoke}</div>}
                  </BlockStack>
                </div>
              ) : (
                <>
                  <IndexTable.Cell>{name}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <code>{k.hint}</code>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <div style={{ maxWidth: "16rem", whiteSpace: "normal" }}>
                      <Text as="span" breakWord>
                        {k.scopes.join(", ") || "none"}
                      </Text>
                    </div>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{status}</IndexTable.Cell>
                  <IndexTable.Cell>{formatDate(k.lastUsedAt)}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <div style={{ maxWidth: "14rem", whiteSpace: "normal" }}>{usage}</div>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{revoke}</IndexTable.Cell>
                </>
              )}
            </IndexTable.Row>
          );
        })}
      </IndexTable>
    </Card>
  );
}
