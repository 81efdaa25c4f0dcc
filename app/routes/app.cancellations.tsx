// Cancellation insights (docs/decisions/114-cancellation-insights.md): what the cancel flow saved,
// from the reasons and save events that customer portals record through the Customer API, per
// period, drawn with the Analytics page's charts (decision 063) and with the numbers behind each
// chart in a table beside it.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData, useNavigate } from "@remix-run/react";
import { BlockStack, InlineGrid, Layout, List, Page, Select, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import { adminContext } from "../embedded/context.server";
import { BarChart } from "../embedded/charts";
import { formatRate } from "../embedded/format";
import { useFormat } from "../embedded/shop-format";
import { SectionCard } from "../embedded/section-card";
import { cancellationInsights, RANGES } from "../domain/retention/cancel-insights.server";

type RangeName = (typeof RANGES)[number];
const isRange = (v: string | null): v is RangeName => v !== null && (RANGES as readonly string[]).includes(v);

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  const asked = new URL(request.url).searchParams.get("range");
  if (asked !== null && !isRange(asked)) throw new Response(`range must be one of ${RANGES.join(", ")}`, { status: 400 });
  const range: RangeName = asked ?? "30d";
  return json({ ranges: RANGES, insights: await cancellationInsights(shop.id, range) });
};

const RANGE_LABEL: Record<string, string> = { "7d": "Last 7 days", "30d": "Last 30 days", "90d": "Last 90 days", "12mo": "Last 12 months" };
const OFFER_LABEL: Record<string, string> = { pause: "Pause", skip: "Skip", discount: "Discount" };

function bucketLabel(iso: string, bucket: string): string {
  const d = new Date(iso);
  if (bucket === "month") return d.toLocaleDateString("en", { month: "short", year: "2-digit", timeZone: "UTC" });
  return d.toLocaleDateString("en", { month: "short", day: "numeric", timeZone: "UTC" });
}

/** The numbers behind a chart, as a list: it reflows at phone widths where a table would scroll. */
function Numbers({ label, children }: { label: string; children: ReactNode }) {
  return (
    <BlockStack gap="100">
      <Text as="h3" variant="headingSm">
        {label}
      </Text>
      <List>{children}</List>
    </BlockStack>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <BlockStack gap="050">
      <Text as="span" tone="subdued">
        {label}
      </Text>
      <Text as="span" variant="headingLg">
        {value}
      </Text>
    </BlockStack>
  );
}

export default function CancellationInsights() {
  const { formatMoneyList } = useFormat();
  const { ranges, insights: d } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const period = RANGE_LABEL[d.range].toLowerCase();
  const trend = d.series.map((b) => ({ label: bucketLabel(b.start, d.bucket), Cancellations: b.cancellations, Saves: b.contractsSaved }));
  const reasonsTotal = d.byReason.reduce((s, r) => s + r.count, 0);
  return (
    <Page title="Cancellation insights" subtitle="What customers said when they cancelled, and what your cancel flow saved.">
      <Layout>
        <Layout.Section>
          <Select
            label="Period"
            options={ranges.map((r) => ({ label: RANGE_LABEL[r], value: r }))}
            value={d.range}
            onChange={(v) => navigate(`?range=${v}`, { preventScrollReset: true })}
          />
        </Layout.Section>
        <Layout.Section>
          <SectionCard title="Saves">
            <InlineGrid columns={{ xs: 1, sm: 3 }} gap="300">
              <Figure label={`Save rate, ${period}`} value={formatRate(d.saveRate)} />
              <Figure label="Saved of those shown an offer" value={`${d.contractsSaved} of ${d.contractsShown}`} />
              <Figure label="Monthly revenue preserved" value={formatMoneyList(d.revenuePreserved)} />
            </InlineGrid>
            <Text as="p" tone="subdued">
              A save is a subscription that was shown an offer and accepted one in the period. Revenue preserved is each saved subscription&apos;s monthly
              amount as Shopify last reported it.
            </Text>
            <BarChart
              label={`Cancellations and saves per ${d.bucket}, ${period}`}
              data={trend}
              keys={["Cancellations", "Saves"]}
              format={(v) => String(Math.round(v))}
            />
            <Numbers label={`Cancellations and saves per ${d.bucket}`}>
              {d.series.map((b) => (
                <List.Item key={b.start}>
                  {bucketLabel(b.start, d.bucket)}: {b.cancellations} {b.cancellations === 1 ? "cancellation" : "cancellations"}, {b.offersShown} offers shown,{" "}
                  {b.offersAccepted} accepted, save rate {formatRate(b.saveRate)}
                </List.Item>
              ))}
            </Numbers>
          </SectionCard>
        </Layout.Section>
        <Layout.Section>
          <SectionCard title="Offers">
            <BarChart
              label={`Offers shown and accepted, ${period}: ${d.offers.map((o) => `${o.offerType} ${o.shown} shown, ${o.accepted} accepted`).join("; ")}`}
              data={d.offers.map((o) => ({ label: OFFER_LABEL[o.offerType], Shown: o.shown, Accepted: o.accepted }))}
              keys={["Shown", "Accepted"]}
              format={(v) => String(Math.round(v))}
            />
            <Numbers label="Offers shown and accepted">
              {d.offers.map((o) => (
                <List.Item key={o.offerType}>
                  {OFFER_LABEL[o.offerType]}: {o.shown} shown, {o.accepted} accepted ({formatRate(o.acceptanceRate)} of shown)
                </List.Item>
              ))}
            </Numbers>
          </SectionCard>
        </Layout.Section>
        <Layout.Section>
          <SectionCard title="Cancellations by reason">
            {d.byReason.length === 0 ? (
              <Text as="p">No cancellation reasons were recorded in this period.</Text>
            ) : (
              <>
                <BarChart
                  label={`Cancellations by reason, ${period}: ${d.byReason.map((r) => `${r.reason} ${r.count}`).join("; ")}`}
                  data={d.byReason.map((r) => ({ label: r.reason, Cancellations: r.count }))}
                  keys={["Cancellations"]}
                  format={(v) => String(Math.round(v))}
                />
                <Numbers label="Cancellations by reason">
                  {d.byReason.map((r) => (
                    <List.Item key={r.reason}>
                      {r.reason}: {r.count} ({formatRate(r.count / reasonsTotal)})
                    </List.Item>
                  ))}
                </Numbers>
              </>
            )}
            <Text as="p" tone="subdued">
              Cancelled without a reason in this period: {d.cancelledWithoutReason} (the survey was off or skipped, or the customer cancelled at Shopify).
            </Text>
          </SectionCard>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
