// API keys: mint (name, scope checklist, optional expiry; the key shown once), publishable keys
// for the storefront, the list with 30-day usage per key, revoke with confirmation. Minting and
// revoking call the same domain functions as the operator CLI (app/domain/keys/keys.server.ts);
// usage comes from the kernel's counter (app/domain/keys/usage.server.ts, decision 060).
import { useEffect, useState } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, Checkbox, ChoiceList, FormLayout, InlineStack, Layout, Page, Text, TextField } from "@shopify/polaris";
import { adminContext, staffAction } from "../embedded/context.server";
import { ShownOnceModal } from "../embedded/shown-once-modal";
import { ConfirmModal } from "../embedded/confirm-modal";
import { keyUsage } from "../domain/keys/usage.server";
import { listKeys, mintKey, MINTABLE_SCOPES, PUBLISHABLE_SCOPES, revokeKey, type KeyKind } from "../domain/keys/keys.server";
import { ApiError } from "../infra/errors";
import { SCOPE_DESCRIPTIONS } from "../embedded/scopes";
import { planAllowsApi } from "../domain/shop/shops.server";
import { KEYS_PAGE_SIZE, KeysTable, keysQuery, selectKeys } from "../embedded/keys-table";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  const all = await listKeys(shop.id);
  const now = Date.now();
  const query = keysQuery(new URL(request.url).searchParams);
  const chosen = selectKeys(
    all.map((k) => ({ ...k, state: k.revokedAt ? "revoked" : k.expiresAt && k.expiresAt.getTime() <= now ? "expired" : "active" }) as const),
    query,
    KEYS_PAGE_SIZE,
  );
  const usage = await keyUsage(chosen.rows.map((k) => k.id));
  return json({
    query,
    total: chosen.total,
    hasNext: chosen.hasNext,
    // On the Free plan (or a development store without a paid Shopify plan) keys can be minted but every call is refused.
    plan: (planAllowsApi(shop) ? "ok" : shop.appPlan === "PRO" ? "dev_store" : "free") as "ok" | "free" | "dev_store",
    keys: chosen.rows.map((k) => ({
      id: k.id,
      name: k.name,
      kind: k.kind,
      scopes: k.scopes,
      hint: k.hint,
      createdAt: k.createdAt.toISOString(),
      lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
      expiresAt: k.expiresAt?.toISOString() ?? null,
      state: k.state,
      usage: usage.get(k.id) ?? null,
    })),
    secretScopes: MINTABLE_SCOPES,
    publishableScopes: PUBLISHABLE_SCOPES,
  });
};

type ActionResult = { ok: true; minted?: { name: string; key: string }; revoked?: string } | { ok: false; error: string };

export const action = (args: ActionFunctionArgs) =>
  staffAction(args, async ({ request }: ActionFunctionArgs) => {
    const { shop } = await adminContext(request);
    const form = await request.formData();
    const intent = form.get("intent");
    try {
      if (intent === "mint") {
        const kind: KeyKind = form.get("kind") === "PUBLISHABLE" ? "PUBLISHABLE" : "SECRET";
        const scopes = form.getAll("scopes").map(String);
        if (!scopes.length && kind === "SECRET") return json<ActionResult>({ ok: false, error: "Choose at least one scope." }, 400);
        const expires = String(form.get("expires") ?? "");
        let expiresAt: Date | null = null;
        if (expires) {
          if (!/^\d{4}-\d{2}-\d{2}$/.test(expires)) return json<ActionResult>({ ok: false, error: "The expiry date is not a date." }, 400);
          expiresAt = new Date(`${expires}T00:00:00Z`);
        }
        const name = String(form.get("name") ?? "");
        const minted = await mintKey({ shopId: shop.id, name, scopes, kind, expiresAt });
        return json<ActionResult>({ ok: true, minted: { name: name.trim(), key: minted.key } });
      }
      if (intent === "revoke") {
        const id = String(form.get("id") ?? "");
        if (!(await revokeKey(id, { shopId: shop.id }))) return json<ActionResult>({ ok: false, error: "No such key." }, 404);
        return json<ActionResult>({ ok: true, revoked: id });
      }
      return json<ActionResult>({ ok: false, error: "Unknown action." }, 400);
    } catch (err) {
      if (err instanceof ApiError) return json<ActionResult>({ ok: false, error: err.message }, 400);
      throw err;
    }
  });

type KeyRow = ReturnType<typeof useLoaderData<typeof loader>>["keys"][number];

function PlanWarning({ plan }: { plan: "ok" | "free" | "dev_store" }) {
  if (plan === "ok") return null;
  return (
    <Banner
      tone="warning"
      title={plan === "free" ? "Keys will not work until you upgrade to Pro" : "Keys will not work until this store is on a paid Shopify plan"}
      action={plan === "free" ? { content: "See plans", url: "/app/plan" } : undefined}
    >
      <p>
        {plan === "free"
          ? "Your shop is on the Free plan. You can mint keys now, but every request made with them is refused until the shop upgrades to Pro."
          : "This is a development store. You can mint keys now, but every request made with them is refused until the store moves to a paid Shopify plan."}
      </p>
    </Banner>
  );
}

