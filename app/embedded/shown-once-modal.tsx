// A credential the app shows once (an API key just minted, a webhook endpoint's signing secret):
// a modal with the warning, the value in a read-only field and a copy button. Closing it is the
// last time the merchant sees the value; only a hash or a sealed copy is kept.
import { useEffect, useState, type ReactNode } from "react";
import { Banner, BlockStack, Button, InlineStack, Modal, Text, TextField } from "@shopify/polaris";

export function ShownOnceModal(props: {
  /** The value to show; null keeps the modal closed. */
  value: string | null;
  title: string;
  warning: string;
  /** What to do with it, in the warning banner. */
  children: ReactNode;
  fieldLabel: string;
  copyLabel: string;
  onClose: () => void;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => setCopied(false), [props.value]);
  const copy = async () => {
    if (props.value === null) return;
    await navigator.clipboard.writeText(props.value);
    setCopied(true);
  };
  return (
    <Modal open={props.value !== null} onClose={props.onClose} title={props.title} primaryAction={{ content: "Done", onAction: props.onClose }}>
      <Modal.Section>
        <BlockStack gap="300">
          <Banner tone="warning" title={props.warning}>
            <p>{props.children}</p>
          </Banner>
          <TextField label={props.fieldLabel} value={props.value ?? ""} readOnly autoComplete="off" monospaced />
          <InlineStack gap="200" blockAlign="center">
            <Button onClick={copy}>{props.copyLabel}</Button>
            {copied && <Text as="span">Copied to the clipboard</Text>}
          </InlineStack>
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}
