// The embedded admin's navigation: one list, rendered as App Bridge's <ui-nav-menu> by the
// layout (app/routes/app.tsx), which Shopify admin (and the simulator's admin page) shows as
// the app's sidebar. A page that wants a menu entry adds one line here, in menu order; its
// Polaris Page title (the h1) is the entry's label, except Home's (tests/e2e/admin-navigation.spec.ts
// clicks every entry and checks that).
export interface NavItem {
  label: string;
  /** Path under /app; "/app" is the home entry (rel="home", not shown as a separate item by admin). */
  href: string;
}

export const ADMIN_NAV: readonly NavItem[] = [
  { label: "Home", href: "/app" },
  { label: "Subscriptions", href: "/app/subscriptions" },
  { label: "Plans", href: "/app/plans" },
  { label: "Bundles", href: "/app/bundles" },
  { label: "Mix & Match", href: "/app/mixmatch" },
  { label: "Gifts", href: "/app/gifts" },
  { label: "API keys", href: "/app/keys" },
  { label: "Webhooks", href: "/app/webhooks" },
  { label: "Shopify Flow", href: "/app/flow" },
  { label: "Audit log", href: "/app/audit" },
  { label: "Notifications", href: "/app/notifications" },
  { label: "Portal settings", href: "/app/portal" },
  { label: "Storefront access", href: "/app/origins" },
  { label: "Cancellation insights", href: "/app/cancellations" },
  { label: "Win-back campaigns", href: "/app/winback" },
  { label: "Risk Center", href: "/app/risks" },
  { label: "Analytics", href: "/app/analytics" },
  { label: "Export Center", href: "/app/exports" },
  { label: "Import", href: "/app/imports" },
  { label: "Billing settings", href: "/app/billing" },
  { label: "Plan", href: "/app/plan" },
];
