// Subscriptions: the mirror's contracts with the shared filters (app/domain/subscriptions/filters.server.ts,
// the same module as the export's `subscriptions` dataset and GET /subscriptions; the wire form is
// app/surfaces/subscription-filters.ts) and keyset paging (a signed cursor bound to the shop).
// The view lives in the address (tabs, search, filters), so a bookmark, a reload or a shared link
// shows the same list. Customers appear by name and e-mail, read live from Shopify, and the search
// finds them by either (docs/decisions/134-customer-names-live.md).
import { useEffect, useRef, useState } from "react";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData, useNavigate } from "@remix-run/react";
import { Banner, BlockStack, Card, IndexFilters, IndexTable, Layout, Link, Page, Select, Text, TextField, useSetIndexFiltersMode } from "@shopify/polaris";
import { adminContext } from "../embedded/context.server";
import { useFormat } from "../embedded/shop-format";
import { StatusBadge } from "../embedded/status-badge";
import { decodeCursor, encodeCursor } from "../http/cursor.server";
import { listSubscriptions } from "../domain/subscriptions/reads.server";
import { customerNames, customersMatching, displayName } from "../domain/subscriptions/customer-names.server";
import { log } from "../infra/log.server";
import { subscriptionRows, type SubscriptionJson } from "../surfaces/admin/wire";
import { FRAME_PARAMS } from "../embedded/frame-params";
import { parseSubscriptionFilterQuery, SUBSCRIPTION_FILTER_NAMES, type SubscriptionFilterName } from "../surfaces/subscription-filters";
import { ApiError } from "../infra/errors";
import { planGroupOptions } from "../domain/catalog/selling-plans.server";

const PAGE_SIZE = 25;

/** The tabs: saved views of the list. FAILED is the page's own status (the API's filter has four). */
const TABS = [
  { id: "all", label: "All", params: {} },
  { id: "renewals", label: "Upcoming renewals", params: { view: "renewals" } },
  { id: "active", label: "Active", params: { status: "ACTIVE" } },
  { id: "paused", label: "Paused", params: { status: "PAUSED" } },
  { id: "failed", label: "Failed", params: { status: "FAILED" } },
  { id: "cancelled", label: "Cancelled", params: { status: "CANCELLED" } },
  { id: "expired", label: "Expired", params: { status: "EXPIRED" } },
] as const;

type Row = SubscriptionJson & { customer_name: string | null; customer_email: string | null };

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  const params = new URL(request.url).searchParams;
  const query = Object.fromEntries(SUBSCRIPTION_FILTER_NAMES.map((n) => [n, params.get(n) ?? ""])) as Record<SubscriptionFilterName, string>;
  const failedTab = params.get("status")?.toUpperCase() === "FAILED";
  const none: Row[] = [];
  // The plan filter offers the shop's plans by name (the wire value is the group's id).
  const plans = await planGroupOptions(shop.id);
  const result = (r: { error: string | null; rows: Row[]; nextCursor: string | null; paged: boolean; namesUnavailable?: boolean; plans: typeof plans }) =>
    json({ query, namesUnavailable: false, ...r });
  const wire = new URLSearchParams(params);
  if (failedTab) wire.delete("status");
  const parsed = parseSubscriptionFilterQuery(wire, ["cursor", ...FRAME_PARAMS]);
  if (!parsed.ok) return result({ error: filterError(parsed.field), rows: none, nextCursor: null, paged: false, plans });
  const filters = failedTab ? { ...parsed.filters, status: "FAILED" as const } : parsed.filters;
  let after = null;
  const cursor = params.get("cursor");
  if (cursor) {
    try {
      after = decodeCursor(cursor, shop.id);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return result({ error: "That page link is no longer valid; start from the first page.", rows: none, nextCursor: null, paged: true, plans });
    }
  }
  // Names come from Shopify: when it cannot answer, the list still shows, without them.
  let namesUnavailable = false;
  const fromShopify = async <T,>(read: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await read();
    } catch (err) {
      log.warn("customer names unavailable", { shop: shop.domain, err });
      namesUnavailable = true;
      return fallback;
    }
  };
  if (filters.q) filters.qCustomerGids = (await fromShopify(() => customersMatching(shop, filters.q!), [])).map((c) => c.id);
  const page = subscriptionRows(await listSubscriptions({ shopId: shop.id, filters, page: { limit: PAGE_SIZE, after } }));
  const names = await fromShopify(
    () =>
      customerNames(
        shop,
        page.data.map((r) => r.customer_id),
      ),
    new Map(),
  );
  const rows: Row[] = page.data.map((r) => ({
    ...r,
    customer_name: displayName(names.get(r.customer_id)),
    customer_email: names.get(r.customer_id)?.email ?? null,
  }));
  return result({ error: null, rows, nextCursor: page.next ? encodeCursor(page.next, shop.id) : null, paged: !!cursor, namesUnavailable, plans });
};

