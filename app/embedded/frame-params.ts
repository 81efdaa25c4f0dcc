// The query parameters Shopify's admin adds to an embedded app's address when it frames it
// (embedded, shop, host, id_token, locale; hmac, session and timestamp on some loads). A bookmark,
// a reload or admin's own first load brings them back, so a page's loader reads its own
// parameters and leaves these to the session-token check (app/embedded/context.server.ts).
export const FRAME_PARAMS = ["embedded", "hmac", "host", "id_token", "locale", "session", "shop", "timestamp"] as const;
