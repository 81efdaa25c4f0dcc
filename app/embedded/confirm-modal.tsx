// A confirmation for destructive actions (revoke a key, cancel a subscription, cancel Pro). The
// buttons sit in the modal's body rather than its footer: at phone heights the body scrolls, and
// a scrollable region must hold something focusable (axe: scrollable-region-focusable).
import type { ReactNode } from "react";
import { BlockStack, Button, InlineStack, Modal, Text } from "@shopify/polaris";

export function ConfirmModal(props: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal open={props.open} onClose={props.onClose} title={props.title}>
      <Modal.Section>
        <BlockStack gap="400">
          <Text as="p">{props.children}</Text>
          <InlineStack gap="200" align="end">
            <Button onClick={props.onClose}>{props.cancelLabel ?? "Cancel"}</Button>
            <Button variant="primary" tone="critical" onClick={props.onConfirm}>
              {props.confirmLabel}
            </Button>
          </InlineStack>
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}
