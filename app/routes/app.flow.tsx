// Shopify Flow: the merchant turns the app's Flow triggers on or off, sees the trigger each event
// starts, and the latest trigger calls with how they ended (docs/decisions/128-flow-triggers.md).
// The switch is the shop's flow_enabled setting; an event published while it is on fires its
// trigger through the same outbox as the webhooks.
import { useEffect } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, IndexTable, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { adminContext, staffAction } from "../embedded/context.server";
import { flowOverview, setFlowEnabled } from "../domain/outbound-webhooks/flow-settings.server";
import { FLOW_TRIGGERS } from "../domain/outbound-webhooks/flow-triggers";
import { useFocusableTableScroll } from "../embedded/use-focusable-table-scroll";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  const overview = await flowOverview(shop.id);
  const triggers = FLOW_TRIGGERS.map((t) => ({ handle: t.handle, name: t.name, description: t.description, event: t.eventType }));
  return json({ ...overview, triggers });
};

export const action = (args: ActionFunctionArgs) =>
  staffAction(args, async ({ request }: ActionFunctionArgs) => {
    const { shop } = await adminContext(request);
    const enabled = (await request.formData()).get("enabled");
    if (enabled !== "true" && enabled !== "false") return json({ ok: false as const, error: "Choose on or off." }, 400);
    await setFlowEnabled(shop.id, enabled === "true");
    return json({ ok: true as const, message: enabled === "true" ? "Flow triggers turned on" : "Flow triggers turned off" });
  });

const STATUS_TONE = { sent: "success", pending: "info", refused: "critical", failed: "critical" } as const;
const STATUS_LABEL = { sent: "Sent", pending: "Pending", refused: "Refused by Flow", failed: "Failed" } as const;

export default function FlowPage() {
  const d = useLoaderData<typeof loader>();
  const fetcher = useFetcher<typeof action>();
  const wrap = useFocusableTableScroll("Flow trigger calls", [d.calls]);
  const busy = fetcher.state !== "idle";
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) window.shopify?.toast.show(fetcher.data.message);
  }, [fetcher.state, fetcher.data]);

  return (
    <Page title="Shopify Flow" subtitle="Start Flow workflows from subscription, payment and gift events.">
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <InlineStack gap="200" blockAlign="center">
                <Text as="h2" variant="headingMd">
                  Flow triggers
                </Text>
                <Badge tone={d.enabled ? "success" : undefined}>{d.enabled ? "On" : "Off"}</Badge>
              </InlineStack>
              <Text as="p">
                {d.enabled
                  ? "Each event below starts the Flow workflows that begin with its trigger. Workflows receive ids, statuses, dates and amounts; the customer is passed as a reference Flow reads from Shopify."
                  : "Turn the triggers on to start Flow workflows from this app's events. Nothing is sent to Flow while they are off, and events from that time are not replayed."}
              </Text>
              <InlineStack>
                <Button
                  variant={d.enabled ? "secondary" : "primary"}
                  loading={busy}
                  onClick={() => fetcher.submit({ enabled: String(!d.enabled) }, { method: "post" })}
                >
                  {d.enabled ? "Turn off Flow triggers" : "Turn on Flow triggers"}
                </Button>
              </InlineStack>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Triggers in Flow
              </Text>
              <ul aria-label="Flow triggers" style={{ margin: 0, paddingInlineStart: "1.2em", display: "grid", gap: "8px" }}>
                {d.triggers.map((t) => (
                  <li key={t.handle}>
                    <Text as="span" fontWeight="semibold">
                      {t.name}
                    </Text>{" "}
                    <Text as="span" tone="subdued">
                      {t.description}
                    </Text>
                  </li>
                ))}
              </ul>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card padding="0">
            <div style={{ padding: "16px 16px 8px" }}>
              <Text as="h2" variant="headingMd">
                Latest trigger calls
              </Text>
            </div>
            <div ref={wrap}>
              <IndexTable
                resourceName={{ singular: "trigger call", plural: "trigger calls" }}
                itemCount={d.calls.length}
                selectable={false}
                emptyState={
                  <div style={{ padding: "16px" }}>
                    <Text as="p" tone="subdued">
                      No trigger calls yet. They appear here as events are published while Flow triggers are on.
                    </Text>
                  </div>
                }
                headings={[{ title: "Event" }, { title: "Trigger" }, { title: "Status" }, { title: "Attempts" }, { title: "When" }]}
              >
                {d.calls.map((c, i) => (
                  <IndexTable.Row id={c.id} key={c.id} position={i}>
                    <IndexTable.Cell>
                      <Text as="span">{c.event}</Text>
                      <Text as="p" tone="subdued" variant="bodySm">
                        {c.eventId}
                      </Text>
                    </IndexTable.Cell>
                    <IndexTable.Cell>{c.handle}</IndexTable.Cell>
                    <IndexTable.Cell>
                      <Badge tone={STATUS_TONE[c.status]}>{STATUS_LABEL[c.status]}</Badge>
                      {c.lastError && (
                        <Text as="p" tone="subdued" variant="bodySm">
                          {c.lastError}
                        </Text>
                      )}
                    </IndexTable.Cell>
                    <IndexTable.Cell>{c.attempts}</IndexTable.Cell>
                    <IndexTable.Cell>{new Date(c.sentAt ?? c.createdAt).toLocaleString("en-US", { timeZone: "UTC" })} UTC</IndexTable.Cell>
                  </IndexTable.Row>
                ))}
              </IndexTable>
            </div>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
