// Webhooks: the merchant's side of outbound webhooks (docs/decisions/075-webhooks-page.md).
// Endpoints (create with the catalogue's events and the secret shown once, enable/disable,
// delete with confirmation, send a test event, recover failed deliveries since a time) and the
// delivery log (filters by endpoint, status and event; each attempt's outcome; resend). The
// loader and action call the domain functions the Admin API's webhook routes call
// (app/domain/outbound-webhooks/, docs/decisions/054-webhook-management.md) with the admin session's
// shop; nothing here makes an HTTP call to the app itself. A shop below Pro sees the upgrade path.
import { useEffect, useState } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useFetcher, useLoaderData, useNavigate, useNavigation, useRevalidator } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  Checkbox,
  FormLayout,
  InlineError,
  InlineGrid,
  InlineStack,
  Layout,
  Modal,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { adminContext } from "../embedded/context.server";
import { ShownOnceModal } from "../embedded/shown-once-modal";
import { ConfirmModal } from "../embedded/confirm-modal";
import { formatDate, formatDateTime } from "../embedded/format";
import { webhooksPageAction, webhooksPageData, type Intent, type WebhooksActionResult as ActionResult } from "../embedded/webhooks-page.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  return json(await webhooksPageData(shop, new URL(request.url).searchParams));
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop } = await adminContext(request);
  const result = await webhooksPageAction(shop, await request.formData());
  return json<ActionResult>(result.body, result.status);
};

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type EndpointRow = Data["endpoints"][number];
type DeliveryRow = Data["deliveries"][number];

const DELIVERY_TONE: Record<string, "info" | "success" | "warning" | "critical"> = {
  pending: "info",
  delivered: "success",
  failed: "warning",
  exhausted: "critical",
};
/** Attempts are seconds apart: the log shows the seconds. */
const formatInstant = (iso: string) => `${iso.slice(0, 19).replace("T", " ")} UTC`;
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function DeliveryBadge({ status }: { status: string }) {
  return <Badge tone={DELIVERY_TONE[status]}>{capital(status)}</Badge>;
}

function CreateForm({ catalogue, maxEndpoints }: { catalogue: Data["catalogue"]; maxEndpoints: number }) {
  const fetcher = useFetcher<ActionResult>();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<string[]>([]);
  const [shown, setShown] = useState<{ url: string; secret: string } | null>(null);

  useEffect(() => {
    const data = fetcher.data;
    if (fetcher.state === "idle" && data?.ok && data.created) {
      setShown(data.created);
      setUrl("");
      setEvents([]);
    }
  }, [fetcher.state, fetcher.data]);

  const failed = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data : null;
  const toggle = (name: string, on: boolean) => setEvents((list) => (on ? [...list, name] : list.filter((x) => x !== name)));
  const submit = () => {
    const data = new FormData();
    data.set("intent", "create");
    data.set("url", url);
    for (const e of events) data.append("events", e);
    fetcher.submit(data, { method: "post" });
  };
  return (
    <Card>
      <BlockStack gap="400">
        <Text as="h2" variant="headingMd">
          Add an endpoint
        </Text>
        {failed && !failed.field && (
          <Banner tone="critical" title="The endpoint was not added">
            <p>{failed.error}</p>
          </Banner>
        )}
        <FormLayout>
          <TextField
            label="Endpoint URL"
            value={url}
            onChange={setUrl}
            autoComplete="off"
            type="url"
            inputMode="url"
            placeholder="https://example.com/webhooks"
            helpText={`HTTPS only, on a public address. The URL cannot be changed later. At most ${maxEndpoints} enabled endpoints.`}
            error={failed?.field === "url" ? failed.error : undefined}
          />
          <fieldset style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }} aria-describedby={failed?.field === "events" ? "events-error" : undefined}>
            <legend>
              <Text as="span" variant="headingSm">
                Events
              </Text>
            </legend>
            <BlockStack gap="100">
              {catalogue.map((e) => (
                <Checkbox
                  key={e.name}
                  label={e.name}
                  helpText={`When ${e.firesWhen}`}
                  checked={events.includes(e.name)}
                  onChange={(on) => toggle(e.name, on)}
                />
              ))}
            </BlockStack>
            {failed?.field === "events" && <InlineError message={failed.error} fieldID="events" />}
          </fieldset>
          <InlineStack>
            <Button variant="primary" onClick={submit} loading={fetcher.state !== "idle"}>
              Add endpoint
            </Button>
          </InlineStack>
        </FormLayout>
      </BlockStack>
      <ShownOnceModal
        value={shown?.secret ?? null}
        title="Your endpoint's signing secret"
        warning="You will not see this secret again"
        fieldLabel="Signing secret"
        copyLabel="Copy secret"
        onClose={() => setShown(null)}
      >
        Copy it now and keep it with your receiver: it verifies the X-Service-Signature header of every delivery to {shown?.url}. If you lose it, delete the
        endpoint and add it again.
      </ShownOnceModal>
    </Card>
  );
}

