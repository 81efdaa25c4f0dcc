// Storefront access (docs/decisions/132-allowed-origins.md): the web addresses whose pages may
// call the Storefront and Customer APIs with a publishable key, such as a headless storefront or
// a customer portal on its own domain. The shop's own domains are always allowed and shown.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, InlineStack, Layout, List, Page, Text, TextField } from "@shopify/polaris";
import { adminContext, staffAction } from "../embedded/context.server";
import { SectionCard } from "../embedded/section-card";
import { refusalTitle, SaveBar, useSettingsForm } from "../embedded/settings-form";
import { allowedOrigins, alwaysAllowedOrigins, ORIGIN_LIMITS, saveAllowedOrigins } from "../domain/keys/origins.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  const [origins, always] = await Promise.all([allowedOrigins(shop.id), alwaysAllowedOrigins(shop.id)]);
  return json({ origins, always, max: ORIGIN_LIMITS.maxOrigins });
};

type ActionResult = { ok: true } | { ok: false; errors: Record<string, string> };

export const action = (args: ActionFunctionArgs) =>
  staffAction(args, async ({ request }: ActionFunctionArgs) => {
    const { shop } = await adminContext(request);
    const form = await request.formData();
    const saved = await saveAllowedOrigins(shop.id, String(form.get("origins") ?? "").split(/[\r\n,]+/));
    return json<ActionResult>(saved.ok ? { ok: true } : { ok: false, errors: { origins: saved.error } });
  });

export default function StorefrontAccess() {
  const { origins, always, max } = useLoaderData<typeof loader>();
  const form = useSettingsForm({ origins: origins.join("\n") }, { savedMessage: "Allowed origins saved" });
  return (
    <Page title="Storefront access" subtitle="Which websites may use your publishable keys: your headless storefront, your customer portal.">
      <SaveBar id="storefront-access-save-bar" form={form} />
      <Layout>
        {form.errors.origins && (
          <Layout.Section>
            <Banner tone="critical" title={refusalTitle(form)}>
              <p>Correct the address marked below.</p>
            </Banner>
          </Layout.Section>
        )}
        <Layout.Section>
          <SectionCard title="Allowed origins">
            <Text as="p">
              A browser page may call the Storefront and Customer APIs only from an address listed here or from your shop&apos;s own domain. Requests from any
              other website are refused, even with a valid publishable key.
            </Text>
            <TextField
              label="Origins, one per line"
              multiline={4}
              value={form.values.origins}
              onChange={form.field("origins")}
              autoComplete="off"
              placeholder="https://portal.example.com"
              error={form.errors.origins}
              helpText={`The scheme and host only, such as https://portal.example.com (no path). https is required, except for localhost while you develop. At most ${max}.`}
            />
            <InlineStack align="end">
              <Button variant="primary" onClick={form.save} loading={form.busy}>
                Save
              </Button>
            </InlineStack>
          </SectionCard>
        </Layout.Section>
        <Layout.Section>
          <SectionCard title="Always allowed">
            <BlockStack gap="200">
              <Text as="p" tone="subdued">
                Your shop&apos;s own domains, as Shopify knows them.
              </Text>
              <List>
                {always.map((o) => (
                  <List.Item key={o}>
                    <Text as="span" breakWord>
                      {o}
                    </Text>
                  </List.Item>
                ))}
              </List>
            </BlockStack>
          </SectionCard>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
