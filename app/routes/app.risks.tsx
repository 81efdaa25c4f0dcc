// Risk Center: money first (payments in dunning with what they are worth, the reason in words and
// the next retry; cards expiring before the next charge; subscriptions whose payments were given up
// on), each subscription by its customer's name, then every other open risk, most severe first,
// findings of one check about many subjects as one item with the list inside.
// The checks: app/domain/shop/risks.server.ts; the money: app/domain/renewals/overview.server.ts;
// the card expiry: docs/decisions/158-card-expiry-mirror.md.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Button, Card, InlineStack, Layout, Link, List, Page, Text } from "@shopify/polaris";
import { adminContext } from "../embedded/context.server";
import { useFormat } from "../embedded/shop-format";
import { openRisks, type Risk } from "../domain/shop/risks.server";
import { revenueAtRisk } from "../domain/renewals/overview.server";
import { SeverityBadge } from "../embedded/severity";
import { customerNames, displayName } from "../domain/subscriptions/customer-names.server";
import { log } from "../infra/log.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  const [risks, money] = await Promise.all([openRisks(shop.id), revenueAtRisk(shop.id)]);
  // Names come from Shopify (docs/decisions/134): when it cannot answer, the page shows without them.
  const gids = [...money.dunning.rows, ...money.expiringCards.rows].map((r) => r.customerGid);
  const names = gids.length
    ? await customerNames(shop, gids).catch((err: unknown) => {
        log.warn("customer names unavailable", { shop: shop.domain, err });
        return new Map();
      })
    : new Map();
  const named = <T extends { customerGid: string }>(r: T) => ({ ...r, customerName: displayName(names.get(r.customerGid)) });
  return json({
    risks,
    money: {
      ...money,
      dunning: { ...money.dunning, rows: money.dunning.rows.map(named) },
      expiringCards: { ...money.expiringCards, rows: money.expiringCards.rows.map(named) },
    },
  });
};

/** "Jane Doe's subscription 123", linked to its page; "Subscription 123" when the name is unknown. */
function SubscriptionOf({ contractGid, customerName }: { contractGid: string; customerName: string | null }) {
  const number = contractGid.split("/").pop();
  return <Link url={`/app/subscriptions/${number}`}>{customerName ? `${customerName}\u2019s subscription ${number}` : `Subscription ${number}`}</Link>;
}

/** Consecutive findings of one check with a group label become one item (their order is kept). */
function grouped(risks: Risk[]): Risk[][] {
  const out: Risk[][] = [];
  for (const r of risks) {
    const last = out.at(-1);
    if (r.group && last && last[0].group === r.group) last.push(r);
    else out.push([r]);
  }
  return out;
}

function RevenueAtRisk({ money }: { money: ReturnType<typeof useLoaderData<typeof loader>>["money"] }) {
  const { formatDate, formatMoney, formatMoneyList } = useFormat();
  const { dunning, expiringCards, failed } = money;
  if (dunning.count === 0 && expiringCards.count === 0 && failed.count === 0) {
    return (
      <Card>
        <BlockStack gap="100">
          <Text as="h2" variant="headingMd">
            Revenue at risk
          </Text>
          <Text as="p">
            No payment is failing and no card expires before its next charge. Every subscription&apos;s last charge went through or has not come due.
          </Text>
        </BlockStack>
      </Card>
    );
  }
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Revenue at risk
        </Text>
        {dunning.count > 0 && (
          <BlockStack gap="200">
            <Text as="h3" variant="headingSm">
              {dunning.count} failed {dunning.count === 1 ? "payment" : "payments"} being retried: {formatMoneyList(dunning.totals)}
            </Text>
            <List>
              {dunning.rows.map((r) => (
                <List.Item key={r.contractGid}>
                  <SubscriptionOf {...r} />: {formatMoney(r.amount)}. {r.reason} Next retry {formatDate(r.nextRetryAt)} ({r.attempts}{" "}
                  {r.attempts === 1 ? "attempt" : "attempts"} so far).
                </List.Item>
              ))}
            </List>
            {dunning.count > dunning.rows.length && (
              <Text as="p" tone="subdued">
                The {dunning.rows.length} with the soonest retry are shown.
              </Text>
            )}
          </BlockStack>
        )}
        {expiringCards.count > 0 && (
          <BlockStack gap="200">
            <Text as="h3" variant="headingSm">
              {expiringCards.count} {expiringCards.count === 1 ? "card expires" : "cards expire"} before the next charge:{" "}
              {formatMoneyList(expiringCards.totals)}
            </Text>
            <List>
              {expiringCards.rows.map((r) => (
                <List.Item key={r.contractGid}>
                  <SubscriptionOf {...r} />: {formatMoney(r.amount)} due {formatDate(r.nextChargeAt)}; the card on file is valid through {r.cardExpiry}.
                </List.Item>
              ))}
            </List>
            <Text as="p" tone="subdued">
              {expiringCards.count > expiringCards.rows.length ? `The ${expiringCards.rows.length} with the soonest charge are shown. ` : ""}A charge on an
              expired card fails and goes into retries: ask these customers to update their card before then.
            </Text>
          </BlockStack>
        )}
        {failed.count > 0 && (
          <InlineStack gap="300" blockAlign="center" align="space-between">
            <Text as="p">
              {failed.count} {failed.count === 1 ? "subscription has" : "subscriptions have"} stopped after the last retry failed:{" "}
              {formatMoneyList(failed.totals)} a charge.
            </Text>
            <Button url="/app/subscriptions?status=FAILED">Open failed subscriptions</Button>
          </InlineStack>
        )}
      </BlockStack>
    </Card>
  );
}

export default function RiskCenter() {
  const { risks, money } = useLoaderData<typeof loader>();
  const items = grouped(risks);
  return (
    <Page title="Risk Center" subtitle="Revenue at risk first, then what could break your integrations or your figures, most severe first.">
      <Layout>
        <Layout.Section>
          <RevenueAtRisk money={money} />
        </Layout.Section>
        <Layout.Section>
          {risks.length === 0 ? (
            <Card>
              <Text as="p">No other open risks. Checks run each time you open this page.</Text>
            </Card>
          ) : (
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                {risks.length} open risk{risks.length === 1 ? "" : "s"}
              </Text>
              <ul aria-label="Open risks" style={{ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: "12px" }}>
                {items.map((group) => {
                  const r = group[0];
                  return (
                    <li key={r.id}>
                      <Card>
                        <BlockStack gap="200">
                          <InlineStack gap="200" blockAlign="center">
                            <SeverityBadge severity={r.severity} />
                            <Text as="span" tone="subdued">
                              {r.area}
                            </Text>
                          </InlineStack>
                          <Text as="h3" variant="headingSm">
                            {group.length > 1 ? `${group.length} ${r.group}` : r.title}
                          </Text>
                          {group.length > 1 && (
                            <List>
                              {group.map((g) => (
                                <List.Item key={g.id}>{g.title}</List.Item>
                              ))}
                            </List>
                          )}
                          <Text as="p">{r.action}</Text>
                          <InlineStack>
                            <Button url={r.link.url}>{r.link.label}</Button>
                          </InlineStack>
                        </BlockStack>
                      </Card>
                    </li>
                  );
                })}
              </ul>
            </BlockStack>
          )}
        </Layout.Section>
      </Layout>
    </Page>
  );
}
