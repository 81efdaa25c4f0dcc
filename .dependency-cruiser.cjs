// The import rules of the code base, checked by dependency-cruiser in `npm run lint` (and so in
// `npm test`): no circles anywhere, and one direction between the rooms
//   app/routes -> app/embedded, app/surfaces -> app/http -> app/domain -> app/platform, app/shopify sessions -> app/infra
// (docs/decisions/092-rooms-and-layers.md; app/domain/README.md maps the domain's folders).
// tests/unit/foundation/layers.test.ts proves the rules bite on fixtures.

const REMIX_AND_UI = "(^|/)node_modules/(@remix-run|@shopify/shopify-app-remix|@shopify/polaris|react|react-dom)/";
const WEB = [
  "^app/(routes|surfaces|http|embedded)/",
  "^app/shopify/inbound-webhooks\\.server\\.ts$",
  "^app/shopify\\.server\\.ts$",
  "^app/(root|entry\\.server)\\.tsx$",
];
const OUTSIDE_APP = "^(workers|simulator|mailbox|scripts|tests|bench|prisma)/|^server\\.ts$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import circle: break it with a leaf module of the shared types (docs/decisions/092-rooms-and-layers.md).",
      from: {},
      to: { circular: true },
    },
    {
      name: "domain-stays-below-the-web",
      severity: "error",
      comment: "The domain never imports Remix, the UI, the HTTP kernel, the API surfaces, the admin pages or the routes.",
      from: { path: "^app/domain/" },
      to: { path: [...WEB, REMIX_AND_UI, OUTSIDE_APP] },
    },
    {
      name: "platform-stays-below-the-domain",
      severity: "error",
      comment: "The Shopify port and its GraphQL adapter know nothing of the domain or the web.",
      from: { path: "^app/platform/" },
      to: { path: ["^app/domain/", ...WEB, REMIX_AND_UI, OUTSIDE_APP] },
    },
    {
      name: "shopify-sessions-stay-below-the-domain",
      severity: "error",
      comment: "Session storage and tokens (app/shopify/, but its inbound-webhook module) are read by the platform: they import no domain or web code.",
      from: { path: "^app/shopify/", pathNot: "^app/shopify/inbound-webhooks\\.server\\.ts$" },
      to: { path: ["^app/(domain|platform)/", ...WEB, REMIX_AND_UI, OUTSIDE_APP] },
    },
    {
      name: "infra-stays-at-the-bottom",
      severity: "error",
      comment: "Infrastructure (app/infra, db.server, env.server) imports no domain, platform, Shopify or web code.",
      from: { path: ["^app/infra/", "^app/(db|env)\\.server\\.ts$"] },
      to: { path: ["^app/(domain|platform|shopify)/", ...WEB, REMIX_AND_UI, OUTSIDE_APP] },
    },
    {
      name: "http-stays-below-the-surfaces",
      severity: "error",
      comment: "The request kernel serves the surfaces; it does not import them, the admin pages or the routes.",
      from: { path: "^app/http/" },
      to: { path: "^app/(routes|surfaces|embedded)/" },
    },
    {
      name: "surfaces-stay-below-the-routes",
      severity: "error",
      from: { path: "^app/surfaces/" },
      to: { path: "^app/(routes|embedded)/" },
    },
    {
      name: "embedded-stays-below-the-routes",
      severity: "error",
      from: { path: "^app/embedded/" },
      to: { path: "^app/routes/" },
    },
    {
      name: "routes-are-entry-points",
      severity: "error",
      comment: "Remix loads the routes; no other module imports one (shared code goes in app/embedded or below). Tests may.",
      from: { path: "^(app|workers|simulator|scripts|prisma|bench)/|^server\\.ts$", pathNot: "^app/routes/" },
      to: { path: "^app/routes/" },
    },
    {
      name: "workers-run-the-domain",
      severity: "error",
      comment: "Workers import the domain, never the web side.",
      from: { path: "^workers/" },
      to: { path: [...WEB, REMIX_AND_UI] },
    },
    {
      name: "simulator-stands-apart",
      severity: "error",
      comment:
        "The simulator is a product of its own: it shares nothing of the app but the targeted API version and the local defaults, so a bug in the app is never copied into the fake meant to catch it.",
      from: { path: "^simulator/" },
      to: { path: "^app/", pathNot: "^app/platform/api-version\\.ts$|^app/infra/local-env\\.ts$" },
    },
    {
      name: "production-code-never-imports-the-fake",
      severity: "error",
      from: { path: "^(app|workers)/|^server\\.ts$" },
      to: { path: "^simulator/" },
    },
    {
      name: "runtime-never-imports-scripts-or-tests",
      severity: "error",
      comment: "The web server, the workers, the simulator and the app run without scripts/, tests/ or bench/.",
      from: { path: "^(app|workers|simulator)/|^server\\.ts$" },
      to: { path: "^(scripts|tests|bench)/" },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(build|public/build|\\.cache|node_modules)/|^tests/fixtures/" },
    // Type-only imports count: a circle through types is still a circle for the reader.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json", ".d.ts"],
      mainFields: ["module", "main", "types", "typings"],
    },
    skipAnalysisNotInRules: true,
  },
};
