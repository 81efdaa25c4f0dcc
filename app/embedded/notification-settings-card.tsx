// The Notifications page's settings: sender name, reply-to, sending domain with the DKIM record to
// publish, the reminder lead time (the billing policy's reminder days, one setting), the shop's time
// zone and quiet hours, and which non-essential messages are sent.
import { Banner, BlockStack, Box, Button, Checkbox, FormLayout, InlineGrid, InlineStack, Text, TextField } from "@shopify/polaris";
import { SectionCard } from "./section-card";
import { refusalTitle, SaveBar, useSettingsForm } from "./settings-form";

export interface SettingsView {
  senderName: string | null;
  replyTo: string | null;
  sendingDomain: string | null;
  timezone: string;
  quietStart: number | null;
  quietEnd: number | null;
  disabledKinds: string[];
}

export function NotificationSettingsCard(props: {
  settings: SettingsView;
  leadDays: number;
  dkimRecord: { name: string; type: string; value: string } | null;
  kinds: { label: string; value: string; essential: boolean }[];
}) {
  const { settings, dkimRecord, kinds } = props;
  const form = useSettingsForm(
    {
      senderName: settings.senderName ?? "",
      replyTo: settings.replyTo ?? "",
      sendingDomain: settings.sendingDomain ?? "",
      leadDays: String(props.leadDays || 3),
      timezone: settings.timezone,
      quietStart: settings.quietStart === null ? "" : String(settings.quietStart),
      quietEnd: settings.quietEnd === null ? "" : String(settings.quietEnd),
      disabledKinds: settings.disabledKinds,
    },
    { savedMessage: "Notification settings saved", intent: "save-settings" },
  );
  const { values: v, errors } = form;
  const set = form.field;
  const disabled = v.disabledKinds;
  const setDisabled = (next: (d: string[]) => string[]) => form.field("disabledKinds")(next(disabled));

  return (
    <SectionCard title="Settings">
      <SaveBar id="notification-settings-save-bar" form={form} />
      {(form.error || Object.keys(errors).length > 0) && (
        <Banner tone="critical" title={refusalTitle(form)}>
          <p>Correct the fields marked below.</p>
        </Banner>
      )}
      <FormLayout>
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
          <TextField label="Sender name" value={v.senderName} onChange={set("senderName")} autoComplete="off" error={errors.senderName} />
          <TextField label="Reply-to address" type="email" value={v.replyTo} onChange={set("replyTo")} autoComplete="off" error={errors.replyTo} />
          <TextField
            label="Sending domain"
            value={v.sendingDomain}
            onChange={set("sendingDomain")}
            autoComplete="off"
            placeholder="mail.example.com"
            error={errors.sendingDomain}
            helpText="Mail is sent from notifications@ this domain and signed with a DKIM key of your shop's own."
          />
          <TextField
            label="Reminder lead time (days)"
            type="number"
            min={1}
            max={10}
            value={v.leadDays}
            onChange={set("leadDays")}
            autoComplete="off"
            error={errors.leadDays}
            helpText="Renewal reminders go this many days before each charge (also shown on Billing settings)."
          />
          <TextField
            label="Time zone"
            value={v.timezone}
            onChange={set("timezone")}
            autoComplete="off"
            error={errors.timezone}
            helpText="For example America/New_York"
          />
          <InlineGrid columns={2} gap="200">
            <TextField
              label="Quiet from (hour)"
              type="number"
              min={0}
              max={23}
              value={v.quietStart}
              onChange={set("quietStart")}
              autoComplete="off"
              error={errors.quietStart}
            />
            <TextField
              label="Quiet until (hour)"
              type="number"
              min={0}
              max={23}
              value={v.quietEnd}
              onChange={set("quietEnd")}
              autoComplete="off"
              error={errors.quietEnd}
              helpText="Messages due in between wait until then."
            />
          </InlineGrid>
        </InlineGrid>
        {dkimRecord && (
          <Box background="bg-surface-secondary" padding="300" borderRadius="200">
            <BlockStack gap="100">
              <Text as="h3" variant="headingSm">
                DNS record to publish
              </Text>
              <Text as="p" variant="bodySm">
                Type {dkimRecord.type}, name <code>{dkimRecord.name}</code>
              </Text>
              <Text as="p" variant="bodySm" breakWord>
                <code>{dkimRecord.value}</code>
              </Text>
            </BlockStack>
          </Box>
        )}
        <BlockStack gap="100">
          <Text as="h3" variant="headingSm">
            Messages sent
          </Text>
          {kinds.map((k) => (
            <Checkbox
              key={k.value}
              label={k.essential ? `${k.label} (essential, always sent)` : k.label}
              checked={k.essential || !disabled.includes(k.value)}
              disabled={k.essential}
              onChange={(on) => setDisabled((d) => (on ? d.filter((x) => x !== k.value) : [...d, k.value]))}
            />
          ))}
          {errors.disabledKinds && (
            <Text as="p" tone="critical">
              {errors.disabledKinds}
            </Text>
          )}
        </BlockStack>
        <InlineStack align="end">
          <Button variant="primary" onClick={form.save} loading={form.busy}>
            Save settings
          </Button>
        </InlineStack>
      </FormLayout>
    </SectionCard>
  );
}
