// The plan form of the Plans page (app/routes/app.plans.$id.tsx): group, products (App Bridge's
// resource picker), schedule, one card per plan option, and a live preview of the dates from
// the schedule engine (the same module billing, skip and reschedule use). Shopify's refusals
// arrive as { "form field path": message } and show on that field.
import { useMemo, useState } from "react";
import { Banner, BlockStack, Button, Card, Checkbox, ChoiceList, FormLayout, InlineGrid, InlineStack, List, Select, Text, TextField } from "@shopify/polaris";
import { generatedLabel, type FieldErrors, type PlanGroupForm, type PlanOptionForm } from "../domain/catalog/plan-form";
import { anchoredOf } from "../domain/catalog/plan-form";
import { chargeSequence, civilIso, parseCivil, signupDates, type Schedule } from "../domain/shared/schedule";

const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const INTERVAL_OPTIONS = [
  { label: "Days", value: "DAY" },
  { label: "Weeks", value: "WEEK" },
  { label: "Months", value: "MONTH" },
  { label: "Years", value: "YEAR" },
];
const PRICING_OPTIONS = [
  { label: "Percentage off", value: "PERCENTAGE" },
  { label: "Amount off", value: "FIXED_AMOUNT" },
  { label: "Fixed price", value: "PRICE" },
];

export const newOption = (): PlanOptionForm => ({
  id: null,
  interval: "MONTH",
  intervalCount: 1,
  pricing: { type: "PERCENTAGE", value: "10", afterCycle: null, afterType: null, afterValue: null },
  minCycles: null,
  maxCycles: null,
  giftable: false,
  label: "",
});

const int = (v: string) => (v.trim() === "" ? null : Number(v));
const text = (n: number | null) => (n === null || Number.isNaN(n) ? "" : String(n));

interface PickedResource {
  id: string;
  title: string;
  variants?: { id: string; title: string }[];
}
interface PickerWindow {
  shopify?: { resourcePicker?: (o: { type: string; multiple: boolean; selectionIds: { id: string }[] }) => Promise<PickedResource[] | undefined> };
}

function Preview({ form, timeZone, today }: { form: PlanGroupForm; timeZone: string; today: string }) {
  const [start, setStart] = useState(today);
  const first = form.plans[0];
  const dates = useMemo(() => {
    const day = parseCivil(start);
    if (!day || !first) return null;
    const schedule: Schedule | null =
      form.schedule.mode === "anchored"
        ? anchoredOf(form.schedule, first.intervalCount || 1)
        : { mode: "rolling", interval: first.interval, intervalCount: first.intervalCount || 1 };
    try {
      return { signup: signupDates(day, schedule!), charges: chargeSequence(day, schedule!, 7) };
    } catch {
      return null;
    }
  }, [start, form.schedule, first]);
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Preview
        </Text>
        <TextField
          label="Sign-up date"
          type="date"
          value={start}
          onChange={setStart}
          autoComplete="off"
          helpText={`Dates on your shop's calendar (${timeZone}), for the first option.`}
        />
        {dates ? (
          <BlockStack gap="200">
            <Text as="p">
              First charge: <strong data-testid="preview-first-charge">{civilIso(dates.signup.firstCharge)}</strong>
            </Text>
            <Text as="p">
              First shipment: <strong data-testid="preview-first-shipment">{civilIso(dates.signup.firstShipment)}</strong>
            </Text>
            <Text as="p">Next six charges:</Text>
            <List>
              {dates.charges.slice(1).map((c) => (
                <List.Item key={civilIso(c)}>{civilIso(c)}</List.Item>
              ))}
            </List>
          </BlockStack>
        ) : (
          <Text as="p" tone="subdued">
            Enter a sign-up date and a valid schedule to see the dates.
          </Text>
        )}
      </BlockStack>
    </Card>
  );
}

