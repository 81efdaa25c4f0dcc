// Embedded admin layout: every /app page is authenticated by Shopify (session token in the
// embedded frame, token exchange on first load) and rendered inside Polaris + App Bridge.
// Polaris' own AppProvider is used, not @shopify/shopify-app-remix/react's: the latter imports
// JSON with import attributes, which the classic compiler's esbuild (0.17) cannot parse. What
// that wrapper adds is done here: the App Bridge script tag, and client-side navigation when
// admin's sidebar (App Bridge's <ui-nav-menu>) is clicked: App Bridge dispatches
// `shopify:navigate` on the menu's link and the app follows it with Remix's navigate.
import { useEffect } from "react";
import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useNavigate, useRouteError } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json";
import polarisStyles from "@shopify/polaris/build/esm/styles.css";
import { appBridgeSrc } from "../shopify.server";
import { adminContext } from "../embedded/context.server";
import { safeFormat } from "../embedded/format";
import { ShopFormatProvider } from "../embedded/shop-format";
import { env } from "../env.server";
import { ADMIN_NAV } from "../embedded/nav";
import { PolarisLink } from "../embedded/polaris-link";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  // Shopify admin's first load names the admin's language; later requests carry the browser's.
  const locale = new URL(request.url).searchParams.get("locale") ?? request.headers.get("accept-language")?.split(",")[0]?.split(";")[0];
  return json({ apiKey: env().SHOPIFY_API_KEY, appBridge: appBridgeSrc(), format: safeFormat(locale, shop.ianaTimezone) });
};

function useAdminNavigation(): void {
  const navigate = useNavigate();
  useEffect(() => {
    const follow = (event: Event) => {
      const href = (event.target as Element | null)?.getAttribute?.("href");
      if (href) navigate(href);
    };
    document.addEventListener("shopify:navigate", follow);
    return () => document.removeEventListener("shopify:navigate", follow);
  }, [navigate]);
}

export default function App() {
  const { apiKey, appBridge, format } = useLoaderData<typeof loader>();
  useAdminNavigation();
  return (
    <>
      <script src={appBridge} data-api-key={apiKey} />
      <ui-nav-menu>
        {ADMIN_NAV.map((item) => (
          <Link key={item.href} to={item.href} rel={item.href === "/app" ? "home" : undefined}>
            {item.label}
          </Link>
        ))}
      </ui-nav-menu>
      <AppProvider i18n={en} linkComponent={PolarisLink}>
        <ShopFormatProvider format={format}>
          <Outlet />
        </ShopFormatProvider>
      </AppProvider>
    </>
  );
}

export function ErrorBoundary() {
  return boundary.error(useRouteError());
}

export const headers: HeadersFunction = (args) => boundary.headers(args);
