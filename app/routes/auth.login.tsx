// Shopify's login page (`/auth/login`, the login path of shopifyApp's authPathPrefix): a shop
// domain form handled by the library's `login()`, which sends the merchant to their admin to
// install or open the app. It is where `/app` sends a request made outside Shopify admin, and
// the one auth path that must not call authenticate.admin (the library refuses that).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AppProvider, Banner, BlockStack, Button, Card, FormLayout, Page, Text, TextField } from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json";
import polarisStyles from "@shopify/polaris/build/esm/styles.css";
import { useState } from "react";
import { LoginErrorType } from "@shopify/shopify-app-remix/server";
import { login } from "../shopify.server";
import { env } from "../env.server";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];
export const meta: MetaFunction = () => [{ title: "Log in · Subscriptions Service" }];

function errorMessage(errors: { shop?: LoginErrorType }): string | null {
  if (errors.shop === LoginErrorType.MissingShop) return "Enter your shop's domain to log in.";
  if (errors.shop === LoginErrorType.InvalidShop) return "That is not a shop domain: use your-shop.myshopify.com.";
  return null;
}

const simulatorAdmin = () => {
  const simulator = env().SHOPIFY_SIMULATOR_URL;
  return simulator ? `${simulator.replace(/\/$/, "")}/admin/demo-shop.myshopify.com` : null;
};

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const errors = await login(request); // with ?shop= it redirects to the shop's admin
  return json({ error: errorMessage(errors), simulatorAdmin: simulatorAdmin() });
};

// A refused domain re-renders the form with its message (200, as a form answer; a valid one redirects).
export const action = async ({ request }: ActionFunctionArgs) => {
  const errors = await login(request);
  return json({ error: errorMessage(errors) });
};

export default function Login() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const [shop, setShop] = useState("");
  const error = acted?.error ?? loaded.error;
  return (
    <AppProvider i18n={en}>
      <Page narrowWidth>
        <Card>
          <Form method="post">
            <FormLayout>
              <Text as="h1" variant="headingLg">
                Log in
              </Text>
              {loaded.simulatorAdmin && (
                <Banner tone="info">
                  <p>
                    Simulator mode: open the app in the <a href={loaded.simulatorAdmin}>simulated Shopify admin</a> instead.
                  </p>
                </Banner>
              )}
              <BlockStack gap="200">
                <TextField
                  type="text"
                  name="shop"
                  label="Shop domain"
                  helpText="example.myshopify.com"
                  value={shop}
                  onChange={setShop}
                  autoComplete="on"
                  error={error ?? undefined}
                />
              </BlockStack>
              <Button submit variant="primary">
                Log in
              </Button>
            </FormLayout>
          </Form>
        </Card>
      </Page>
    </AppProvider>
  );
}
