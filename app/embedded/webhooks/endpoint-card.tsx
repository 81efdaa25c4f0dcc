// One endpoint: its state, why it was disabled, its actions, and the recover modal (docs/decisions/075-webhooks-page.md).
import { useEffect, useState } from "react";
import { Badge, Banner, BlockStack, Button, Card, InlineStack, Modal, Text, TextField } from "@shopify/polaris";
import { useFormat } from "../shop-format";
import type { Intent } from "./page.server";
import { type EndpointRow } from "./types";

export function DisabledBanner({ e, disableAfter, ladder }: { e: EndpointRow; disableAfter: number; ladder: string }) {
  const { formatDateTime } = useFormat();
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

export function EndpointCard({
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
  const { formatDate } = useFormat();
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

const dayAgo = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 16);

export function RecoverModal({ endpoint, onClose, onRecover }: { endpoint: EndpointRow | null; onClose: () => void; onRecover: (since: string) => void }) {
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
