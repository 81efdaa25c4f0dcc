// The win-back pages' shared pieces (app/routes/app.winback.*): the status badge, rates and money
// as the merchant reads them, and the results card: both groups side by side and the incremental
// figure beside the raw one (docs/decisions/115-winback-audience.md).
import { Badge, BlockStack, Card, DataTable, Text } from "@shopify/polaris";

export interface MoneyView {
  amount: string;
  currency_code: string;
}

const STATUS: Record<string, { label: string; tone?: "success" | "attention" | "info" }> = {
  draft: { label: "Draft", tone: "info" },
  active: { label: "Active", tone: "success" },
  paused: { label: "Paused", tone: "attention" },
  ended: { label: "Ended" },
};

export function StatusBadge({ status }: { status: string }) {
  const s = STATUS[status] ?? { label: status };
  return <Badge tone={s.tone}>{s.label}</Badge>;
}

export const formatRate = (r: number | null) => (r === null ? "–" : `${(r * 100).toFixed(1)}%`);

export const formatMoneyList = (list: MoneyView[]) => (list.length ? list.map((m) => `${m.amount} ${m.currency_code}`).join(", ") : "0");

export interface ResultsView {
  sent: { customers: number; reactivated: number; recovered: MoneyView[] };
  holdout: { customers: number; reactivated: number; recovered: MoneyView[] };
  sentRate: number | null;
  holdoutRate: number | null;
  incrementalReactivations: number | null;
  revenue: { currency: string; raw: MoneyView; incremental: MoneyView | null }[];
}

export function ResultsCard({ results }: { results: ResultsView }) {
  const r = results;
  const noBaseline = r.holdout.customers === 0;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Results
        </Text>
        <DataTable
          columnContentTypes={["text", "numeric", "numeric", "numeric", "numeric"]}
          headings={["Group", "Customers", "Came back", "Rate", "Recovered"]}
          rows={[
            ["Sent the e-mail", r.sent.customers, r.sent.reactivated, formatRate(r.sentRate), formatMoneyList(r.sent.recovered)],
            ["Held out (not sent)", r.holdout.customers, r.holdout.reactivated, formatRate(r.holdoutRate), formatMoneyList(r.holdout.recovered)],
          ]}
        />
        {r.revenue.map((v) => (
          <Text as="p" key={v.currency}>
            {`Recovered (raw): ${v.raw.amount} ${v.raw.currency_code}. Added by the campaign: `}
            <strong>{v.incremental ? `${v.incremental.amount} ${v.incremental.currency_code}` : "not measurable yet"}</strong>
          </Text>
        ))}
        <Text as="p" tone="subdued">
          {noBaseline
            ? "No customer is held out yet, so what the campaign added cannot be measured: the raw figure also counts customers who would have come back anyway."
            : `The held-out customers show what would have happened without the e-mail; the campaign added ${r.incrementalReactivations ?? 0} reactivations over that baseline. Small groups give noisy figures.`}
        </Text>
      </BlockStack>
    </Card>
  );
}