/** The filters other than the tabs and the search, each a text field in IndexFilters' popovers. */
const TEXT_FILTERS: { key: SubscriptionFilterName; label: string; placeholder?: string; type?: "date"; inputMode?: "decimal" }[] = [
  { key: "product", label: "Product" },
  { key: "frequency", label: "Frequency", placeholder: "Every month" },
  { key: "amount_min", label: "Amount from", inputMode: "decimal" },
  { key: "amount_max", label: "Amount to", inputMode: "decimal" },
  { key: "next_from", label: "Next charge from", type: "date" },
  { key: "next_to", label: "Next charge to", type: "date" },
];

/** The filter API's messages name fields and values for developers; the merchant reads these. */
function filterError(field: string | null): string {
  const label = TEXT_FILTERS.find((f) => f.key === field)?.label;
  if (field === "amount_min" || field === "amount_max") return `“${label}” must be an amount, like 25 or 25.50.`;
  if (field === "next_from" || field === "next_to") return `“${label}” must be a date.`;
  if (field === "plan") return "That plan no longer exists. Choose another plan.";
  if (field === "customer_id") return "That customer link is not valid. Search for the customer by name or e-mail instead.";
  if (field === "status") return "That status does not exist. Choose a tab instead.";
  return "This address holds a filter the page does not know. Clear the filters to start again.";
}

const ENDED = new Set(["CANCELLED", "EXPIRED"]);

