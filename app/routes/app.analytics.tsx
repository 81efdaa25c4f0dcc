// Analytics dashboards: MRR, churn and win-back by month for twelve months, cohort retention as a
// chart and a grid, and the selected period's figures, computed by the same functions as the
// Admin API's /analytics/* (app/domain/insights/; definitions in docs/decisions/022 and 153),
// drawn with nivo (decision 063). Money and months are said in the shop's format (decision 154).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import { BlockStack, DataTable, InlineGrid, Layout, Page, Select, Text } from "@shopify/polaris";
import { adminContext } from "../embedded/context.server";
import { BarChart, LineChart } from "../embedded/charts";
import { formatRate } from "../embedded/format";
import { useFormat } from "../embedded/shop-format";
import { churn, cohorts, mrr, recovery, RANGES, WINDOWS } from "../domain/insights/analytics.server";
import { trends } from "../domain/insights/trends.server";
import { rangeQuery, readQuery, windowQuery } from "../surfaces/read-queries";
import { churnJson, cohortsJson, mrrJson, recoveryJson, trendsJson } from "../surfaces/admin/wire";
import { ApiError } from "../infra/errors";
import { SectionCard } from "../embedded/section-card";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  const q = new URL(request.url).searchParams;
  let range, window;
  try {
    // The first value of each, as URLSearchParams.get gives it.
    const values = { range: q.get("range") ?? undefined, window: q.get("window") ?? undefined };
    range = readQuery(rangeQuery, values);
    window = readQuery(windowQuery, values);
  } catch (err) {
    if (err instanceof ApiError) throw new Response("That period does not exist.", { status: 400 });
    throw err;
  }
  const now = new Date();
  const [mrrNow, churnNow, cohortsNow, recoveryNow, byMonth] = await Promise.all([
    mrr(shop.id, now),
    churn(shop.id, range, now),
    cohorts(shop.id, window, now),
    recovery(shop.id, range, now),
    trends(shop.id, now),
  ]);
  return json({
    ranges: RANGES,
    windows: WINDOWS,
    range,
    window,
    // The API's shapes of the same figures (the page says they are the API's).
    mrr: mrrJson(mrrNow),
    churn: churnJson(churnNow),
    cohorts: cohortsJson(cohortsNow),
    recovery: recoveryJson(recoveryNow),
    trends: trendsJson(byMonth),
  });
};

const RANGE_LABEL: Record<string, string> = { "7d": "Last 7 days", "30d": "Last 30 days", "90d": "Last 90 days", "12mo": "Last 12 months" };
const WINDOW_LABEL: Record<string, string> = { "12": "Last 12 months", "24": "Last 24 months", all: "All cohorts" };
const percent = (v: number) => `${Math.round(v * 100)}%`;
const COHORT_LINES = 6;
const GRID_MONTHS = 12;

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

