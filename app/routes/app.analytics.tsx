// Analytics dashboards: MRR, churn, cohorts and recovery, computed by the same functions as the
// Admin API's /analytics/* (app/domain/insights/analytics.server.ts; definitions in
// docs/decisions/022-analytics-definitions.md), drawn with nivo (decision 063).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import { BlockStack, InlineGrid, Layout, Page, Select, Text } from "@shopify/polaris";
import { adminContext } from "../embedded/context.server";
import { BarChart, LineChart } from "../embedded/charts";
import { formatMoneyList, formatRate } from "../embedded/format";
import { churn, cohorts, mrr, RANGES, recovery, WINDOWS } from "../domain/insights/analytics.server";
import { rangeQuery, readQuery, windowQuery } from "../surfaces/read-queries";
import { churnJson, cohortsJson, mrrJson, recoveryJson } from "../surfaces/admin/wire";
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
    if (err instanceof ApiError) throw new Response(err.message, { status: 400 });
    throw err;
  }
  const now = new Date();
  const [mrrNow, churnNow, cohortsNow, recoveryNow, churnAll, recoveryAll] = await Promise.all([
    mrr(shop.id, now),
    churn(shop.id, range, now),
    cohorts(shop.id, window, now),
    recovery(shop.id, range, now),
    Promise.all(RANGES.map((r) => churn(shop.id, r, now))),
    Promise.all(RANGES.map((r) => recovery(shop.id, r, now))),
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
    churnAll: churnAll.map(churnJson),
    recoveryAll: recoveryAll.map(recoveryJson),
  });
};

const RANGE_LABEL: Record<string, string> = { "7d": "Last 7 days", "30d": "Last 30 days", "90d": "Last 90 days", "12mo": "Last 12 months" };
const WINDOW_LABEL: Record<string, string> = { "12": "Last 12 months", "24": "Last 24 months", all: "All cohorts" };
const percent = (v: number) => `${Math.round(v * 100)}%`;
const COHORT_LINES = 6;

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
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const setParam = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    next.set(name, value);
    navigate(`?${next}`, { preventScrollReset: true });
  };
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
            {d.mrr.mrr.length > 0 && (
              <BarChart
                label={`MRR by currency: ${formatMoneyList(d.mrr.mrr)}`}
                data={d.mrr.mrr.map((m) => ({ label: m.currency_code, MRR: Number(m.amount) }))}
                keys={["MRR"]}
              />
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
            <BarChart
              label={`New and ended subscriptions per period: ${d.churnAll.map((c) => `${c.range} ${c.new_subscriptions} new, ${c.ended_total} ended`).join("; ")}`}
              data={d.churnAll.map((c) => ({ label: c.range, New: c.new_subscriptions, Ended: c.ended_total }))}
              keys={["New", "Ended"]}
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
                  series={recent.map((c) => ({ id: c.cohort, data: c.retention.map((r) => ({ x: r.month, y: r.rate })) }))}
                  xLegend="Months since signup"
                  format={percent}
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
              label={`Win-back sends and reactivations per period: ${d.recoveryAll.map((r) => `${r.range} ${r.sends} sent, ${r.reactivated} reactivated`).join("; ")}`}
              data={d.recoveryAll.map((r) => ({ label: r.range, Sent: r.sends, Reactivated: r.reactivated }))}
              keys={["Sent", "Reactivated"]}
            />
          </SectionCard>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
