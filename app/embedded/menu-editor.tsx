// A period's menu on the Bundles page (app/routes/app.bundles.$id_.menus.$period.tsx;
// docs/decisions/105-bundle-builder.md): variants from App Bridge's resource picker, a limit per
// item and the fallback box (build-a-box) or a fixed quantity (curated). "Copy last period's menu"
// fills the form from the previous period; nothing is saved until the merchant saves or publishes.
import { Banner, BlockStack, Card, InlineGrid, Text, TextField } from "@shopify/polaris";
import type { FieldErrors, MenuItemForm } from "../domain/catalog/bundle-form";
import { RemovableRow, text } from "./catalog-form";

interface PickedResource {
  id: string;
  title: string;
  variants?: { id: string; title: string }[];
}
interface PickerWindow {
  shopify?: { resourcePicker?: (o: { type: string; multiple: boolean; selectionIds: { id: string }[] }) => Promise<PickedResource[] | undefined> };
}

const count = (v: string) => (v.trim() === "" ? null : Number(v));

/** Opens the resource picker and adds the picked variants not yet on the menu. */
export async function pickVariants(items: MenuItemForm[], buildABox: boolean): Promise<MenuItemForm[] | null> {
  const picker = (window as PickerWindow).shopify?.resourcePicker;
  if (!picker) return null;
  const selection = await picker({ type: "product", multiple: true, selectionIds: [] });
  if (!selection) return null;
  const have = new Set(items.map((i) => i.variantId));
  const added: MenuItemForm[] = [];
  for (const p of selection) {
    for (const v of p.variants ?? []) {
      if (have.has(v.id)) continue;
      have.add(v.id);
      added.push({ variantId: v.id, title: `${p.title} – ${v.title}`, maxQuantity: buildABox ? 1 : null, fallbackQuantity: 0, quantity: buildABox ? null : 1 });
    }
  }
  return [...items, ...added];
}

export function MenuItems(props: { items: MenuItemForm[]; buildABox: boolean; errors: FieldErrors; onChange: (items: MenuItemForm[]) => void }) {
  const { items, errors, buildABox } = props;
  const set = (n: number, patch: Partial<MenuItemForm>) => props.onChange(items.map((x, j) => (j === n ? { ...x, ...patch } : x)));
  return (
    <BlockStack gap="300">
      {errors.items && (
        <Banner tone="critical">
          <p>{errors.items}</p>
        </Banner>
      )}
      {buildABox && errors.fallback && (
        <Banner tone="critical">
          <p>{errors.fallback}</p>
        </Banner>
      )}
      {items.length === 0 && (
        <Card>
          <Text as="p" tone="subdued">
            No items yet: select products, or copy last period&apos;s menu.
          </Text>
        </Card>
      )}
      {items.map((item, n) => {
        const name = item.title ?? item.variantId;
        const e = (k: string) => errors[`items.${n}.${k}`];
        return (
          <Card key={item.variantId}>
            <BlockStack gap="200">
              <RemovableRow name={name} heading error={e("variantId")} onRemove={() => props.onChange(items.filter((_, j) => j !== n))} />
              {buildABox ? (
                <InlineGrid columns={{ xs: 1, sm: 2 }} gap="200">
                  <TextField
                    label={`Limit per box for ${name}`}
                    type="number"
                    min={1}
                    value={text(item.maxQuantity)}
                    onChange={(v) => set(n, { maxQuantity: count(v) })}
                    error={e("maxQuantity")}
                    helpText="Empty: no limit"
                    autoComplete="off"
                  />
                  <TextField
                    label={`In the fallback box: ${name}`}
                    type="number"
                    min={0}
                    value={text(item.fallbackQuantity)}
                    onChange={(v) => set(n, { fallbackQuantity: count(v) ?? 0 })}
                    error={e("fallbackQuantity")}
                    autoComplete="off"
                  />
                </InlineGrid>
              ) : (
                <TextField
                  label={`Quantity of ${name}`}
                  type="number"
                  min={1}
                  value={text(item.quantity)}
                  onChange={(v) => set(n, { quantity: count(v) })}
                  error={e("quantity")}
                  autoComplete="off"
                />
              )}
            </BlockStack>
          </Card>
        );
      })}
    </BlockStack>
  );
}
