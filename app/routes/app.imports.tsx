// The Import page (docs/decisions/085-migration-import.md): a merchant uploads a
// `migration` file (CSV or JSONL), reads the dry-run report (every error with its row and
// column), runs the import, watches its progress, and downloads the failed rows as an error file
// in the same format, to fix and upload again.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useFetcher, useLoaderData, useRevalidator, useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Badge, Banner, BlockStack, Button, Card, DataTable, DropZone, InlineStack, Layout, Page, ProgressBar, Text } from "@shopify/polaris";
import { saveFile } from "../embedded/save-file";
import { staffAction } from "../embedded/context.server";
import { authenticate } from "../shopify.server";
import { ApiError } from "../infra/errors";
import { importPageData, runUploadedImport, uploadImport, type PageReport } from "../embedded/import-center.server";
import { SectionCard } from "../embedded/section-card";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return json(await importPageData(session.shop, new URL(request.url).searchParams.get("id")));
};

type ActionResult = { ok: true; id: string; report?: PageReport; started?: boolean } | { ok: false; error: string };

export const action = (args: ActionFunctionArgs) =>
  staffAction(args, async ({ request }: ActionFunctionArgs) => {
    const { session } = await authenticate.admin(request);
    const form = await request.formData();
    try {
      if (form.get("intent") === "upload") {
        const file = form.get("file");
        if (!(file instanceof File) || file.size === 0) return json<ActionResult>({ ok: false, error: "Choose a CSV or JSONL file." }, 400);
        const { id, report } = await uploadImport(session.shop, file);
        return json<ActionResult>({ ok: true, id, report });
      }
      if (form.get("intent") === "run") {
        const id = String(form.get("id") ?? "");
        await runUploadedImport(session.shop, id);
        return json<ActionResult>({ ok: true, id, started: true });
      }
      return json<ActionResult>({ ok: false, error: "Unknown action." }, 400);
    } catch (err) {
      if (err instanceof ApiError) return json<ActionResult>({ ok: false, error: err.message }, 400);
      throw err;
    }
  });

const STATUS_TONE: Record<string, "info" | "success" | "critical" | "attention" | undefined> = {
  queued: "info",
  running: "attention",
  done: "success",
  failed: "critical",
};

function Report({ report }: { report: PageReport }) {
  const fileErrors = report.errors.filter((e) => e.row === 0);
  return (
    <SectionCard title="Dry run">
      <Text as="p">
        {report.rows} rows, {report.contracts} subscriptions: {report.toCreate} to create, {report.toSkip} already imported, {report.withErrors} with errors.{" "}
        {report.newCustomers} new customers, {report.existingCustomers} existing.
      </Text>
      {fileErrors.length > 0 && (
        <Banner tone="critical" title="This file cannot be imported">
          <p>{fileErrors.map((e) => e.message).join(" · ")}</p>
        </Banner>
      )}
      {report.errors.length > 0 ? (
        <DataTable
          columnContentTypes={["numeric", "text", "text"]}
          headings={["Row", "Column", "Error"]}
          rows={report.errors.map((e) => [e.row, e.column ?? "", e.message])}
        />
      ) : (
        <Banner tone="success" title="No errors found" />
      )}
      <DataTable
        columnContentTypes={["text", "text", "text", "text", "numeric"]}
        headings={["Rows", "Customer", "Action", "Status", "Lines"]}
        rows={report.items.map((i) => [i.rows.join(", "), `${i.email}${i.customer ? ` (${i.customer})` : ""}`, i.action, i.status, i.lines])}
      />
      {report.more > 0 && (
        <Text as="p" tone="subdued">
          …and {report.more} more subscriptions.
        </Text>
      )}
    </SectionCard>
  );
}

