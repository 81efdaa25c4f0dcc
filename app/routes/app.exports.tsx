// The Export Center: a merchant picks a dataset, a format and (for subscriptions) the
// Subscriptions list's filters, and downloads the file straight from the same generators the
// export jobs use, streamed to the browser with a progress indicator. Below it, the shop's
// recent API export jobs, read-only. A shop below Pro sees the upgrade path instead of the form.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { planGroupOptions } from "../domain/catalog/selling-plans.server";
import { shopForAdmin } from "../domain/shop/lifecycle.server";
import { useLoaderData } from "@remix-run/react";
import { useState } from "react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  Checkbox,
  FormLayout,
  InlineGrid,
  InlineStack,
  Layout,
  Page,
  ProgressBar,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { saveFile } from "../embedded/save-file";
import { authenticate } from "../shopify.server";
import { exportCenterData } from "../embedded/export-center.server";
import { SectionCard } from "../embedded/section-card";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const shop = await shopForAdmin(session.shop);
  // The plan filter offers the shop's plans by name (the wire value is the group's id).
  const [data, plans] = await Promise.all([exportCenterData(session.shop), planGroupOptions(shop.id)]);
  return json({ ...data, plans });
};

type Filters = Record<string, string>;

const STATUS_OPTIONS = [
  { label: "Any status", value: "" },
  { label: "Active", value: "ACTIVE" },
  { label: "Paused", value: "PAUSED" },
  { label: "Cancelled", value: "CANCELLED" },
  { label: "Expired", value: "EXPIRED" },
];

const TEXT_FILTERS: Array<{ name: string; label: string; help?: string; type?: "text" | "date" }> = [
  { name: "customer_id", label: "Customer ID", help: "The number at the end of the customer's page address in Shopify admin" },
  { name: "product", label: "Product contains" },
  { name: "frequency", label: "Frequency (exact)" },
  { name: "amount_min", label: "Charge amount from" },
  { name: "amount_max", label: "Charge amount to" },
  { name: "next_from", label: "Next charge from", type: "date" },
  { name: "next_to", label: "Next charge to", type: "date" },
  { name: "q", label: "Search", help: "Product or order name" },
];

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

const STATUS_TONE: Record<string, "info" | "success" | "critical" | "attention" | undefined> = {
  queued: "info",
  running: "attention",
  ready: "success",
  failed: "critical",
  expired: undefined,
};

interface Progress {
  rows: number;
  bytes: number;
  total: number | null;
  done: boolean;
}

/** Counts row terminators as the bytes arrive (CSV: CRLF, minus the header; JSONL: LF). */
function countRows(text: string, format: string): number {
  return format === "csv" ? text.split("\r\n").length - 1 : text.split("\n").length - 1;
}

