// The form that adds an endpoint, its secret shown once (docs/decisions/075-webhooks-page.md).
import { useEffect, useState } from "react";
import { useFetcher } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, Checkbox, FormLayout, InlineError, InlineStack, Text, TextField } from "@shopify/polaris";
import { ShownOnceModal } from "../shown-once-modal";
import type { WebhooksActionResult as ActionResult } from "./page.server";
import { type Data } from "./types";

export function CreateForm({ catalogue, maxEndpoints }: { catalogue: Data["catalogue"]; maxEndpoints: number }) {
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
