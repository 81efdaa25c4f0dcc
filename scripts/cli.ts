// Operator CLI (`npm run cli -- <command>`): the same domain functions the admin UI calls.
// `npm run cli -- --help` lists the commands; `npm run cli -- <command> --help` explains one.
// Arguments are parsed before anything touches the database, so help works on a bare checkout.
import { parseArgs } from "node:util";
import { applyLocalDefaults } from "../app/infra/local-env";
import { assertDatabaseReady } from "../app/infra/service-checks.server";

type Values = {
  shop?: string;
  name?: string;
  scopes?: string;
  expires?: string;
  publishable?: boolean;
  id?: string;
  plan?: string;
  file?: string;
  "dry-run"?: boolean;
  at?: string;
  "forward-to"?: string;
  "api-key"?: string;
  "base-url"?: string;
  events?: string;
};

interface Command {
  usage: string;
  summary: string;
  /** Longer help: what each option means. */
  details: string;
}

/** Every command, in the order `--help` lists them. */
export const COMMANDS: Record<string, Command> = {
  "keys mint": {
    usage: "keys mint --shop DOMAIN --name NAME --scopes a,b [--expires ISO-8601] [--publishable]",
    summary: 'mint an API key; prints {"id","key"} and the key is shown this once',
    details: `  --shop DOMAIN      the shop's myshopify domain (installed)
  --name NAME        a label for the key (1 to 100 characters)
  --scopes a,b       comma-separated scopes. A secret key needs at least one; a publishable key
                     may have none (--scopes "": Customer API only) or read:plans, read:bundles,
                     read:mixmatch (Storefront API)
  --expires ISO      optional expiry, e.g. 2030-01-01T00:00:00Z
  --publishable      mint a publishable key (svc_pk_) instead of a secret key (svc_sk_)`,
  },
  "keys list": {
    usage: "keys list --shop DOMAIN",
    summary: "the shop's keys (never the key or its hash)",
    details: "  --shop DOMAIN      the shop's myshopify domain",
  },
  "keys revoke": {
    usage: "keys revoke --id KEY_ID",
    summary: "revoke a key at once, on every replica",
    details: "  --id KEY_ID        the key's id (from keys mint or keys list)",
  },
  "shops plan": {
    usage: "shops plan --shop DOMAIN --plan pro|free|billing",
    summary: "support override of the plan Shopify Billing gives; billing clears the override",
    details: `  --shop DOMAIN      the shop's myshopify domain
  --plan P           pro or free pins the plan whatever Shopify Billing says (merchants upgrade
                     on the app's Plan page); billing hands the plan back to Shopify Billing`,
  },
  "shops list": {
    usage: "shops list",
    summary: "shops with install state and plan",
    details: "  (no options)",
  },
  "mirror reconcile": {
    usage: "mirror reconcile --shop DOMAIN",
    summary: "rebuild the shop's mirror by paging the platform (inline)",
    details: "  --shop DOMAIN      the shop's myshopify domain",
  },
  "storefront sync": {
    usage: "storefront sync --shop DOMAIN",
    summary: "rewrite the shop's storefront metafields (app.bundle_plan, app.mix_match)",
    details: "  --shop DOMAIN      the shop's myshopify domain",
  },
  "sessions reseal": {
    usage: "sessions reseal",
    summary: "seal every Shopify access token under the current ENCRYPTION_KEY (docs/decisions/038)",
    details: "  (no options)",
  },
  "billing run": {
    usage: "billing run --shop DOMAIN [--at ISO-8601]",
    summary: "one run of the billing scheduler: charges what is due, retries dunning, sends reminders (docs/decisions/080)",
    details: `  --shop DOMAIN      the shop's myshopify domain
  --at ISO           run as if the clock read this time (default now)`,
  },
  "gifts run": {
    usage: "gifts run --shop DOMAIN [--at ISO-8601]",
    summary: "one pass of the gift sweep: claim e-mails due, bounces to tell, unclaimed gifts to expire (docs/decisions/136)",
    details: `  --shop DOMAIN      the shop's myshopify domain
  --at ISO           run as if the clock read this time (default now)`,
  },
  "boxes cutoff": {
    usage: "boxes cutoff --shop DOMAIN [--at ISO-8601]",
    summary: "one run of the selection cutoff: settles every box past its cutoff with the pick or the fallback (docs/decisions/106)",
    details: `  --shop DOMAIN      the shop's myshopify domain
  --at ISO           run as if the clock read this time (default now); a box already settled is never
                     applied again`,
  },
  import: {
    usage: "import --shop DOMAIN --file FILE [--dry-run]",
    summary: "migration import of a CSV or JSONL file in the migration export's format (docs/decisions/085)",
    details: `  --shop DOMAIN      the shop's myshopify domain (the one the contracts are created in)
  --file FILE        the file (CSV or JSONL, as the migration export writes it)
  --dry-run          print the validation report (every error with its row and column) and write
                     nothing; without it the workers import the file (they must be running) and
                     this command follows the import to its end`,
  },
  "webhooks listen": {
    usage: "webhooks listen --forward-to URL [--api-key KEY] [--base-url URL] [--events a,b]",
    summary: "follow the events feed and forward each event, signed, to a local receiver (docs/decisions/126)",
    details: `  --forward-to URL   where each event is POSTed (http://localhost:4000/hooks); any URL, no https needed
  --api-key KEY      an Admin API secret key with manage:webhooks (default: $SERVICE_API_KEY)
  --base-url URL     the app (default: $SHOPIFY_APP_URL, else http://localhost:3000)
  --events a,b       forward only these event types (default: every event)
The signing secret (whsec_...) is printed at start: verify X-Service-Signature with it exactly as
with an endpoint's secret. Runs until Ctrl-C; waits out a restart of the app.`,
  },
};