function DisabledBanner({ e, disableAfter, ladder }: { e: EndpointRow; disableAfter: number; ladder: string }) {
  const when = formatDateTime(e.disabledAt);
  const after = "Events raised while it was disabled are not delivered to it, even after it is re-enabled.";
  if (e.disabledReason === "exhausted") {
    return (
      <Banner tone="critical" title={`Disabled after ${disableAfter} deliveries in a row failed`}>
        <p>
          On {when} the {disableAfter}th delivery in a row used up every retry ({ladder}) without a 2xx answer, so deliveries to this endpoint stopped. Fix the
          receiver so it answers 2xx within 10 seconds, check it with Send test event, then choose Re-enable. {after} Recover resends the deliveries that
          failed.
        </p>
      </Banner>
    );
  }
  if (e.disabledReason === "uninstalled") {
    return (
      <Banner tone="critical" title="Disabled when the app was uninstalled">
        <p>
          Uninstalling the app on {when} switched every endpoint off. Choose Re-enable to receive events again. {after}
        </p>
      </Banner>
    );
  }
  return (
    <Banner tone="critical" title="Disabled by you">
      <p>
        It was switched off on {when}, on this page or through the Admin API. Choose Re-enable to receive events again. {after}
      </p>
    </Banner>
  );
}

function EndpointCard({
  e,
  disableAfter,
  ladder,
  busy,
  run,
  onDelete,
  onRecover,
}: {
  e: EndpointRow;
  disableAfter: number;
  ladder: string;
  busy: boolean;
  run: (intent: Intent, id: string) => void;
  onDelete: (e: EndpointRow) => void;
  onRecover: (e: EndpointRow) => void;
}) {
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack gap="200" blockAlign="center" wrap>
          <Text as="h3" variant="headingSm" breakWord>
            {e.url}
          </Text>
          <Badge tone={e.enabled ? "success" : "critical"}>{e.enabled ? "Enabled" : "Disabled"}</Badge>
        </InlineStack>
        {!e.enabled && <DisabledBanner e={e} disableAfter={disableAfter} ladder={ladder} />}
        {e.enabled && e.consecutiveExhausted > 0 && (
          <Banner tone="warning" title={`${e.consecutiveExhausted} of ${disableAfter} deliveries in a row failed`}>
            <p>Check that the receiver answers 2xx quickly: at {disableAfter} the endpoint is disabled. Any delivered event resets the count.</p>
          </Banner>
        )}
        <Text as="p" breakWord>
          Events: {e.events.join(", ")}
        </Text>
        <Text as="p" tone="subdued">
          Added {formatDate(e.createdAt)}
        </Text>
        <InlineStack gap="200" wrap>
          {e.enabled ? (
            <Button onClick={() => run("disable", e.id)} disabled={busy} accessibilityLabel={`Disable ${e.url}`}>
              Disable
            </Button>
          ) : (
            <Button variant="primary" onClick={() => run("enable", e.id)} disabled={busy} accessibilityLabel={`Re-enable ${e.url}`}>
              Re-enable
            </Button>
          )}
          <Button onClick={() => run("test", e.id)} disabled={busy} accessibilityLabel={`Send a test event to ${e.url}`}>
            Send test event
          </Button>
          <Button onClick={() => onRecover(e)} disabled={busy} accessibilityLabel={`Recover failed deliveries of ${e.url}`}>
            Recover
          </Button>
          <Button url={`/app/webhooks?endpoint=${encodeURIComponent(e.id)}`} accessibilityLabel={`Deliveries of ${e.url}`}>
            Deliveries
          </Button>
          <Button tone="critical" onClick={() => onDelete(e)} disabled={busy} accessibilityLabel={`Delete ${e.url}`}>
            Delete
          </Button>
        </InlineStack>
      </BlockStack>
    </Card>
  );
}