export default function ExportCenter() {
  const data = useLoaderData<typeof loader>();
  const [dataset, setDataset] = useState<string>(data.datasets[0]?.name ?? "subscriptions");
  const [format, setFormat] = useState("csv");
  const [status, setStatus] = useState("");
  const [renewals, setRenewals] = useState(false);
  const [filters, setFilters] = useState<Filters>({});
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  const takesFilters = data.datasets.find((d) => d.name === dataset)?.takesFilters ?? false;

  async function download() {
    setError(null);
    setSaved(null);
    const params = new URLSearchParams({ dataset, format });
    if (takesFilters) {
      if (status) params.set("status", status);
      if (renewals) params.set("view", "renewals");
      for (const [k, v] of Object.entries(filters)) if (v.trim()) params.set(k, v.trim());
    }
    setProgress({ rows: 0, bytes: 0, total: null, done: false });
    try {
      const res = await fetch(`/app/exports/download?${params}`);
      if (!res.ok || !res.body) {
        const body = await res.json().catch(() => null);
        // The API's messages are for developers; the merchant reads what to change.
        throw new Error(
          body?.error?.code === "invalid_request"
            ? "A filter is not valid: amounts are numbers like 25.50, dates are dates, and the customer ID is a number."
            : "The download failed. Try again in a moment.",
        );
      }
      const totalHeader = res.headers.get("X-Export-Row-Count");
      const total = totalHeader ? Number(totalHeader) : null;
      const filename = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") ?? "")?.[1] ?? `${dataset}.${format}`;
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      const parts: BlobPart[] = [];
      let bytes = 0;
      let lines = 0;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parts.push(value as Uint8Array<ArrayBuffer>);
        bytes += value.byteLength;
        lines += countRows(decoder.decode(value, { stream: true }), format);
        setProgress({ rows: Math.max(0, format === "csv" ? lines - 1 : lines), bytes, total, done: false });
      }
      const rows = Math.max(0, format === "csv" ? lines - 1 : lines);
      setProgress({ rows, bytes, total, done: true });
      saveFile(new Blob(parts, { type: res.headers.get("Content-Type") ?? "application/octet-stream" }), filename);
      setSaved(filename);
    } catch (err) {
      setProgress(null);
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  const busy = progress !== null && !progress.done;
  const percent = progress ? (progress.done ? 100 : progress.total ? Math.min(99, (progress.rows / Math.max(1, progress.total)) * 100) : 0) : 0;

  return (
    <Page title="Export Center" subtitle="Download your data as CSV or JSON Lines">
      <Layout>
        <Layout.Section>
          {data.pro ? (
            <Card>
              <BlockStack gap="400">
                <FormLayout>
                  <InlineGrid columns={{ xs: 1, sm: 2 }} gap="400">
                    <Select
                      label="Dataset"
                      options={data.datasets.map((d) => ({ label: d.label, value: d.name }))}
                      value={dataset}
                      onChange={setDataset}
                      helpText={data.datasets.find((d) => d.name === dataset)?.description}
                    />
                    <Select
                      label="Format"
                      options={[
                        { label: "CSV (spreadsheets)", value: "csv" },
                        { label: "JSON Lines (programs)", value: "jsonl" },
                      ]}
                      value={format}
                      onChange={setFormat}
                    />
                  </InlineGrid>
                  {takesFilters ? (
                    <BlockStack gap="300">
                      <Text as="h2" variant="headingSm">
                        Filters (the Subscriptions list&apos;s)
                      </Text>
                      <InlineGrid columns={{ xs: 1, sm: 2, md: 3 }} gap="300">
                        <Select label="Status" options={STATUS_OPTIONS} value={status} onChange={setStatus} />
                        <Select
                          label="Plan"
                          options={[{ label: "Any plan", value: "" }, ...data.plans]}
                          value={filters.plan ?? ""}
                          onChange={(v) => setFilters((prev) => ({ ...prev, plan: v }))}
                        />
                        {TEXT_FILTERS.map((f) => (
                          <TextField
                            key={f.name}
                            label={f.label}
                            type={f.type ?? "text"}
                            helpText={f.help}
                            autoComplete="off"
                            value={filters[f.name] ?? ""}
                            onChange={(v) => setFilters((prev) => ({ ...prev, [f.name]: v }))}
                          />
                        ))}
                      </InlineGrid>
                      <Checkbox label="Renewals only (active, charging today or later)" checked={renewals} onChange={setRenewals} />
                    </BlockStack>
                  ) : null}
                </FormLayout>
                {error ? (
                  <Banner tone="critical" title="The export could not be downloaded">
                    <p>{error}</p>
                  </Banner>
                ) : null}
                {progress ? (
                  <BlockStack gap="200">
                    <ProgressBar progress={percent} size="small" tone={progress.done ? "success" : "highlight"} ariaLabelledBy="export-progress" />
                    <Text as="p" id="export-progress">
                      {progress.done ? "Done: " : "Downloading… "}
                      {progress.rows.toLocaleString("en-US")} rows
                      {progress.total !== null ? ` of ${progress.total.toLocaleString("en-US")}` : ""} · {formatBytes(progress.bytes)}
                    </Text>
                  </BlockStack>
                ) : null}
                {saved ? <Text as="p" tone="success">{`Saved ${saved}`}</Text> : null}
                <div>
                  <Button variant="primary" onClick={download} loading={busy} disabled={busy}>
                    Download
                  </Button>
                </div>
              </BlockStack>
            </Card>
          ) : (
            <Card>
              <BlockStack gap="300">
                <Banner tone="info" title="Exports are part of the Pro plan">
                  <p>
                    Upgrade to Pro to download subscriptions, plans, bundles, Mix &amp; Match and migration files, and to create export jobs through the API.
                  </p>
                </Banner>
                <div>
                  <Button variant="primary" url={data.upgradeUrl}>
                    Upgrade to Pro
                  </Button>
                </div>
              </BlockStack>
            </Card>
          )}
        </Layout.Section>
        <Layout.Section>
          <SectionCard title="Recent export jobs (API)">
            {data.jobs.length ? (
              // A list, not a table: at phone width a table would scroll sideways.
              <BlockStack as="ul" gap="300" aria-label="Recent export jobs">
                {data.jobs.map((j) => (
                  <li key={j.id} style={{ listStyle: "none" }}>
                    <BlockStack gap="100">
                      <InlineStack gap="200" blockAlign="center" wrap>
                        <Text as="h3" variant="headingSm">
                          {`${j.dataset} · ${j.format.toUpperCase()}`}
                        </Text>
                        <Badge tone={STATUS_TONE[j.status]}>{j.status}</Badge>
                      </InlineStack>
                      <Text as="p" tone="subdued">
                        {[
                          j.row_count === null
                            ? j.status === "running"
                              ? `${j.progress.toLocaleString("en-US")} rows so far`
                              : "no rows yet"
                            : `${j.row_count.toLocaleString("en-US")} rows`,
                          j.byte_size === null ? null : formatBytes(j.byte_size),
                          `created ${new Date(j.created_at).toISOString().replace("T", " ").slice(0, 16)} UTC`,
                        ]
                          .filter(Boolean)
                          .join(" · ")}
                      </Text>
                      {j.error ? <Text as="p" tone="critical">{`Failed: ${j.error.code}: ${j.error.message}`}</Text> : null}
                    </BlockStack>
                  </li>
                ))}
              </BlockStack>
            ) : (
              <Text as="p" tone="subdued">
                No export jobs yet. Exports your developers start through the API show up here.
              </Text>
            )}
          </SectionCard>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