const GROUPS = [...new Set(Object.keys(COMMANDS).map((c) => c.split(" ")[0]))];

export function usage(): string {
  const lines = Object.values(COMMANDS).map((c) => `  ${c.usage}\n      ${c.summary}`);
  return `usage: npm run cli -- <command> [options]

commands:
${lines.join("\n")}

npm run cli -- <command> --help   explains one command's options`;
}

function commandHelp(name: string): string {
  const c = COMMANDS[name];
  return `usage: npm run cli -- ${c.usage}\n\n${c.summary}\n\noptions:\n${c.details}`;
}

/** Help for a group ("keys --help"): the group's commands. */
function groupHelp(group: string): string {
  const members = Object.entries(COMMANDS).filter(([name]) => name.startsWith(`${group} `));
  return `usage:\n${members.map(([, c]) => `  npm run cli -- ${c.usage}\n      ${c.summary}`).join("\n")}\n\nnpm run cli -- ${members[0][0]} --help   explains one command's options`;
}

class UsageError extends Error {}

/** The migration import: the dry-run report, or the import run by the workers, followed to its end. */
async function importFile(shopId: string, path: string, dryRun: boolean): Promise<unknown> {
  const { readFile } = await import("node:fs/promises");
  const { basename } = await import("node:path");
  const { dryRun: dryRunReport } = await import("../app/domain/imports/validate.server");
  const { createImport, startImport } = await import("../app/domain/imports/start.server");
  const { importProgress } = await import("../app/domain/imports/progress.server");
  const file = { fileName: basename(path), text: await readFile(path, "utf8") };
  if (dryRun) {
    // The per-contract lines are for the page; the CLI prints the totals and every error.
    const { items, ...summary } = await dryRunReport(shopId, file);
    return { ...summary, items: items.length };
  }
  const { id, report } = await createImport(shopId, file);
  if (report.errors.some((e) => e.row === 0)) throw new Error(`The file cannot be imported: ${report.errors[0].message}`);
  await startImport(shopId, id);
  for (;;) {
    const p = await importProgress(shopId, id);
    if (p && (p.status === "done" || p.status === "failed")) return p;
    if (p) console.error(`${p.status}: ${p.done}/${p.contracts} contracts (${p.created} created, ${p.skipped} skipped, ${p.failed} failed)`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

function parse(argv: string[]): { command: string; values: Values; help: boolean } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        help: { type: "boolean", short: "h", default: false },
        shop: { type: "string" },
        name: { type: "string" },
        scopes: { type: "string" },
        expires: { type: "string" },
        publishable: { type: "boolean", default: false },
        id: { type: "string" },
        plan: { type: "string" },
        file: { type: "string" },
        "dry-run": { type: "boolean", default: false },
        at: { type: "string" },
        "forward-to": { type: "string" },
        "api-key": { type: "string" },
        "base-url": { type: "string" },
        events: { type: "string" },
      },
    });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n\n${usage()}`);
  }
  const { help, ...values } = parsed.values;
  const positionals = parsed.positionals[0] === "help" ? parsed.positionals.slice(1) : parsed.positionals;
  return { command: positionals.join(" "), values, help: help || parsed.positionals[0] === "help" };
}

async function main(argv: string[]): Promise<string> {
  const { command, values, help } = parse(argv);
  if (help) {
    if (command === "") return usage();
    if (COMMANDS[command]) return commandHelp(command);
    if (GROUPS.includes(command)) return groupHelp(command);
    throw new UsageError(`unknown command: ${command}\n\n${usage()}`);
  }
  if (!COMMANDS[command]) {
    if (GROUPS.includes(command)) throw new UsageError(`${command}: which command?\n\n${groupHelp(command)}`);
    throw new UsageError(`${command ? `unknown command: ${command}` : "no command given"}\n\n${usage()}`);
  }

  const need = (name: keyof Values): string => {
    const v = values[name];
    if (typeof v !== "string" || v === "") throw new UsageError(`--${name} is required\n\n${commandHelp(command)}`);
    return v;
  };
  const print = (value: unknown) => JSON.stringify(value, null, 2);

  // Over HTTP with the developer's key: no database (scripts/webhooks-listen.ts).
  if (command === "webhooks listen") {
    const apiKey = values["api-key"] ?? process.env.SERVICE_API_KEY;
    if (!apiKey) throw new UsageError(`--api-key (or SERVICE_API_KEY) is required\n\n${commandHelp(command)}`);
    const { listen } = await import("./webhooks-listen");
    const stop = new AbortController();
    process.once("SIGINT", () => stop.abort());
    process.once("SIGTERM", () => stop.abort());
    await listen({
      baseUrl: values["base-url"] ?? process.env.SHOPIFY_APP_URL ?? "http://localhost:3000",
      apiKey,
      forwardTo: need("forward-to"),
      events: values.events
        ?.split(",")
        .map((e) => e.trim())
        .filter(Boolean),
      signal: stop.signal,
    });
    return "stopped";
  }

  applyLocalDefaults();
  if (process.env.NODE_ENV !== "production") await assertDatabaseReady(process.env.DATABASE_URL!);
  const { prisma } = await import("../app/db.server");
  try {
    const lifecycle = await import("../app/domain/shop/lifecycle.server");
    switch (command) {
      case "keys mint": {
        const keys = await import("../app/domain/keys/keys.server");
        const expires = values.expires ? new Date(values.expires) : undefined;
        if (expires && Number.isNaN(expires.getTime())) throw new UsageError(`--expires is not an ISO 8601 timestamp: ${values.expires}`);
        // --scopes "" is a choice (a publishable key with no scopes); a missing --scopes is not.
        if (values.scopes === undefined) throw new UsageError(`--scopes is required (--scopes "" for none)\n\n${commandHelp(command)}`);
        const minted = await keys.mintKey({
          shopId: await lifecycle.shopIdFor(need("shop")),
          name: need("name"),
          scopes: values.scopes
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
          kind: values.publishable ? "PUBLISHABLE" : "SECRET",
          expiresAt: expires,
        });
        return print({ id: minted.id, key: minted.key });
      }
      case "keys list": {
        const keys = await import("../app/domain/keys/keys.server");
        return print(await keys.listKeys(await lifecycle.shopIdFor(need("shop"))));
      }
      case "keys revoke": {
        const keys = await import("../app/domain/keys/keys.server");
        const id = need("id");
        if (!(await keys.revokeKey(id))) throw new Error(`No active key ${id}`);
        return print({ id, revoked: true });
      }
      case "shops plan": {
        // A support override: merchants get Pro through Shopify Billing on the Plan page (decision 064).
        const plan = need("plan").toUpperCase();
        if (plan !== "PRO" && plan !== "FREE" && plan !== "BILLING") throw new UsageError(`--plan must be pro, free or billing, not ${values.plan}`);
        await lifecycle.setAppPlan(need("shop"), plan === "BILLING" ? null : plan);
        const shop = await prisma.shop.findUniqueOrThrow({ where: { domain: need("shop") }, select: { appPlan: true, billingPlan: true, planOverride: true } });
        return print({
          shop: values.shop,
          plan: shop.appPlan.toLowerCase(),
          billing_plan: shop.billingPlan.toLowerCase(),
          override: shop.planOverride?.toLowerCase() ?? null,
        });
      }
      case "shops list":
        return print(
          await prisma.shop.findMany({
            select: { domain: true, installState: true, appPlan: true, billingPlan: true, planOverride: true, partnerDevelopment: true },
            orderBy: { domain: "asc" },
          }),
        );
      case "mirror reconcile": {
        const { reconcileShop } = await import("../app/domain/subscriptions/reconcile.server");
        return print(await reconcileShop(need("shop")));
      }
      case "storefront sync": {
        const { syncStorefrontMetafields } = await import("../app/domain/storefront/sync.server");
        return print(await syncStorefrontMetafields(need("shop"), { force: true }));
      }
      case "sessions reseal": {
        const { resealSessionTokens } = await import("../app/shopify/session-tokens.server");
        return print(await resealSessionTokens());
      }
      case "billing run": {
        const at = values.at ? new Date(values.at) : new Date();
        if (Number.isNaN(at.getTime())) throw new UsageError(`--at is not an ISO 8601 timestamp: ${values.at}`);
        const { runBilling } = await import("../app/domain/renewals/charge.server");
        const { fixedClock } = await import("../app/domain/renewals/clock.server");
        return print(await runBilling(need("shop"), { clock: fixedClock(at) }));
      }
      case "gifts run": {
        const at = values.at ? new Date(values.at) : new Date();
        if (Number.isNaN(at.getTime())) throw new UsageError(`--at is not an ISO 8601 timestamp: ${values.at}`);
        const { runGiftSweep } = await import("../app/domain/gifts/delivery.server");
        return print(await runGiftSweep({ shopId: await lifecycle.shopIdFor(need("shop")), now: at }));
      }
      case "boxes cutoff": {
        const at = values.at ? new Date(values.at) : new Date();
        if (Number.isNaN(at.getTime())) throw new UsageError(`--at is not an ISO 8601 timestamp: ${values.at}`);
        const { runBoxCutoff } = await import("../app/domain/customer/box-cutoff.server");
        return print(await runBoxCutoff(need("shop"), { now: at }));
      }
      case "import":
        return print(await importFile(await lifecycle.shopIdFor(need("shop")), need("file"), values["dry-run"] === true));
      default:
        throw new UsageError(usage());
    }
  } finally {
    await prisma.$disconnect();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ""))) {
  try {
    console.log(await main(process.argv.slice(2)));
    process.exit(0);
  } catch (err) {
    // Usage mistakes print the usage; domain refusals print their message. Never a stack trace.
    console.error((err as Error).message);
    process.exit(err instanceof UsageError ? 2 : 1);
  }
}
