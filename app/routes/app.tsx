// Embedded admin layout: every /app page is authenticated by Shopify (session token in the
// embedded frame, token exchange on first load) and rendered inside Polaris + App Bridge.
// Polaris' own AppProvider is used, not @shopify/shopify-app-remix/react's: the latter imports
// JSON with import attributes, which the classic compiler's esbuild (0.17) cannot parse. The
// App Bridge script tag below is what that wrapper would add.
import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json";
import polarisStyles from "@shopify/polaris/build/esm/styles.css";
import { appBridgeSrc, authenticate } from "../shopify.server";
import { env } from "../env.server";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticate.admin(request);
  return json({ apiKey: env().SHOPIFY_API_KEY, appBridge: appBridgeSrc() });
};

export default function App() {
  const { apiKey, appBridge } = useLoaderData<typeof loader>();
  return (
    <>
      <script src={appBridge} data-api-key={apiKey} />
      <AppProvider i18n={en}>
        <Outlet />
      </AppProvider>
    </>
  );
}

export function ErrorBoundary() {
  return boundary.error(useRouteError());
}

export const headers: HeadersFunction = (args) => boundary.headers(args);
