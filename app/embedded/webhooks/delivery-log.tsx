// The delivery log: filters by endpoint, status and event; each attempt's outcome; resend (docs/decisions/075-webhooks-page.md).
import { useEffect, useState } from "react";
import { useNavigate, useNavigation, useRevalidator } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, FormLayout, InlineGrid, InlineStack, Select, Text } from "@shopify/polaris";
import { useFormat } from "../shop-format";
import { formatInstant, capital, type Data, type DeliveryRow } from "./types";

const DELIVERY_TONE: Record<string, "info" | "success" | "warning" | "critical"> = {
  pending: "info",
  delivered: "success",
  failed: "warning",
  exhausted: "critical",
};
export function DeliveryBadge({ status }: { status: string }) {
  return <Badge tone={DELIVERY_TONE[status]}>{capital(status)}</Badge>;
}

export function DeliveryItem({ d, busy, onResend }: { d: DeliveryRow; busy: boolean; onResend: (id: string) => void }) {
  const { formatDateTime } = useFormat();
  return (
    <Box padding="400" borderBlockStartWidth="025" borderColor="border">
      <BlockStack gap="200">
        <InlineStack gap="200" blockAlign="center" wrap>
          <Text as="h3" variant="headingSm">
            {d.event}
          </Text>
          <DeliveryBadge status={d.status} />
          {d.test && <Badge>Test event</Badge>}
          {d.manual && <Badge tone="info">Manual</Badge>}
        </InlineStack>
        <Text as="p" breakWord tone="subdued">
          To {d.endpointUrl} · {formatDateTime(d.createdAt)} · {d.eventId}
        </Text>
        <Text as="p" breakWord>
          {d.attempts === 1 ? "1 attempt" : `${d.attempts} attempts`}
          {d.deliveredAt ? ` · delivered ${formatDateTime(d.deliveredAt)}` : ""}
          {d.nextAttemptAt ? ` · next attempt ${formatDateTime(d.nextAttemptAt)}` : ""}
          {d.lastError && d.status !== "delivered" ? ` · last error: ${d.lastError}` : ""}
        </Text>
        {d.attemptLog.length > 0 && (
          <ol aria-label={`Attempts of ${d.event} ${d.id}`} style={{ margin: 0, paddingInlineStart: "1.5em" }}>
            {d.attemptLog.map((a) => (
              <li key={a.number}>
                <Text as="span" breakWord>
                  {formatInstant(a.finishedAt)} · {a.responseCode === null ? "no response" : `HTTP ${a.responseCode}`} · {capital(a.outcome)}
                  {a.manual ? " (manual)" : ""}
                  {a.error && a.outcome !== "delivered" ? ` · ${a.error}` : ""}
                </Text>
              </li>
            ))}
          </ol>
        )}
        {d.body && (
          <details>
            <summary>
              <Text as="span" variant="bodySm">
                Body sent
              </Text>
            </summary>
            <pre style={{ whiteSpace: "pre-wrap", wordBreak: "break-all", fontSize: "12px", margin: 0 }} aria-label={`Body sent for ${d.eventId}`}>
              {d.body}
            </pre>
          </details>
        )}
        {(d.status === "failed" || d.status === "exhausted") && (
          <InlineStack>
            <Button onClick={() => onResend(d.id)} disabled={busy} accessibilityLabel={`Resend ${d.event} ${d.id}`}>
              Resend
            </Button>
          </InlineStack>
        )}
      </BlockStack>
    </Box>
  );
}

export function DeliveryLog({ data, busy, onResend }: { data: Data; busy: boolean; onResend: (id: string) => void }) {
  const navigate = useNavigate();
  const loading = useNavigation().state === "loading";
  const revalidator = useRevalidator();
  const [f, setF] = useState(data.filters);
  useEffect(() => setF(data.filters), [data.filters]);
  const search = (values: Record<string, string>, cursor?: string) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(values)) if (v) p.set(k, v);
    if (cursor) p.set("cursor", cursor);
    navigate(`/app/webhooks${p.size ? `?${p}` : ""}`);
  };
  return (
    <Card padding="0">
      <Box padding="400">
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            Delivery log
          </Text>
          <form
            role="search"
            aria-label="Filter deliveries"
            onSubmit={(e) => {
              e.preventDefault();
              search(f);
            }}
          >
            <FormLayout>
              <InlineGrid columns={{ xs: 1, sm: 3 }} gap="300">
                <Select
                  label="Endpoint"
                  options={[{ label: "Any endpoint", value: "" }, ...data.endpoints.map((e) => ({ label: e.url, value: e.id }))]}
                  value={f.endpoint}
                  onChange={(v) => setF((p) => ({ ...p, endpoint: v }))}
                />
                <Select
                  label="Delivery status"
                  options={[{ label: "Any status", value: "" }, ...data.statuses.map((s) => ({ label: capital(s), value: s }))]}
                  value={f.status}
                  onChange={(v) => setF((p) => ({ ...p, status: v as typeof p.status }))}
                />
                <Select
                  label="Event"
                  options={[{ label: "Any event", value: "" }, ...data.catalogue.map((e) => ({ label: e.name, value: e.name }))]}
                  value={f.event}
                  onChange={(v) => setF((p) => ({ ...p, event: v }))}
                />
              </InlineGrid>
              <InlineStack gap="200" wrap>
                <Button submit variant="primary" loading={loading}>
                  Apply filters
                </Button>
                <Button onClick={() => search({})}>Clear</Button>
                <Button onClick={() => revalidator.revalidate()} loading={revalidator.state !== "idle"}>
                  Refresh
                </Button>
              </InlineStack>
            </FormLayout>
          </form>
          {data.cursorError && (
            <Banner tone="warning">
              <p>{data.cursorError}</p>
            </Banner>
          )}
        </BlockStack>
      </Box>
      {data.deliveries.length === 0 ? (
        <Box padding="400" borderBlockStartWidth="025" borderColor="border">
          <Text as="p">No deliveries match. Events are delivered to enabled endpoints subscribed to them.</Text>
        </Box>
      ) : (
        <ul aria-label="Deliveries" style={{ listStyle: "none", margin: 0, padding: 0 }}>
          {data.deliveries.map((d) => (
            <li key={d.id}>
              <DeliveryItem d={d} busy={busy} onResend={onResend} />
            </li>
          ))}
        </ul>
      )}
      {(data.paged || data.nextCursor) && (
        <Box padding="400" borderBlockStartWidth="025" borderColor="border">
          <InlineStack gap="200">
            {data.paged && <Button onClick={() => search(data.filters)}>Newest</Button>}
            {data.nextCursor && <Button onClick={() => search(data.filters, data.nextCursor!)}>Older deliveries</Button>}
          </InlineStack>
        </Box>
      )}
    </Card>
  );
}