export default function ImportPage() {
  const { progress } = useLoaderData<typeof loader>();
  const upload = useFetcher<ActionResult>();
  const run = useFetcher<ActionResult>();
  const revalidator = useRevalidator();
  const [, setSearchParams] = useSearchParams();
  const [file, setFile] = useState<File | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const uploaded = upload.data?.ok ? upload.data : null;
  const report = uploaded?.report ?? null;
  const active = progress && (progress.status === "queued" || progress.status === "running");

  useEffect(() => {
    if (run.state === "idle" && run.data?.ok && run.data.started) setSearchParams({ id: run.data.id }, { replace: true });
  }, [run.state, run.data, setSearchParams]);

  // Progress: the loader is read again every second while the import is queued or running.
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), 1000);
    return () => clearInterval(t);
  }, [active, revalidator]);

  const submitFile = () => {
    if (!file) return;
    const data = new FormData();
    data.set("intent", "upload");
    data.set("file", file);
    upload.submit(data, { method: "post", encType: "multipart/form-data" });
  };
  const start = () => {
    if (!uploaded) return;
    run.submit({ intent: "run", id: uploaded.id }, { method: "post" });
  };
  const downloadErrors = async () => {
    if (!progress) return;
    setDownloadError(null);
    // A fetch (App Bridge adds the session token), then a local object URL for the browser.
    const res = await fetch(`/app/imports/errors?id=${encodeURIComponent(progress.id)}`);
    if (!res.ok) return setDownloadError("The error file could not be downloaded.");
    const name = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") ?? "")?.[1] ?? "errors.csv";
    saveFile(await res.blob(), name);
  };

  const uploadError = upload.state === "idle" && upload.data && !upload.data.ok ? upload.data.error : null;
  const runError = run.state === "idle" && run.data && !run.data.ok ? run.data.error : null;
  const canRun = report && report.toCreate > 0 && !report.errors.some((e) => e.row === 0) && !(run.data?.ok && run.data.started);

  return (
    <Page title="Import">
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <SectionCard title="Upload a migration file">
              <Text as="p" tone="subdued">
                The Migration export&apos;s CSV or JSONL: subscribers from another shop or another subscriptions app become subscriptions of this app. Nothing
                is created until you run the import.
              </Text>
              <DropZone
                label="Migration file"
                allowMultiple={false}
                accept=".csv,.jsonl,.ndjson,text/csv,application/x-ndjson"
                type="file"
                onDrop={(_all, accepted) => setFile(accepted[0] ?? null)}
              >
                {file ? (
                  <Text as="p" alignment="center">
                    {file.name}
                  </Text>
                ) : (
                  <DropZone.FileUpload actionHint="CSV or JSONL" />
                )}
              </DropZone>
              {uploadError && <Banner tone="critical" title={uploadError} />}
              <InlineStack gap="200">
                <Button variant="primary" onClick={submitFile} disabled={!file} loading={upload.state !== "idle"}>
                  Check file
                </Button>
                {canRun && (
                  <Button onClick={start} loading={run.state !== "idle"}>
                    {`Import ${report.toCreate} subscriptions`}
                  </Button>
                )}
              </InlineStack>
              {runError && <Banner tone="critical" title={runError} />}
            </SectionCard>
            {report && <Report report={report} />}
            {progress && (
              <Card>
                <BlockStack gap="300">
                  <InlineStack gap="200" blockAlign="center">
                    <Text as="h2" variant="headingMd">
                      {`Import of ${progress.fileName}`}
                    </Text>
                    <Badge tone={STATUS_TONE[progress.status]}>{progress.status}</Badge>
                  </InlineStack>
                  <ProgressBar
                    progress={progress.contracts ? Math.round((progress.done / progress.contracts) * 100) : 0}
                    size="small"
                    ariaLabelledBy="import-progress"
                  />
                  <Text as="p" id="import-progress">
                    {`${progress.done} of ${progress.contracts} subscriptions done: ${progress.created} created, ${progress.skipped} skipped as already imported, ${progress.failed} failed`}
                  </Text>
                  {progress.error && <Banner tone="critical" title={progress.error} />}
                  {progress.failures.length > 0 && (
                    <DataTable
                      columnContentTypes={["text", "text", "text"]}
                      headings={["Rows", "Column", "Why it failed"]}
                      rows={progress.failures.map((f) => [f.rows.join(", "), f.column ?? "", f.message])}
                    />
                  )}
                  {progress.failed > 0 && !active && (
                    <InlineStack>
                      <Button onClick={downloadErrors}>Download error file</Button>
                    </InlineStack>
                  )}
                  {downloadError && <Banner tone="critical" title={downloadError} />}
                </BlockStack>
              </Card>
            )}
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