function DeliveryItem({ d, busy, onResend }: { d: DeliveryRow; busy: boolean; onResend: (id: string) => void }) {
  return (
    <Box padding="400" borderBlockStartWidth="025" borderColor="border">
      <BlockStack gap="200">
        <InlineStack gap="200" blockAlign="center" wrap>
          <Text as="h3" variant="headingSm">
            {d.event}
          </Text>
          <DeliveryBadge status={d.status} />
          {d.test && <Badge>Test event</Badge>}
          {d.manual && <Badge tone="info">Manual</Badge>}
        </InlineStack>
        <Text as="p" breakWord tone="subdued">
          To {d.endpointUrl} · {formatDateTime(d.createdAt)} · {d.eventId}
        </Text>
        <Text as="p" breakWord>
          {d.attempts === 1 ? "1 attempt" : `${d.attempts} attempts`}
          {d.deliveredAt ? ` · delivered ${formatDateTime(d.deliveredAt)}` : ""}
          {d.nextAttemptAt ? ` · next attempt ${formatDateTime(d.nextAttemptAt)}` : ""}
          {d.lastError && d.status !== "delivered" ? ` · last error: ${d.lastError}` : ""}
        </Text>
        {d.attemptLog.length > 0 && (
          <ol aria-label={`Attempts of ${d.event} ${d.id}`} style={{ margin: 0, paddingInlineStart: "1.5em" }}>
            {d.attemptLog.map((a) => (
              <li key={a.number}>
                <Text as="span" breakWord>
                  {formatInstant(a.finishedAt)} · {a.responseCode === null ? "no response" : `HTTP ${a.responseCode}`} · {capital(a.outcome)}
                  {a.manual ? " (manual)" : ""}
                  {a.error && a.outcome !== "delivered" ? ` · ${a.error}` : ""}
                </Text>
              </li>
            ))}
          </ol>
        )}
        {(d.status === "failed" || d.status === "exhausted") && (
          <InlineStack>
            <Button onClick={() => onResend(d.id)} disabled={busy} accessibilityLabel={`Resend ${d.event} ${d.id}`}>
              Resend
            </Button>
          </InlineStack>
        )}
      </BlockStack>
    </Box>
  );
}

function DeliveryLog({ data, busy, onResend }: { data: Data; busy: boolean; onResend: (id: string) => void }) {
  const navigate = useNavigate();
  const loading = useNavigation().state === "loading";
  const revalidator = useRevalidator();
  const [f, setF] = useState(data.filters);
  useEffect(() => setF(data.filters), [data.filters]);
  const search = (values: Record<string, string>, cursor?: string) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(values)) if (v) p.set(k, v);
    if (cursor) p.set("cursor", cursor);
    navigate(`/app/webhooks${p.size ? `?${p}` : ""}`);
  };
  return (
    <Card padding="0">
      <Box padding="400">
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            Delivery log
          </Text>
          <form
            role="search"
            aria-label="Filter deliveries"
            onSubmit={(e) => {
              e.preventDefault();
              search(f);
            }}
          >
            <FormLayout>
              <InlineGrid columns={{ xs: 1, sm: 3 }} gap="300">
                <Select
                  label="Endpoint"
                  options={[{ label: "Any endpoint", value: "" }, ...data.endpoints.map((e) => ({ label: e.url, value: e.id }))]}
                  value={f.endpoint}
                  onChange={(v) => setF((p) => ({ ...p, endpoint: v }))}
                />
                <Select
                  label="Delivery status"
                  options={[{ label: "Any status", value: "" }, ...data.statuses.map((s) => ({ label: capital(s), value: s }))]}
                  value={f.status}
                  onChange={(v) => setF((p) => ({ ...p, status: v as typeof p.status }))}
                />
                <Select
                  label="Event"
                  options={[{ label: "Any event", value: "" }, ...data.catalogue.map((e) => ({ label: e.name, value: e.name }))]}
                  value={f.event}
                  onChange={(v) => setF((p) => ({ ...p, event: v }))}
                />
              </InlineGrid>
              <InlineStack gap="200" wrap>
                <Button submit variant="primary" loading={loading}>
                  Apply filters
                </Button>
                <Button onClick={() => search({})}>Clear</Button>
                <Button onClick={() => revalidator.revalidate()} loading={revalidator.state !== "idle"}>
                  Refresh
                </Button>
              </InlineStack>
            </FormLayout>
          </form>
          {data.cursorError && (
            <Banner tone="warning">
              <p>{data.cursorError}</p>
            </Banner>
          )}
        </BlockStack>
      </Box>
      {data.deliveries.length === 0 ? (
        <Box padding="400" borderBlockStartWidth="025" borderColor="border">
          <Text as="p">No deliveries match. Events are delivered to enabled endpoints subscribed to them.</Text>
        </Box>
      ) : (
        <ul aria-label="Deliveries" style={{ listStyle: "none", margin: 0, padding: 0 }}>
          {data.deliveries.map((d) => (
            <li key={d.id}>
              <DeliveryItem d={d} busy={busy} onResend={onResend} />
            </li>
          ))}
        </ul>
      )}
      {(data.paged || data.nextCursor) && (
        <Box padding="400" borderBlockStartWidth="025" borderColor="border">
          <InlineStack gap="200">
            {data.paged && <Button onClick={() => search(data.filters)}>Newest</Button>}
            {data.nextCursor && <Button onClick={() => search(data.filters, data.nextCursor!)}>Older deliveries</Button>}
          </InlineStack>
        </Box>
      )}
    </Card>
  );
}

