// `/`: what a developer sees first. Says what this is and where to go: the simulated Shopify
// admin that frames the app (simulator mode, README "Quickstart"), the API reference, and the
// Shopify login (`/auth/login`) for a real shop. Shopify opens the app URL with `?shop=` when a
// merchant launches it: that request goes on to the embedded app at /app.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AppProvider, BlockStack, Button, Card, InlineStack, Layout, List, Page, Text } from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json";
import polarisStyles from "@shopify/polaris/build/esm/styles.css";
import { env } from "../env.server";
import { SectionCard } from "../embedded/section-card";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];
export const meta: MetaFunction = () => [{ title: "Subscriptions Service" }];

/** The demo shops the seed creates (prisma/seed.ts), opened in the simulated admin. */
const DEMO_SHOPS = ["demo-shop.myshopify.com", "other-shop.myshopify.com", "free-shop.myshopify.com"];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  if (url.searchParams.get("shop")) throw redirect(`/app?${url.searchParams.toString()}`);
  const simulator = env().SHOPIFY_SIMULATOR_URL;
  return json({
    simulatorAdmin: simulator ? DEMO_SHOPS.map((shop) => ({ shop, url: `${simulator.replace(/\/$/, "")}/admin/${shop}` })) : null,
  });
};

export default function Index() {
  const { simulatorAdmin } = useLoaderData<typeof loader>();
  return (
    <AppProvider i18n={en}>
      <Page title="Subscriptions Service" subtitle="An embedded Shopify app for recurring revenue">
        <Layout>
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <Text as="p">
                  Merchants open this app inside Shopify admin to manage subscriptions, mint API keys, download exports and watch the Risk Center. Their
                  developers use its Admin, Storefront and Customer APIs. This address is the app itself: its pages live inside Shopify admin, not here.
                </Text>
                {simulatorAdmin ? (
                  <BlockStack gap="200">
                    <Text as="h2" variant="headingMd">
                      Simulator mode
                    </Text>
                    <Text as="p">Shopify is played by the local platform simulator. Open the app as a merchant would, inside the simulated Shopify admin:</Text>
                    <InlineStack gap="200" wrap>
                      {simulatorAdmin.map((s, i) => (
                        <Button key={s.shop} url={s.url} variant={i === 0 ? "primary" : undefined}>
                          {`Open ${s.shop.replace(".myshopify.com", "")} in the simulated admin`}
                        </Button>
                      ))}
                    </InlineStack>
                  </BlockStack>
                ) : (
                  <BlockStack gap="200">
                    <Text as="h2" variant="headingMd">
                      Open the app
                    </Text>
                    <Text as="p">Open it from your shop's admin (Apps), or log in with your shop's domain.</Text>
                  </BlockStack>
                )}
              </BlockStack>
            </Card>
          </Layout.Section>
          <Layout.Section>
            <SectionCard title="For developers" gap="200">
              <List>
                <List.Item>
                  <a href="/docs">API reference</a> (Admin, Storefront and Customer APIs; <a href="/docs/openapi.json">OpenAPI</a>)
                </List.Item>
                <List.Item>
                  <a href="/auth/login">Log in with a shop domain</a> (Shopify login)
                </List.Item>
                <List.Item>
                  <a href="/healthz">Health check</a>
                </List.Item>
              </List>
            </SectionCard>
          </Layout.Section>
        </Layout>
      </Page>
    </AppProvider>
  );
}