function MintForm({
  secretScopes,
  publishableScopes,
  plan,
}: {
  secretScopes: readonly string[];
  publishableScopes: readonly string[];
  plan: "ok" | "free" | "dev_store";
}) {
  const fetcher = useFetcher<ActionResult>();
  const [kind, setKind] = useState<KeyKind>("SECRET");
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<string[]>([]);
  const [expires, setExpires] = useState("");
  const [shown, setShown] = useState<{ name: string; key: string } | null>(null);
  const offered = kind === "SECRET" ? secretScopes : publishableScopes;

  useEffect(() => {
    const data = fetcher.data;
    if (fetcher.state === "idle" && data?.ok && data.minted) {
      setShown(data.minted);
      setName("");
      setScopes([]);
      setExpires("");
    }
  }, [fetcher.state, fetcher.data]);

  const toggle = (scope: string, on: boolean) => setScopes((s) => (on ? [...s, scope] : s.filter((x) => x !== scope)));
  const submit = () => {
    const data = new FormData();
    data.set("intent", "mint");
    data.set("kind", kind);
    data.set("name", name);
    data.set("expires", expires);
    for (const s of scopes) data.append("scopes", s);
    fetcher.submit(data, { method: "post" });
  };
  const error = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;
  return (
    <Card>
      <BlockStack gap="400">
        <Text as="h2" variant="headingMd">
          Mint a key
        </Text>
        <PlanWarning plan={plan} />
        {error && (
          <Banner tone="critical" title="The key was not minted">
            <p>{error}</p>
          </Banner>
        )}
        <FormLayout>
          <ChoiceList
            title="Kind"
            choices={[
              { label: "Secret key (svc_sk_): for your servers only", value: "SECRET" },
              { label: "Publishable key (svc_pk_): for your storefront, safe in browsers", value: "PUBLISHABLE" },
            ]}
            selected={[kind]}
            onChange={(v) => {
              setKind(v[0] as KeyKind);
              setScopes([]);
            }}
          />
          <TextField label="Name" value={name} onChange={setName} autoComplete="off" helpText="Who or what uses it, e.g. “ERP sync”." maxLength={100} />
          <fieldset style={{ border: 0, margin: 0, padding: 0 }}>
            <legend>
              <Text as="span" variant="headingSm">
                Scopes
              </Text>
            </legend>
            <BlockStack gap="100">
              {offered.map((scope) => (
                <Checkbox
                  key={scope}
                  label={scope}
                  helpText={SCOPE_DESCRIPTIONS[scope]}
                  checked={scopes.includes(scope)}
                  onChange={(on) => toggle(scope, on)}
                />
              ))}
            </BlockStack>
          </fieldset>
          {scopes.includes("write:subscriptions") && (
            <Banner tone="warning" title="This key can cancel any subscription">
              <p>
                Whoever holds a key with write:subscriptions can pause, reschedule or cancel every contract of your shop. Give it only to servers you control.
              </p>
            </Banner>
          )}
          <TextField
            label="Expires on (optional)"
            type="date"
            value={expires}
            onChange={setExpires}
            autoComplete="off"
            helpText="An expiry cannot be extended later; mint a new key instead."
          />
          <InlineStack>
            <Button variant="primary" onClick={submit} loading={fetcher.state !== "idle"}>
              Mint key
            </Button>
          </InlineStack>
        </FormLayout>
      </BlockStack>
      <ShownOnceModal
        value={shown?.key ?? null}
        title={`Your new key “${shown?.name ?? ""}”`}
        warning="You will not see this key again"
        fieldLabel="API key"
        copyLabel="Copy key"
        onClose={() => setShown(null)}
      >
        Copy it now and store it somewhere safe. It is stored only as a hash: if you lose it, revoke it and mint another.
        {plan !== "ok" &&
          (plan === "free" ? " It will not work until the shop upgrades to Pro." : " It will not work until the store is on a paid Shopify plan.")}
      </ShownOnceModal>
    </Card>
  );
}

export default function ApiKeys() {
  const { keys, secretScopes, publishableScopes, plan, query, total, hasNext } = useLoaderData<typeof loader>();
  const revoker = useFetcher<ActionResult>();
  const [confirm, setConfirm] = useState<KeyRow | null>(null);
  const revoke = () => {
    if (!confirm) return;
    revoker.submit({ intent: "revoke", id: confirm.id }, { method: "post" });
    setConfirm(null);
  };
  useEffect(() => {
    if (revoker.state === "idle" && revoker.data?.ok && revoker.data.revoked) window.shopify?.toast.show("Key revoked");
  }, [revoker.state, revoker.data]);
  return (
    <Page title="API keys" subtitle="Credentials for the Admin, Storefront and Customer APIs.">
      <Layout>
        <Layout.Section>
          <MintForm secretScopes={secretScopes} publishableScopes={publishableScopes} plan={plan} />
        </Layout.Section>
        <Layout.Section>
          <KeysTable keys={keys} query={query} total={total} hasNext={hasNext} onRevoke={setConfirm} />
        </Layout.Section>
      </Layout>
      <ConfirmModal open={!!confirm} onClose={() => setConfirm(null)} title={`Revoke “${confirm?.name ?? ""}”?`} confirmLabel="Revoke key" onConfirm={revoke}>
        Every request made with this key is refused at once. This cannot be undone.
      </ConfirmModal>
    </Page>
  );
}
