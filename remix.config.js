/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.*"],
  serverModuleFormat: "esm",
  // Polaris ships JSON locales that Node's ESM loader will not import bare.
  serverDependenciesToBundle: [/^@shopify\/polaris/],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    // Off: with lazy discovery every rendered link fetches /__manifest, and a page left while that
    // fetch runs logs "Failed to fetch manifest patches" (the deep-link e2e test failed on it in CI).
    // The app's route list is small enough to ship whole in the first document.
    v3_lazyRouteDiscovery: false,
    v3_singleFetch: false,
  },
};
