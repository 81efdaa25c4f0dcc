// One item of a subscription on its detail page: what it is, and its quantity and variant edits.
// Both go through the same domain function as the Admin API's line PATCH
// (docs/decisions/023-subscription-writes.md); the variant comes from App Bridge's resource picker.
import { useState } from "react";
import { BlockStack, Button, InlineStack, Text, TextField } from "@shopify/polaris";
import { useFormat } from "./shop-format";
import type { Money } from "../domain/shared/money.server";

interface Line {
  line_id: string;
  product_id: string | null;
  variant_id: string | null;
  title: string | null;
  variant_title: string | null;
  quantity: number;
  price: Money | null;
}
interface PickedProduct {
  id: string;
  variants?: { id: string }[];
}
interface PickerWindow {
  shopify?: {
    resourcePicker?: (o: {
      type: string;
      multiple: boolean;
      selectionIds: { id: string; variants?: { id: string }[] }[];
    }) => Promise<PickedProduct[] | undefined>;
  };
}

export function LineEditor(props: {
  line: Line;
  editable: boolean;
  busy: boolean;
  run: (intent: "quantity" | "variant", extra: Record<string, string>) => void;
}) {
  const { formatMoney } = useFormat();
  const { line: l, editable, busy, run } = props;
  const [quantity, setQuantity] = useState(String(l.quantity));
  const name = `${l.title ?? "Item"}${l.variant_title ? ` (${l.variant_title})` : ""}`;

  async function changeVariant() {
    const picker = (window as PickerWindow).shopify?.resourcePicker;
    if (!picker) return;
    const current = l.product_id ? [{ id: l.product_id, variants: l.variant_id ? [{ id: l.variant_id }] : undefined }] : [];
    const selection = await picker({ type: "product", multiple: false, selectionIds: current });
    const variant = selection?.[0]?.variants?.[0]?.id;
    if (variant && variant !== l.variant_id) run("variant", { line_id: l.line_id, variant_id: variant });
  }

  return (
    <BlockStack gap="200">
      <Text as="p">
        {l.quantity} × {name} at {formatMoney(l.price)}
      </Text>
      {editable && (
        <InlineStack gap="200" blockAlign="end" wrap>
          <div style={{ maxWidth: "8rem" }}>
            <TextField label={`Quantity of ${name}`} type="number" min={1} max={100000} value={quantity} onChange={setQuantity} autoComplete="off" />
          </div>
          <Button onClick={() => run("quantity", { line_id: l.line_id, quantity })} disabled={busy || quantity === String(l.quantity)}>
            Update quantity
          </Button>
          <Button onClick={changeVariant} disabled={busy}>
            Change variant
          </Button>
        </InlineStack>
      )}
    </BlockStack>
  );
}