export default function Subscriptions() {
  const { formatDate, formatMoney } = useFormat();
  const { query, error, rows, nextCursor, paged, namesUnavailable, plans } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const { mode, setMode } = useSetIndexFiltersMode();
  const [search, setSearch] = useState(query.q);
  const [draft, setDraft] = useState<Record<string, string>>(query);
  useEffect(() => setDraft(query), [query]);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);

  const go = (values: Record<string, string>, cursor?: string) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(values)) if (v.trim()) p.set(k, v.trim());
    if (cursor) p.set("cursor", cursor);
    navigate(`/app/subscriptions${p.size ? `?${p}` : ""}`, { replace: !cursor, preventScrollReset: true });
  };
  const apply = (next: Record<string, string>) => go({ ...query, ...next });
  const later = (next: Record<string, string>) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => apply(next), 500);
  };

  const tabIndex = Math.max(
    0,
    TABS.findIndex(
      (t) =>
        Object.entries(t.params).every(([k, v]) => query[k as SubscriptionFilterName].toUpperCase() === v.toUpperCase()) &&
        (t.id !== "all" || (!query.status && !query.view)),
    ),
  );
  const selectTab = (i: number) => apply({ status: "", view: "", ...TABS[i].params });

  const filters = TEXT_FILTERS.map((f) => ({
    key: f.key,
    label: f.label,
    filter: (
      <TextField
        label={f.label}
        labelHidden
        type={f.type}
        inputMode={f.inputMode}
        placeholder={f.placeholder}
        value={draft[f.key]}
        onChange={(v) => {
          setDraft((d) => ({ ...d, [f.key]: v }));
          later({ [f.key]: v });
        }}
        autoComplete="off"
      />
    ),
  }));
  filters.push({
    key: "plan",
    label: "Plan",
    filter: (
      <Select
        label="Plan"
        labelHidden
        options={[{ label: "Any plan", value: "" }, ...plans]}
        value={plans.some((p) => p.value === query.plan) ? query.plan : ""}
        onChange={(v) => apply({ plan: v })}
      />
    ),
  });
  const appliedFilters = [
    ...TEXT_FILTERS.filter((f) => query[f.key]).map((f) => ({
      key: f.key,
      label: `${f.label}: ${query[f.key]}`,
      onRemove: () => apply({ [f.key]: "" }),
    })),
    ...(query.plan
      ? [{ key: "plan", label: `Plan: ${plans.find((p) => p.value === query.plan)?.label ?? "a plan"}`, onRemove: () => apply({ plan: "" }) }]
      : []),
    // A link from elsewhere may name one customer; the search box finds customers by name.
    ...(query.customer_id ? [{ key: "customer_id", label: "One customer", onRemove: () => apply({ customer_id: "" }) }] : []),
  ];

  return (
    <Page title="Subscriptions" subtitle="Contracts this app created, as Shopify last reported them.">
      <Layout>
        {namesUnavailable && (
          <Layout.Section>
            <Banner tone="warning" title="Customer names are not shown">
              <p>Shopify did not answer in time, so names and e-mails are missing and the search matches products and ids only. Reload to try again.</p>
            </Banner>
          </Layout.Section>
        )}
        {error && (
          <Layout.Section>
            <Banner tone="critical" title="Check the filters">
              <p>{error}</p>
            </Banner>
          </Layout.Section>
        )}
        <Layout.Section>
          <Card padding="0">
            <IndexFilters
              queryValue={search}
              queryPlaceholder="Search by customer name, e-mail, product or order"
              onQueryChange={(v) => {
                setSearch(v);
                later({ q: v });
              }}
              onQueryClear={() => {
                setSearch("");
                apply({ q: "" });
              }}
              tabs={TABS.map((t, i) => ({ id: t.id, content: t.label, index: i }))}
              selected={tabIndex}
              onSelect={selectTab}
              filters={filters}
              appliedFilters={appliedFilters}
              onClearAll={() => {
                setSearch("");
                go({ status: query.status, view: query.view });
              }}
              mode={mode}
              setMode={setMode}
              // Without it, the search and filter bar has no way back to the tabs once opened.
              cancelAction={{
                onAction: () => {
                  if (!search) return;
                  setSearch("");
                  apply({ q: "" });
                },
              }}
              canCreateNewView={false}
              filteringAccessibilityTooltip="Search and filter"
            />
            <IndexTable
              resourceName={{ singular: "subscription", plural: "subscriptions" }}
              itemCount={rows.length}
              selectable={false}
              condensed={false}
              emptyState={
                <BlockStack gap="100" inlineAlign="center">
                  <div style={{ padding: "1.5rem", textAlign: "center" }}>
                    <Text as="p">No subscriptions match.</Text>
                  </div>
                </BlockStack>
              }
              headings={[
                { title: "Subscription" },
                { title: "Customer" },
                { title: "Product" },
                { title: "Status" },
                { title: "Amount" },
                { title: "Next charge" },
              ]}
              pagination={{
                hasNext: !!nextCursor,
                onNext: () => nextCursor && go(query, nextCursor),
                hasPrevious: paged,
                onPrevious: () => go(query),
                accessibilityLabels: { previous: "First page", next: "Next page" },
              }}
            >
              {rows.map((s, i) => {
                const number = s.contract_id.split("/").pop()!;
                return (
                  <IndexTable.Row id={number} key={number} position={i}>
                    <IndexTable.Cell>
                      <Link url={`/app/subscriptions/${number}`} removeUnderline monochrome>
                        <Text as="span" fontWeight="semibold">
                          Subscription {number}
                        </Text>
                      </Link>
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <BlockStack gap="050">
                        <Text as="span">{s.customer_name ?? `Customer ${s.customer_id.split("/").pop()}`}</Text>
                        {s.customer_email && s.customer_email !== s.customer_name && (
                          <Text as="span" tone="subdued" variant="bodySm">
                            {s.customer_email}
                          </Text>
                        )}
                      </BlockStack>
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <BlockStack gap="050">
                        <Text as="span">{s.product_title ?? "—"}</Text>
                        <Text as="span" tone="subdued" variant="bodySm">
                          {s.frequency_label ?? ""}
                        </Text>
                      </BlockStack>
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <StatusBadge status={s.status} />
                    </IndexTable.Cell>
                    <IndexTable.Cell>{formatMoney(s.charge_amount)}</IndexTable.Cell>
                    <IndexTable.Cell>{ENDED.has(s.status) ? "—" : formatDate(s.next_billing_at)}</IndexTable.Cell>
                  </IndexTable.Row>
                );
              })}
            </IndexTable>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
