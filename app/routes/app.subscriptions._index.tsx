// Subscriptions: the mirror's contracts with the shared filters (app/domain/subscriptions/filters.server.ts,
// the same module as the export's `subscriptions` dataset and GET /subscriptions; the wire form is
// app/surfaces/subscription-filters.ts) and keyset paging (a signed cursor bound to the shop).
import { useState } from "react";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  FormLayout,
  InlineGrid,
  InlineStack,
  Layout,
  Page,
  ResourceItem,
  ResourceList,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { adminContext } from "../embedded/context.server";
import { formatDate, formatMoney } from "../embedded/format";
import { StatusBadge } from "../embedded/status-badge";
import { decodeCursor, encodeCursor } from "../http/cursor.server";
import { listSubscriptions } from "../domain/subscriptions/reads.server";
import { subscriptionRows, type SubscriptionJson } from "../surfaces/admin/wire";
import { FRAME_PARAMS } from "../embedded/frame-params";
import { parseSubscriptionFilterQuery, SUBSCRIPTION_FILTER_NAMES, type SubscriptionFilterName } from "../surfaces/subscription-filters";
import { ApiError } from "../infra/errors";

const PAGE_SIZE = 25;

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  const params = new URL(request.url).searchParams;
  const query = Object.fromEntries(SUBSCRIPTION_FILTER_NAMES.map((n) => [n, params.get(n) ?? ""])) as Record<SubscriptionFilterName, string>;
  const none: SubscriptionJson[] = [];
  const parsed = parseSubscriptionFilterQuery(params, ["cursor", ...FRAME_PARAMS]);
  if (!parsed.ok) return json({ query, error: parsed.message, rows: none, nextCursor: null, paged: false });
  let after = null;
  const cursor = params.get("cursor");
  if (cursor) {
    try {
      after = decodeCursor(cursor, shop.id);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return json({ query, error: "That page link is no longer valid; start from the first page.", rows: none, nextCursor: null, paged: true });
    }
  }
  const page = subscriptionRows(await listSubscriptions({ shopId: shop.id, filters: parsed.filters, page: { limit: PAGE_SIZE, after } }));
  return json({ query, error: null, rows: page.data, nextCursor: page.next ? encodeCursor(page.next, shop.id) : null, paged: !!cursor });
};

const STATUS_OPTIONS = [
  { label: "Any status", value: "" },
  { label: "Active", value: "ACTIVE" },
  { label: "Paused", value: "PAUSED" },
  { label: "Cancelled", value: "CANCELLED" },
  { label: "Expired", value: "EXPIRED" },
];

export default function Subscriptions() {
  const { query, error, rows, nextCursor, paged } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const loading = useNavigation().state === "loading";
  const [f, setF] = useState<Record<string, string>>(query);
  const set = (name: SubscriptionFilterName) => (value: string) => setF((prev) => ({ ...prev, [name]: value }));
  const search = (values: Record<string, string>, cursor?: string) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(values)) if (v.trim()) p.set(k, v.trim());
    if (cursor) p.set("cursor", cursor);
    navigate(`/app/subscriptions${p.size ? `?${p}` : ""}`);
  };
  const applied = Object.fromEntries(Object.entries(query).filter(([, v]) => v));

  return (
    <Page title="Subscriptions" subtitle="Contracts this app created, as Shopify last reported them.">
      <Layout>
        <Layout.Section>
          <Card>
            <form
              role="search"
              aria-label="Filter subscriptions"
              onSubmit={(e) => {
                e.preventDefault();
                search(f);
              }}
            >
              <FormLayout>
                <TextField label="Search" value={f.q} onChange={set("q")} autoComplete="off" helpText="Product, order name or any id" />
                <InlineGrid columns={{ xs: 1, sm: 2, md: 3 }} gap="300">
                  <Select label="Status" options={STATUS_OPTIONS} value={f.status} onChange={set("status")} />
                  <Select
                    label="View"
                    options={[
                      { label: "All subscriptions", value: "" },
                      { label: "Upcoming renewals", value: "renewals" },
                    ]}
                    value={f.view}
                    onChange={set("view")}
                  />
                  <TextField label="Product" value={f.product} onChange={set("product")} autoComplete="off" />
                  <TextField label="Frequency" value={f.frequency} onChange={set("frequency")} autoComplete="off" placeholder="Every month" />
                  <TextField label="Plan id" value={f.plan} onChange={set("plan")} autoComplete="off" placeholder="gid://shopify/SellingPlanGroup/…" />
                  <TextField label="Customer id" value={f.customer_id} onChange={set("customer_id")} autoComplete="off" />
                  <TextField label="Amount from" value={f.amount_min} onChange={set("amount_min")} autoComplete="off" inputMode="decimal" />
                  <TextField label="Amount to" value={f.amount_max} onChange={set("amount_max")} autoComplete="off" inputMode="decimal" />
                  <TextField label="Next charge from" type="date" value={f.next_from} onChange={set("next_from")} autoComplete="off" />
                  <TextField label="Next charge to" type="date" value={f.next_to} onChange={set("next_to")} autoComplete="off" />
                </InlineGrid>
                <InlineStack gap="200">
                  <Button submit variant="primary" loading={loading}>
                    Apply filters
                  </Button>
                  <Button
                    onClick={() => {
                      const empty = Object.fromEntries(SUBSCRIPTION_FILTER_NAMES.map((n) => [n, ""]));
                      setF(empty);
                      search(empty);
                    }}
                  >
                    Clear
                  </Button>
                </InlineStack>
              </FormLayout>
            </form>
          </Card>
        </Layout.Section>
        <Layout.Section>
          {error ? (
            <Banner tone="critical" title="Check the filters">
              <p>{error}</p>
            </Banner>
          ) : (
            <BlockStack gap="300">
              <Card padding="0">
                <ResourceList
                  resourceName={{ singular: "subscription", plural: "subscriptions" }}
                  items={rows}
                  emptyState={
                    <Box padding="400">
                      <Text as="p">No subscriptions match.</Text>
                    </Box>
                  }
                  renderItem={(s) => {
                    const number = s.contract_id.split("/").pop()!;
                    return (
                      <ResourceItem id={number} url={`/app/subscriptions/${number}`} accessibilityLabel={`Subscription ${number}`}>
                        <BlockStack gap="100">
                          <InlineStack gap="200" blockAlign="center" wrap>
                            <Text as="h3" variant="headingSm">
                              Subscription {number}
                            </Text>
                            <StatusBadge status={s.status} />
                          </InlineStack>
                          <Text as="p">
                            {s.product_title ?? "—"} · {s.frequency_label ?? "—"} · {formatMoney(s.charge_amount)}
                          </Text>
                          <Text as="p" tone="subdued">
                            Next charge {formatDate(s.next_billing_at)} · {s.order_name ?? s.customer_id}
                          </Text>
                        </BlockStack>
                      </ResourceItem>
                    );
                  }}
                />
              </Card>
              <InlineStack gap="200">
                {paged && <Button onClick={() => search(applied)}>First page</Button>}
                {nextCursor && <Button onClick={() => search(applied, nextCursor)}>Next page</Button>}
              </InlineStack>
            </BlockStack>
          )}
        </Layout.Section>
      </Layout>
    </Page>
  );
}