function OptionCard(props: {
  index: number;
  option: PlanOptionForm;
  form: PlanGroupForm;
  errors: FieldErrors;
  onChange: (o: PlanOptionForm) => void;
  onRemove?: () => void;
}) {
  const { index: i, option: o, errors } = props;
  const e = (k: string) => errors[`plans.${i}.${k}`];
  const set = (patch: Partial<PlanOptionForm>) => props.onChange({ ...o, ...patch });
  const setPricing = (patch: Partial<PlanOptionForm["pricing"]>) => set({ pricing: { ...o.pricing, ...patch } });
  const anchored = props.form.schedule.mode === "anchored";
  const changes = o.pricing.afterCycle !== null;
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h3" variant="headingSm">{`Option ${i + 1}`}</Text>
          {props.onRemove && (
            <Button variant="plain" tone="critical" onClick={props.onRemove} accessibilityLabel={`Remove option ${i + 1}`}>
              Remove
            </Button>
          )}
        </InlineStack>
        {errors[`plans.${i}`] && (
          <Banner tone="critical">
            <p>{errors[`plans.${i}`]}</p>
          </Banner>
        )}
        <FormLayout>
          <FormLayout.Group>
            <TextField
              label={anchored && !props.form.schedule.anchorMonths.length ? "Every how many months" : "Deliver every"}
              type="number"
              min={1}
              value={text(o.intervalCount)}
              onChange={(v) => set({ intervalCount: int(v) ?? Number.NaN })}
              error={e("intervalCount")}
              autoComplete="off"
              disabled={anchored && props.form.schedule.anchorMonths.length > 0}
            />
            {!anchored && (
              <Select label="Interval" options={INTERVAL_OPTIONS} value={o.interval} onChange={(v) => set({ interval: v as PlanOptionForm["interval"] })} />
            )}
          </FormLayout.Group>
          <FormLayout.Group>
            <Select
              label="Pricing"
              options={PRICING_OPTIONS}
              value={o.pricing.type}
              onChange={(v) => setPricing({ type: v as PlanOptionForm["pricing"]["type"] })}
            />
            <TextField
              label={o.pricing.type === "PERCENTAGE" ? "Percentage" : "Amount"}
              value={o.pricing.value}
              onChange={(v) => setPricing({ value: v })}
              error={e("pricing")}
              autoComplete="off"
              suffix={o.pricing.type === "PERCENTAGE" ? "%" : undefined}
            />
          </FormLayout.Group>
          <Checkbox
            label="Change the price after a number of orders"
            checked={changes}
            onChange={(on) =>
              setPricing(on ? { afterCycle: 3, afterType: "PERCENTAGE", afterValue: "15" } : { afterCycle: null, afterType: null, afterValue: null })
            }
          />
          {changes && (
            <FormLayout.Group>
              <TextField
                label="From order"
                type="number"
                min={1}
                value={text(o.pricing.afterCycle)}
                onChange={(v) => setPricing({ afterCycle: int(v) })}
                autoComplete="off"
              />
              <Select
                label="Then"
                options={PRICING_OPTIONS}
                value={o.pricing.afterType ?? "PERCENTAGE"}
                onChange={(v) => setPricing({ afterType: v as PlanOptionForm["pricing"]["type"] })}
              />
              <TextField
                label="Then value"
                value={o.pricing.afterValue ?? ""}
                onChange={(v) => setPricing({ afterValue: v })}
                error={e("pricing.after")}
                autoComplete="off"
              />
            </FormLayout.Group>
          )}
          <FormLayout.Group>
            <TextField
              label="Minimum orders"
              type="number"
              min={1}
              value={text(o.minCycles)}
              onChange={(v) => set({ minCycles: int(v) })}
              error={e("minCycles")}
              autoComplete="off"
            />
            <TextField
              label="Maximum orders"
              type="number"
              min={1}
              value={text(o.maxCycles)}
              onChange={(v) => set({ maxCycles: int(v) })}
              error={e("maxCycles")}
              autoComplete="off"
            />
          </FormLayout.Group>
          <Checkbox label="Can be bought as a gift" checked={o.giftable} onChange={(giftable) => set({ giftable })} />
          <TextField
            label="Label shown at checkout"
            value={o.label}
            placeholder={generatedLabel(o, props.form.schedule)}
            helpText={`Leave empty to use: ${generatedLabel(o, props.form.schedule)}`}
            onChange={(label) => set({ label })}
            error={e("label")}
            autoComplete="off"
          />
        </FormLayout>
      </BlockStack>
    </Card>
  );
}

