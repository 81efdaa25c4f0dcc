// Webhooks: the merchant's side of outbound webhooks (docs/decisions/075-webhooks-page.md).
// Endpoints (create with the catalogue's events and the secret shown once, enable/disable,
// delete with confirmation, send a test event, recover failed deliveries since a time) and the
// delivery log (filters by endpoint, status and event; each attempt's outcome; resend). The
// loader and action call the domain functions the Admin API's webhook routes call
// (app/domain/outbound-webhooks/, docs/decisions/054-webhook-management.md) with the admin session's
// shop; nothing here makes an HTTP call to the app itself. A shop below Pro sees the upgrade path.
import { useEffect, useState } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { adminContext, staffAction } from "../embedded/context.server";
import { ConfirmModal } from "../embedded/confirm-modal";
import { webhooksPageAction, webhooksPageData, type Intent, type WebhooksActionResult as ActionResult } from "../embedded/webhooks/page.server";
import type { EndpointRow } from "../embedded/webhooks/types";
import { CreateForm } from "../embedded/webhooks/create-form";
import { EndpointCard, RecoverModal } from "../embedded/webhooks/endpoint-card";
import { DeliveryLog } from "../embedded/webhooks/delivery-log";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  return json(await webhooksPageData(shop, new URL(request.url).searchParams));
};

export const action = (args: ActionFunctionArgs) =>
  staffAction(args, async ({ request }: ActionFunctionArgs) => {
    const { shop } = await adminContext(request);
    const result = await webhooksPageAction(shop, await request.formData());
    return json<ActionResult>(result.body, result.status);
  });

function UpgradeCard({ upgradeUrl, endpoints }: { upgradeUrl: string; endpoints: number }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Banner tone="info" title="Webhooks are part of the Pro plan">
          <p>
            Upgrade to Pro to send signed subscription, payment and gift events to your own HTTPS endpoints, with retries and a delivery log.
            {endpoints > 0 ? ` Your ${endpoints === 1 ? "endpoint receives" : `${endpoints} endpoints receive`} no events until you upgrade.` : ""}
          </p>
        </Banner>
        <InlineStack>
          <Button variant="primary" url={upgradeUrl}>
            Upgrade to Pro
          </Button>
        </InlineStack>
      </BlockStack>
    </Card>
  );
}

export default function Webhooks() {
  const data = useLoaderData<typeof loader>();
  const fetcher = useFetcher<ActionResult>();
  const [deleting, setDeleting] = useState<EndpointRow | null>(null);
  const [recovering, setRecovering] = useState<EndpointRow | null>(null);
  const busy = fetcher.state !== "idle";
  const run = (intent: Intent, id: string, extra: Record<string, string> = {}) => fetcher.submit({ intent, id, ...extra }, { method: "post" });

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) window.shopify?.toast.show(fetcher.data.message);
  }, [fetcher.state, fetcher.data]);
  const error = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;

  return (
    <Page title="Webhooks" subtitle="Signed events sent to your own HTTPS endpoints as subscriptions change.">
      <Layout>
        {!data.pro ? (
          <Layout.Section>
            <UpgradeCard upgradeUrl={data.upgradeUrl} endpoints={data.endpoints.length} />
          </Layout.Section>
        ) : (
          <>
            {error && (
              <Layout.Section>
                <Banner tone="critical" title="That did not work">
                  <p>{error}</p>
                </Banner>
              </Layout.Section>
            )}
            <Layout.Section>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Endpoints
                </Text>
                {data.endpoints.length === 0 ? (
                  <Card>
                    <Text as="p">No endpoints yet. Add one below to start receiving events.</Text>
                  </Card>
                ) : (
                  <ul aria-label="Endpoints" style={{ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: "12px" }}>
                    {data.endpoints.map((e) => (
                      <li key={e.id}>
                        <EndpointCard
                          e={e}
                          disableAfter={data.disableAfter}
                          ladder={data.ladder}
                          busy={busy}
                          run={run}
                          onDelete={setDeleting}
                          onRecover={setRecovering}
                        />
                      </li>
                    ))}
                  </ul>
                )}
              </BlockStack>
            </Layout.Section>
            <Layout.Section>
              <CreateForm catalogue={data.catalogue} maxEndpoints={data.maxEndpoints} />
            </Layout.Section>
            <Layout.Section>
              <DeliveryLog data={data} busy={busy} onResend={(id) => run("resend", id)} />
            </Layout.Section>
          </>
        )}
      </Layout>
      <ConfirmModal
        open={!!deleting}
        onClose={() => setDeleting(null)}
        title="Delete this endpoint?"
        confirmLabel="Delete endpoint"
        onConfirm={() => {
          if (deleting) run("delete", deleting.id);
          setDeleting(null);
        }}
      >
        Events stop being sent to {deleting?.url ?? ""} and its delivery log is deleted with it. This cannot be undone; to receive events there again, add the
        endpoint anew (it gets a new secret).
      </ConfirmModal>
      <RecoverModal
        endpoint={recovering}
        onClose={() => setRecovering(null)}
        onRecover={(since) => {
          if (recovering) run("recover", recovering.id, { since });
          setRecovering(null);
        }}
      />
    </Page>
  );
}