export default function Analytics() {
  const d = useLoaderData<typeof loader>();
  const { formatMoney, formatMoneyList, formatMonth } = useFormat();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const setParam = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    next.set(name, value);
    navigate(`?${next}`, { preventScrollReset: true });
  };
  const months = d.trends.months;
  const span = `${formatMonth(months[0].month)} to ${formatMonth(months[months.length - 1].month)}`;
  // One MRR line per currency, the largest now first (at most three: the rest are footnotes).
  const currencies = [...new Set(months.flatMap((m) => m.mrr.map((x) => x.currency_code)))].slice(0, 3);
  const mrrSeries = currencies.map((code) => ({
    id: code,
    data: months.map((m) => ({ x: formatMonth(m.month), y: Number(m.mrr.find((x) => x.currency_code === code)?.amount ?? 0) })),
  }));
  const mainCurrency = currencies[0];
  const recent = d.cohorts.cohorts.slice(0, COHORT_LINES);
  return (
    <Page title="Analytics" subtitle="Your subscriptions as Shopify holds them: the same figures your developers read from the API.">
      <Layout>
        <Layout.Section>
          <InlineGrid columns={{ xs: 1, sm: 2 }} gap="400">
            <Select
              label="Period (churn and recovery)"
              options={d.ranges.map((r) => ({ label: RANGE_LABEL[r], value: r }))}
              value={d.range}
              onChange={(v) => setParam("range", v)}
            />
            <Select
              label="Cohorts"
              options={d.windows.map((w) => ({ label: WINDOW_LABEL[w], value: w }))}
              value={d.window}
              onChange={(v) => setParam("window", v)}
            />
          </InlineGrid>
        </Layout.Section>
        <Layout.Section>
          <SectionCard title="Monthly recurring revenue">
            <InlineGrid columns={{ xs: 1, sm: 3 }} gap="300">
              <Figure label="MRR" value={formatMoneyList(d.mrr.mrr)} />
              <Figure label="Active subscriptions" value={String(d.mrr.active_contracts)} />
              <Figure label="Without a monthly amount" value={String(d.mrr.contracts_missing_amount)} />
            </InlineGrid>
            {mainCurrency ? (
              <LineChart
                label={`MRR at each month's end, ${span}: ${months.map((m) => `${formatMonth(m.month)} ${formatMoneyList(m.mrr)}`).join("; ")}`}
                series={mrrSeries}
                xScale="point"
                format={(v) => formatMoney({ amount: String(v), currency_code: mainCurrency }).replace(/[.,]00$/, "")}
              />
            ) : (
              <Text as="p">No active subscriptions yet: the trend starts with the first one.</Text>
            )}
          </SectionCard>
        </Layout.Section>
        <Layout.Section>
          <SectionCard title="Churn">
            <InlineGrid columns={{ xs: 1, sm: 3 }} gap="300">
              <Figure label={`Churn rate, ${RANGE_LABEL[d.range].toLowerCase()}`} value={formatRate(d.churn.churn_rate)} />
              <Figure label="Churned of those at the start" value={`${d.churn.churned} of ${d.churn.subscribers_at_start}`} />
              <Figure label="New / ended" value={`${d.churn.new_subscriptions} / ${d.churn.ended_total}`} />
            </InlineGrid>
            <LineChart
              label={`Churn rate by month, ${span}: ${months.map((m) => `${formatMonth(m.month)} ${formatRate(m.churn_rate)}`).join("; ")}`}
              series={[{ id: "Churn rate", data: months.map((m) => ({ x: formatMonth(m.month), y: m.churn_rate })) }]}
              xScale="point"
              format={percent}
            />
            <BarChart
              label={`New and churned subscriptions by month, ${span}: ${months.map((m) => `${formatMonth(m.month)} ${m.new_subscriptions} new, ${m.churned} churned`).join("; ")}`}
              data={months.map((m) => ({ label: formatMonth(m.month), New: m.new_subscriptions, Churned: m.churned }))}
              keys={["New", "Churned"]}
            />
          </SectionCard>
        </Layout.Section>
        <Layout.Section>
          <SectionCard title="Cohort retention">
            {recent.length === 0 ? (
              <Text as="p">No subscriptions started in this window.</Text>
            ) : (
              <>
                <Text as="p" tone="subdued">
                  Share of each signup month still subscribed, by months since signup ({recent.length} most recent cohorts of {d.cohorts.cohorts.length}).
                </Text>
                <LineChart
                  label={`Retention by cohort: ${recent.map((c) => `${c.cohort} (${c.size})`).join(", ")}`}
                  series={recent.map((c) => ({ id: formatMonth(c.cohort), data: c.retention.map((r) => ({ x: r.month, y: r.rate })) }))}
                  xLegend="Months since signup"
                  format={percent}
                />
                <DataTable
                  columnContentTypes={["text", "numeric", ...Array.from({ length: GRID_MONTHS }, () => "numeric" as const)]}
                  headings={["Signed up", "Size", ...Array.from({ length: GRID_MONTHS }, (_, k) => `M${k}`)]}
                  rows={d.cohorts.cohorts.map((c) => [
                    formatMonth(c.cohort),
                    c.size,
                    ...Array.from({ length: GRID_MONTHS }, (_, k) => (c.retention[k]?.rate == null ? "" : percent(c.retention[k].rate!))),
                  ])}
                />
              </>
            )}
          </SectionCard>
        </Layout.Section>
        <Layout.Section>
          <SectionCard title="Win-back recovery">
            <InlineGrid columns={{ xs: 1, sm: 3 }} gap="300">
              <Figure label={`Recovery rate, ${RANGE_LABEL[d.range].toLowerCase()}`} value={formatRate(d.recovery.recovery_rate)} />
              <Figure label="Reactivated of sends" value={`${d.recovery.reactivated} of ${d.recovery.sends}`} />
              <Figure label="Recovered" value={formatMoneyList(d.recovery.recovered_amount)} />
            </InlineGrid>
            <BarChart
              label={`Win-back e-mails sent and reactivations by month, ${span}: ${months.map((m) => `${formatMonth(m.month)} ${m.winback_sends} sent, ${m.winback_reactivated} reactivated`).join("; ")}`}
              data={months.map((m) => ({ label: formatMonth(m.month), Sent: m.winback_sends, Reactivated: m.winback_reactivated }))}
              keys={["Sent", "Reactivated"]}
            />
          </SectionCard>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