const dayAgo = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 16);

function RecoverModal({ endpoint, onClose, onRecover }: { endpoint: EndpointRow | null; onClose: () => void; onRecover: (since: string) => void }) {
  const [since, setSince] = useState(dayAgo);
  useEffect(() => {
    if (endpoint) setSince(dayAgo());
  }, [endpoint]);
  return (
    <Modal open={!!endpoint} onClose={onClose} title="Recover failed deliveries">
      <Modal.Section>
        <BlockStack gap="400">
          <Text as="p" breakWord>
            Every failed or exhausted delivery to {endpoint?.url} created since this time gets one more attempt now, marked manual in the log.
          </Text>
          <TextField label="Since (UTC)" type="datetime-local" value={since} onChange={setSince} autoComplete="off" />
          <InlineStack gap="200" align="end">
            <Button onClick={onClose}>Cancel</Button>
            <Button variant="primary" onClick={() => onRecover(since)}>
              Resend failed deliveries
            </Button>
          </InlineStack>
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}

function UpgradeCard({ upgradeUrl, endpoints }: { upgradeUrl: string; endpoints: number }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Banner tone="info" title="Webhooks are part of the Pro plan">
          <p>
            Upgrade to Pro to send signed subscription, payment and gift events to your own HTTPS endpoints, with retries and a delivery log.
            {endpoints > 0 ? ` Your ${endpoints === 1 ? "endpoint receives" : `${endpoints} endpoints receive`} no events until you upgrade.` : ""}
          </p>
        </Banner>
        <InlineStack>
          <Button variant="primary" url={upgradeUrl}>
            Upgrade to Pro
          </Button>
        </InlineStack>
      </BlockStack>
    </Card>
  );
}

export default function Webhooks() {
  const data = useLoaderData<typeof loader>();
  const fetcher = useFetcher<ActionResult>();
  const [deleting, setDeleting] = useState<EndpointRow | null>(null);
  const [recovering, setRecovering] = useState<EndpointRow | null>(null);
  const busy = fetcher.state !== "idle";
  const run = (intent: Intent, id: string, extra: Record<string, string> = {}) => fetcher.submit({ intent, id, ...extra }, { method: "post" });

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) window.shopify?.toast.show(fetcher.data.message);
  }, [fetcher.state, fetcher.data]);
  const error = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;

  return (
    <Page title="Webhooks" subtitle="Signed events sent to your own HTTPS endpoints as subscriptions change.">
      <Layout>
        {!data.pro ? (
          <Layout.Section>
            <UpgradeCard upgradeUrl={data.upgradeUrl} endpoints={data.endpoints.length} />
          </Layout.Section>
        ) : (
          <>
            {error && (
              <Layout.Section>
                <Banner tone="critical" title="That did not work">
                  <p>{error}</p>
                </Banner>
              </Layout.Section>
            )}
            <Layout.Section>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Endpoints
                </Text>
                {data.endpoints.length === 0 ? (
                  <Card>
                    <Text as="p">No endpoints yet. Add one below to start receiving events.</Text>
                  </Card>
                ) : (
                  <ul aria-label="Endpoints" style={{ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: "12px" }}>
                    {data.endpoints.map((e) => (
                      <li key={e.id}>
                        <EndpointCard
                          e={e}
                          disableAfter={data.disableAfter}
                          ladder={data.ladder}
                          busy={busy}
                          run={run}
                          onDelete={setDeleting}
                          onRecover={setRecovering}
                        />
                      </li>
                    ))}
                  </ul>
                )}
              </BlockStack>
            </Layout.Section>
            <Layout.Section>
              <CreateForm catalogue={data.catalogue} maxEndpoints={data.maxEndpoints} />
            </Layout.Section>
            <Layout.Section>
              <DeliveryLog data={data} busy={busy} onResend={(id) => run("resend", id)} />
            </Layout.Section>
          </>
        )}
      </Layout>
      <ConfirmModal
        open={!!deleting}
        onClose={() => setDeleting(null)}
        title="Delete this endpoint?"
        confirmLabel="Delete endpoint"
        onConfirm={() => {
          if (deleting) run("delete", deleting.id);
          setDeleting(null);
        }}
      >
        Events stop being sent to {deleting?.url ?? ""} and its delivery log is deleted with it. This cannot be undone; to receive events there again, add the
        endpoint anew (it gets a new secret).
      </ConfirmModal>
      <RecoverModal
        endpoint={recovering}
        onClose={() => setRecovering(null)}
        onRecover={(since) => {
          if (recovering) run("recover", recovering.id, { since });
          setRecovering(null);
        }}
      />
    </Page>
  );
}