export function PlanEditor(props: {
  initial: PlanGroupForm;
  errors: FieldErrors;
  saving: boolean;
  timeZone: string;
  today: string;
  onSave: (f: PlanGroupForm) => void;
}) {
  const [form, setForm] = useState<PlanGroupForm>(props.initial);
  const [picked, setPicked] = useState<string[]>([]);
  const { errors } = props;
  const s = form.schedule;
  const setSchedule = (patch: Partial<PlanGroupForm["schedule"]>) => setForm((f) => ({ ...f, schedule: { ...f.schedule, ...patch } }));
  const setOption = (i: number) => (o: PlanOptionForm) => setForm((f) => ({ ...f, plans: f.plans.map((x, j) => (j === i ? o : x)) }));

  async function pick() {
    const picker = (window as PickerWindow).shopify?.resourcePicker;
    if (!picker) return;
    const selection = await picker({ type: "product", multiple: true, selectionIds: form.productIds.map((id) => ({ id })) });
    if (!selection) return;
    const productIds: string[] = [];
    const variantIds: string[] = [];
    const titles: string[] = [];
    for (const p of selection) {
      // A product with only some variants picked is sold on those variants.
      const partial = p.variants && p.variants.length > 0 && p.variants.length < (p as { totalVariants?: number }).totalVariants!;
      if (partial) variantIds.push(...p.variants!.map((v) => v.id));
      else productIds.push(p.id);
      titles.push(p.title);
    }
    setPicked(titles);
    setForm((f) => ({ ...f, productIds, variantIds }));
  }

  return (
    <BlockStack gap="400">
      {errors.form && (
        <Banner tone="critical" title="Shopify did not save the plan">
          <p>{errors.form}</p>
        </Banner>
      )}
      <InlineGrid columns={{ xs: 1, md: ["twoThirds", "oneThird"] }} gap="400">
        <BlockStack gap="400">
          <Card>
            <FormLayout>
              <TextField
                label="Name"
                value={form.name}
                onChange={(name) => setForm((f) => ({ ...f, name }))}
                error={errors.name}
                autoComplete="off"
                helpText="Shown to shoppers on the product page."
              />
              <TextField
                label="Merchant code"
                value={form.merchantCode}
                onChange={(merchantCode) => setForm((f) => ({ ...f, merchantCode }))}
                error={errors.merchantCode}
                autoComplete="off"
                helpText="Only you see it, in Shopify admin."
              />
              <BlockStack gap="200">
                <InlineStack gap="200" blockAlign="center">
                  <Button onClick={pick}>Select products</Button>
                  <Text as="span" tone={errors.products ? "critical" : "subdued"}>
                    {errors.products ??
                      (picked.length
                        ? picked.join(", ")
                        : `${form.productIds.length} product${form.productIds.length === 1 ? "" : "s"}, ${form.variantIds.length} variant${form.variantIds.length === 1 ? "" : "s"}`)}
                  </Text>
                </InlineStack>
              </BlockStack>
            </FormLayout>
          </Card>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Schedule
              </Text>
              <ChoiceList
                title="When subscribers are charged"
                choices={[
                  { label: "From each subscriber's sign-up date (rolling)", value: "rolling" },
                  { label: "On a fixed day of the month (anchored)", value: "anchored" },
                ]}
                selected={[s.mode]}
                onChange={([mode]) => setSchedule({ mode: mode as "rolling" | "anchored" })}
              />
              {s.mode === "anchored" && (
                <FormLayout>
                  <FormLayout.Group>
                    <TextField
                      label="Charge day of the month"
                      type="number"
                      min={1}
                      max={31}
                      value={text(s.anchorDay)}
                      onChange={(v) => setSchedule({ anchorDay: int(v) ?? Number.NaN })}
                      error={errors["schedule.anchorDay"]}
                      autoComplete="off"
                      helpText="29-31 fall on the last day of shorter months."
                    />
                    <TextField
                      label="Cutoff days"
                      type="number"
                      min={0}
                      value={text(s.cutoffDays)}
                      onChange={(v) => setSchedule({ cutoffDays: int(v) ?? 0 })}
                      error={errors["schedule.cutoffDays"]}
                      autoComplete="off"
                      helpText="Orders later than this before a charge day wait for the next one."
                    />
                  </FormLayout.Group>
                  <FormLayout.Group>
                    <Select
                      label="First order"
                      options={[
                        { label: "Next charge day's batch (NEXT)", value: "NEXT" },
                        { label: "Ship right away (ASAP)", value: "ASAP" },
                      ]}
                      value={s.preAnchorBehavior}
                      onChange={(v) => setSchedule({ preAnchorBehavior: v as "NEXT" | "ASAP" })}
                    />
                    <TextField
                      label="Ship day of the month"
                      type="number"
                      min={1}
                      max={31}
                      value={text(s.shipDay)}
                      onChange={(v) => setSchedule({ shipDay: int(v) })}
                      error={errors["schedule.shipDay"]}
                      autoComplete="off"
                      helpText="Empty: boxes ship on the charge day."
                    />
                  </FormLayout.Group>
                  <ChoiceList
                    allowMultiple
                    title="Months (none: every month of the cadence)"
                    choices={MONTH_NAMES.map((label, m) => ({ label, value: String(m + 1) }))}
                    selected={s.anchorMonths.map(String)}
                    onChange={(months) => setSchedule({ anchorMonths: months.map(Number).sort((a, b) => a - b) })}
                    error={errors["schedule.anchorMonths"]}
                  />
                </FormLayout>
              )}
            </BlockStack>
          </Card>
          {errors.plans && (
            <Banner tone="critical" title="Plan options">
              <p>{errors.plans}</p>
            </Banner>
          )}
          {form.plans.map((o, i) => (
            <OptionCard
              key={o.id ?? `new-${i}`}
              index={i}
              option={o}
              form={form}
              errors={errors}
              onChange={setOption(i)}
              onRemove={form.plans.length > 1 ? () => setForm((f) => ({ ...f, plans: f.plans.filter((_, j) => j !== i) })) : undefined}
            />
          ))}
          <InlineStack gap="200">
            <Button onClick={() => setForm((f) => ({ ...f, plans: [...f.plans, newOption()] }))}>Add option</Button>
            <Button variant="primary" loading={props.saving} onClick={() => props.onSave(form)}>
              Save plan
            </Button>
          </InlineStack>
        </BlockStack>
        <Preview form={form} timeZone={props.timeZone} today={props.today} />
      </InlineGrid>
    </BlockStack>
  );
}
