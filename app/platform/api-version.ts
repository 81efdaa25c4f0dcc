// The one Shopify API version this app speaks (docs/decisions/031-shopify-api-version.md):
// the adapter's Admin and Customer Account calls, @shopify/shopify-api's own calls (token
// exchange, Billing), the webhook version in shopify.app.toml, the schemas vendored in
// schemas/shopify/ and the simulator all follow this constant. Tests check the tomls agree.
import type { ApiVersion } from "@shopify/shopify-api";

export const SHOPIFY_API_VERSION = "2026-10";

/**
 * The same version for @shopify/shopify-api. Its `ApiVersion` enum (13.1.0) stops at July26,
 * but the library sends whatever string it is given (it only warns about versions outside
 * Shopify's support window, which 2026-10 is not): the cast is the whole workaround.
 */
export const LIBRARY_API_VERSION = SHOPIFY_API_VERSION as string as ApiVersion;
