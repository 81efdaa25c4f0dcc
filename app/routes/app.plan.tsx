// Plan: Free or Pro, through Shopify Billing (app/domain/shop/app-plan.server.ts; decision 064). Opening
// the page re-reads the plan from Shopify; upgrading asks Shopify for the Pro charge and sends the
// merchant to its confirmation page (top frame: App Bridge performs window.open(url, "_top")).
import { useEffect, useState } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, InlineStack, Layout, List, Page, Text } from "@shopify/polaris";
import { adminContext, staffAction } from "../embedded/context.server";
import { ConfirmModal } from "../embedded/confirm-modal";
import { useFormat } from "../embedded/shop-format";
import { cancelProPlan, planView, requestProPlan, syncPlanFromBilling } from "../domain/shop/app-plan.server";
import { log } from "../infra/log.server";
import { SectionCard } from "../embedded/section-card";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  let billingReachable = true;
  try {
    await syncPlanFromBilling(shop.domain);
  } catch (err) {
    billingReachable = false;
    log.warn("plan page: Shopify Billing not reachable; showing the stored plan", { err, shop: shop.domain });
  }
  return json({ plan: await planView(shop.id), billingReachable });
};

type ActionResult = { ok: true; confirmationUrl?: string; downgraded?: boolean } | { ok: false; error: string };

export const action = (args: ActionFunctionArgs) =>
  staffAction(args, async ({ request }: ActionFunctionArgs) => {
    const { shop } = await adminContext(request);
    const intent = (await request.formData()).get("intent");
    try {
      if (intent === "upgrade") return json<ActionResult>({ ok: true, confirmationUrl: (await requestProPlan(shop.domain)).confirmationUrl });
      if (intent === "downgrade") {
        await cancelProPlan(shop.domain);
        return json<ActionResult>({ ok: true, downgraded: true });
      }
      return json<ActionResult>({ ok: false, error: "Unknown action." }, 400);
    } catch (err) {
      log.warn("plan change refused or failed", { err, shop: shop.domain, intent: String(intent) });
      return json<ActionResult>({ ok: false, error: err instanceof Error ? err.message : "Shopify Billing did not answer." }, 502);
    }
  });

const PRO_FEATURES = ["The Developer API: Admin, Storefront and Customer APIs with your own keys", "Signed outbound webhooks", "CSV and JSONL exports"];

export default function Plan() {
  const { formatDateTime } = useFormat();
  const { plan, billingReachable } = useLoaderData<typeof loader>();
  const fetcher = useFetcher<ActionResult>();
  const [confirmDowngrade, setConfirmDowngrade] = useState(false);
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    const d = fetcher.data;
    if (fetcher.state !== "idle" || !d?.ok) return;
    if (d.confirmationUrl) window.open(d.confirmationUrl, "_top");
    if (d.downgraded) window.shopify?.toast.show("Pro plan cancelled");
  }, [fetcher.state, fetcher.data]);

  const error = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;
  const devStoreBlocked = plan.appPlan === "PRO" && !plan.apiEnabled;
  return (
    <Page title="Plan" subtitle="Billed by Shopify with your Shopify invoice.">
      <Layout>
        {!billingReachable && (
          <Layout.Section>
            <Banner tone="warning" title="Shopify Billing could not be reached">
              <p>This is the plan as last read{plan.checkedAt ? ` (${formatDateTime(plan.checkedAt)})` : ""}. Reload the page to try again.</p>
            </Banner>
          </Layout.Section>
        )}
        {error && (
          <Layout.Section>
            <Banner tone="critical" title="The plan was not changed">
              <p>{error}</p>
            </Banner>
          </Layout.Section>
        )}
        {plan.partnerDevelopment && (
          <Layout.Section>
            <Banner tone="info" title="Development store">
              <p>
                Charges on a development store are test charges. The Developer API and webhooks turn on once the store is on a paid Shopify plan and on Pro.
              </p>
            </Banner>
          </Layout.Section>
        )}
        {plan.override && (
          <Layout.Section>
            <Banner tone="info" title="Set by support">
              <p>
                Support has set this shop to {plan.override === "PRO" ? "Pro" : "Free"}; Shopify Billing says {plan.billingPlan === "PRO" ? "Pro" : "Free"}.
              </p>
            </Banner>
          </Layout.Section>
        )}
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <InlineStack gap="200" blockAlign="center">
                <Text as="h2" variant="headingMd">
                  Current plan
                </Text>
                <Badge tone={plan.appPlan === "PRO" ? "success" : undefined}>{plan.appPlan === "PRO" ? "Pro" : "Free"}</Badge>
              </InlineStack>
              <Text as="p">
                Developer API: {plan.apiEnabled ? "on" : devStoreBlocked ? "off until the store is on a paid Shopify plan" : "off (needs Pro)"}
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <SectionCard
            title={
              <>
                Pro: {plan.price.amount} {plan.price.currencyCode} every 30 days
              </>
            }
          >
            <List>
              {PRO_FEATURES.map((f) => (
                <List.Item key={f}>{f}</List.Item>
              ))}
            </List>
            <InlineStack gap="200">
              {plan.billingPlan === "FREE" ? (
                <Button variant="primary" loading={busy} onClick={() => fetcher.submit({ intent: "upgrade" }, { method: "post" })}>
                  Upgrade to Pro
                </Button>
              ) : (
                <Button tone="critical" disabled={busy} onClick={() => setConfirmDowngrade(true)}>
                  Cancel Pro
                </Button>
              )}
            </InlineStack>
          </SectionCard>
        </Layout.Section>
      </Layout>
      <ConfirmModal
        open={confirmDowngrade}
        onClose={() => setConfirmDowngrade(false)}
        title="Cancel the Pro plan?"
        confirmLabel="Cancel Pro"
        cancelLabel="Keep Pro"
        onConfirm={() => {
          setConfirmDowngrade(false);
          fetcher.submit({ intent: "downgrade" }, { method: "post" });
        }}
      >
        Every API key of this shop stops working until you upgrade again, and webhooks stop.
      </ConfirmModal>
    </Page>
  );
}
