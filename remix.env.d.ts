/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

// App Bridge's web components used by the embedded admin (Shopify renders them in admin).
declare namespace JSX {
  interface IntrinsicElements {
    "ui-nav-menu": React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement>;
    "ui-save-bar": React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement> & { discardConfirmation?: boolean };
  }
}

// App Bridge's global (Shopify's script in production, the simulator's stand-in locally).
interface Window {
  shopify?: {
    idToken(): Promise<string>;
    toast: { show(message: string): void };
    saveBar?: { show(id: string): Promise<void>; hide(id: string): Promise<void>; toggle(id: string): Promise<void>; leaveConfirmation(): Promise<void> };
  };
}
