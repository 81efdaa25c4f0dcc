// Notifications: the e-mail the app sends to customers (docs/decisions/101-104, docs/email.md).
// Templates (Liquid, strict: edit, preview with sample data, send a test to yourself), settings,
// the log with each message's lifecycle (sent is not delivered: only a DSN or a provider event
// says delivered), and the suppression list. Server side: app/embedded/notifications-page.server.ts.
import { useEffect, useState } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Box, Button, InlineStack, Layout, List, Page, Select, Tag, Text, TextField } from "@shopify/polaris";
import { adminContext, staffAction } from "../embedded/context.server";
import { useFormat } from "../embedded/shop-format";
import { NotificationLog } from "../embedded/notification-log";
import { NotificationSettingsCard } from "../embedded/notification-settings-card";
import { KIND_OPTIONS, notificationsAction, notificationsPageData, type ActionResult } from "../embedded/notifications-page.server";
import { SectionCard } from "../embedded/section-card";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop, session } = await adminContext(request);
  const staffEmail = session.onlineAccessInfo?.associated_user?.email ?? null;
  return json({ ...(await notificationsPageData(shop.id, new URL(request.url).searchParams, staffEmail)), kinds: KIND_OPTIONS });
};

export const action = (args: ActionFunctionArgs) =>
  staffAction(args, async ({ request }: ActionFunctionArgs) => {
    const { shop } = await adminContext(request);
    return json(await notificationsAction(shop.id, await request.formData()));
  });

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

function TemplatesCard({ templates, testRecipient }: { templates: Data["templates"]; testRecipient: string }) {
  const fetcher = useFetcher<ActionResult>();
  const [kind, setKind] = useState(templates[0].kind);
  const current = templates.find((t) => t.kind === kind)!;
  const [subject, setSubject] = useState(current.subject);
  const [body, setBody] = useState(current.body);
  const [to, setTo] = useState(testRecipient);
  const [preview, setPreview] = useState<{ subject: string; html: string } | null>(null);
  useEffect(() => {
    setSubject(current.subject);
    setBody(current.body);
    setPreview(null);
  }, [kind, current.subject, current.body]);
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (result?.ok && result.preview) setPreview(result.preview);
    if (result?.ok && result.message) window.shopify?.toast.show(result.message);
  }, [result]);
  const submit = (intent: string) => fetcher.submit({ intent, kind, subject, body, to }, { method: "post" });
  const busy = (intent: string) => fetcher.state !== "idle" && fetcher.formData?.get("intent") === intent;

  return (
    <SectionCard title="Templates">
      <Select
        label="Message"
        options={templates.map((t) => ({ label: t.customised ? `${t.label} (edited)` : t.label, value: t.kind }))}
        value={kind}
        onChange={setKind}
      />
      <TextField label="Subject" value={subject} onChange={setSubject} autoComplete="off" />
      <TextField
        label="Body"
        value={body}
        onChange={setBody}
        multiline={8}
        autoComplete="off"
        helpText="Plain text with Liquid. Blank lines make paragraphs; links become clickable."
      />
      <BlockStack gap="100">
        <Text as="h3" variant="headingSm">
          Variables
        </Text>
        <InlineStack gap="100" wrap>
          {current.variables.map((name) => (
            <Tag key={name}>{`{{ ${name} }}`}</Tag>
          ))}
        </InlineStack>
      </BlockStack>
      {result && !result.ok && (
        <Banner tone="critical" title="That did not work">
          <p>{result.error}</p>
        </Banner>
      )}
      <InlineStack gap="200" wrap>
        <Button onClick={() => submit("preview")} loading={busy("preview")}>
          Preview
        </Button>
        <Button variant="primary" onClick={() => submit("save-template")} loading={busy("save-template")}>
          Save template
        </Button>
        {current.customised && (
          <Button onClick={() => submit("reset-template")} loading={busy("reset-template")}>
            Reset to default
          </Button>
        )}
      </InlineStack>
      <InlineStack gap="200" blockAlign="end" wrap>
        <Box minWidth="16rem">
          <TextField label="Send a test to" type="email" value={to} onChange={setTo} autoComplete="email" />
        </Box>
        <Button onClick={() => submit("send-test")} loading={busy("send-test")}>
          Send test
        </Button>
      </InlineStack>
      {preview && (
        <BlockStack gap="100">
          <Text as="h3" variant="headingSm">
            Preview: {preview.subject}
          </Text>
          <iframe
            title="Message preview"
            sandbox=""
            srcDoc={preview.html}
            style={{ width: "100%", minHeight: "18rem", border: "1px solid #ddd", borderRadius: 8 }}
          />
        </BlockStack>
      )}
    </SectionCard>
  );
}

function SuppressionsCard({ suppressions }: { suppressions: Data["suppressions"] }) {
  const { formatDateTime } = useFormat();
  const fetcher = useFetcher<ActionResult>();
  return (
    <SectionCard title={`Suppressed addresses: ${suppressions.length}`}>
      <Text as="p" tone="subdued">
        Nothing is sent to these addresses (a hard bounce put them here). Remove one once the customer has fixed it.
      </Text>
      {suppressions.length > 0 && (
        <List>
          {suppressions.map((s) => (
            <List.Item key={s.address}>
              <InlineStack gap="200" blockAlign="center" wrap>
                <Text as="span">
                  {s.address}: {s.reason} ({formatDateTime(s.created_at)})
                </Text>
                <Button
                  size="slim"
                  onClick={() => fetcher.submit({ intent: "unsuppress", address: s.address }, { method: "post" })}
                  accessibilityLabel={`Remove ${s.address}`}
                >
                  Remove
                </Button>
              </InlineStack>
            </List.Item>
          ))}
        </List>
      )}
    </SectionCard>
  );
}

export default function Notifications() {
  const d = useLoaderData<typeof loader>();
  return (
    <Page title="Notifications" subtitle="E-mail to your customers: templates, settings, and what happened to each message.">
      <Layout>
        <Layout.Section>
          <Banner tone="info" title="Sent is not delivered">
            <p>
              Sent means a mail server accepted the message. Delivered and bounced come later, from the receiving server&apos;s delivery report or your e-mail
              provider&apos;s events.
            </p>
          </Banner>
        </Layout.Section>
        <Layout.Section>
          <TemplatesCard templates={d.templates} testRecipient={d.testRecipient} />
        </Layout.Section>
        <Layout.Section>
          <NotificationSettingsCard settings={d.settings} leadDays={d.leadDays} dkimRecord={d.dkimRecord} kinds={d.kinds} />
        </Layout.Section>
        <Layout.Section>
          <div id="log">
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                Log
              </Text>
              <NotificationLog rows={d.log} statuses={d.statuses} kinds={d.kinds} filters={d.filters} />
            </BlockStack>
          </div>
        </Layout.Section>
        <Layout.Section>
          <SuppressionsCard suppressions={d.suppressions} />
        </Layout.Section>
      </Layout>
    </Page>
  );
}
