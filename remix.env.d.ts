/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

// App Bridge's web components used by the embedded admin (Shopify renders them in admin).
declare namespace JSX {
  interface IntrinsicElements {
    "ui-nav-menu": React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement>;
  }
}

// App Bridge's global (Shopify's script in production, the simulator's stand-in locally).
interface Window {
  shopify?: { idToken(): Promise<string>; toast: { show(message: string): void } };
}
