// The Import page (docs/decisions/085-migration-import.md, 151-import-presets.md): a merchant
// chooses a file (this app's migration CSV or JSONL, or another app's CSV export), matches its
// columns (a preset per app fills them in), reads the dry-run report (every error with its row
// and column), runs the import (the page's primary action), watches its progress, and downloads
// the failed rows as an error file in the same format, to fix and upload again.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useFetcher, useLoaderData, useRevalidator, useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useFocusableTableScroll } from "../embedded/use-focusable-table-scroll";
import { Badge, Banner, BlockStack, Button, Card, DataTable, DropZone, InlineStack, Layout, Page, ProgressBar, Text } from "@shopify/polaris";
import { saveFile } from "../embedded/save-file";
import { staffAction } from "../embedded/context.server";
import { authenticate } from "../shopify.server";
import { ApiError } from "../infra/errors";
import {
  importPageData,
  inspectImport,
  MAPPING_CHOICES,
  mappingFrom,
  runUploadedImport,
  uploadImport,
  type Inspection,
  type PageReport,
} from "../embedded/import-center.server";
import { SectionCard } from "../embedded/section-card";
import { ImportMapping, type MappingState } from "../embedded/import-mapping";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return json({ ...(await importPageData(session.shop, new URL(request.url).searchParams.get("id"))), choices: MAPPING_CHOICES });
};

type ActionResult = { ok: true; id?: string; report?: PageReport; started?: boolean; inspection?: Inspection } | { ok: false; error: string };

export const action = (args: ActionFunctionArgs) =>
  staffAction(args, async ({ request }: ActionFunctionArgs) => {
    const { session } = await authenticate.admin(request);
    const form = await request.formData();
    try {
      const intent = form.get("intent");
      if (intent === "inspect" || intent === "upload") {
        const file = form.get("file");
        if (!(file instanceof File) || file.size === 0) return json<ActionResult>({ ok: false, error: "Choose a CSV or JSONL file." }, 400);
        if (intent === "inspect") return json<ActionResult>({ ok: true, inspection: await inspectImport(file) });
        const mappingJson = form.get("mapping");
        const mapped =
          typeof mappingJson === "string"
            ? { mapping: mappingFrom(mappingJson, (await inspectImport(file)).header), currency: String(form.get("currency") ?? "") }
            : undefined;
        const { id, report } = await uploadImport(session.shop, file, mapped);
        return json<ActionResult>({ ok: true, id: id, report });
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

const PROGRESS_WORDS: Record<string, string> = { queued: "Queued", running: "Running", done: "Done", failed: "Failed" };
const STATUS_TONE: Record<string, "info" | "success" | "critical" | "attention" | undefined> = {
  queued: "info",
  running: "attention",
  done: "success",
  failed: "critical",
};

function Report({ report }: { report: PageReport }) {
  const fileErrors = report.errors.filter((e) => e.row === 0);
  const errorsWrap = useFocusableTableScroll("Errors in the file", [report]);
  const itemsWrap = useFocusableTableScroll("Subscriptions in the file", [report]);
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
        <div ref={errorsWrap}>
          <DataTable
            columnContentTypes={["numeric", "text", "text"]}
            headings={["Row", "Column", "Error"]}
            rows={report.errors.map((e) => [e.row, e.column ?? "", e.message])}
          />
        </div>
      ) : (
        <Banner tone="success" title="No errors found" />
      )}
      <div ref={itemsWrap}>
        <DataTable
          columnContentTypes={["text", "text", "text", "text", "numeric"]}
          headings={["Rows", "Customer", "Action", "Status", "Lines"]}
          rows={report.items.map((i) => [
            i.rows.join(", "),
            `${i.email}${i.customer ? ` (${i.customer === "new" ? "new customer" : "existing customer"})` : ""}`,
            ACTION_WORDS[i.action] ?? i.action,
            STATUS_WORDS[i.status] ?? i.status,
            i.lines,
          ])}
        />
      </div>
      {report.more > 0 && (
        <Text as="p" tone="subdued">
          …and {report.more} more subscriptions.
        </Text>
      )}
    </SectionCard>
  );
}

const ACTION_WORDS: Record<string, string> = { create: "Will be created", skip: "Already imported", error: "Has errors" };
const STATUS_WORDS: Record<string, string> = { ACTIVE: "Active", PAUSED: "Paused", CANCELLED: "Cancelled", EXPIRED: "Expired", FAILED: "Failed" };

export default function ImportPage() {
  const { progress, choices } = useLoaderData<typeof loader>();
  const inspect = useFetcher<ActionResult>();
  const upload = useFetcher<ActionResult>();
  const run = useFetcher<ActionResult>();
  const revalidator = useRevalidator();
  const [, setSearchParams] = useSearchParams();
  const [file, setFile] = useState<File | null>(null);
  const [mapping, setMapping] = useState<MappingState | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const inspection = inspect.data?.ok ? (inspect.data.inspection ?? null) : null;
  const uploaded = upload.data?.ok && upload.data.id ? upload.data : null;
  const report = uploaded?.report ?? null;
  const active = progress && (progress.status === "queued" || progress.status === "running");
  const failuresWrap = useFocusableTableScroll("Subscriptions that failed", [progress]);

  useEffect(() => {
    if (inspection) setMapping({ preset: inspection.preset, mapping: { ...inspection.mappings[inspection.preset] }, currency: "" });
  }, [inspection]);

  useEffect(() => {
    if (run.state === "idle" && run.data?.ok && run.data.started && run.data.id) setSearchParams({ id: run.data.id }, { replace: true });
  }, [run.state, run.data, setSearchParams]);

  // Progress: the loader is read again every second while the import is queued or running.
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), 1000);
    return () => clearInterval(t);
  }, [active, revalidator]);

  const choose = (chosen: File | null) => {
    setFile(chosen);
    setMapping(null);
    if (!chosen) return;
    const data = new FormData();
    data.set("intent", "inspect");
    data.set("file", chosen);
    inspect.submit(data, { method: "post", encType: "multipart/form-data" });
  };
  const submitFile = () => {
    if (!file) return;
    const data = new FormData();
    data.set("intent", "upload");
    data.set("file", file);
    if (mapping && inspection?.header.length) {
      data.set("mapping", JSON.stringify(mapping.mapping));
      data.set("currency", mapping.currency);
    }
    upload.submit(data, { method: "post", encType: "multipart/form-data" });
  };
  const start = () => {
    if (!uploaded?.id) return;
    run.submit({ intent: "run", id: uploaded.id }, { method: "post" });
  };
  // A fetch (App Bridge adds the session token), then a local object URL for the browser.
  const download = async (url: string, fallbackName: string, failure: string) => {
    setDownloadError(null);
    const res = await fetch(url);
    if (!res.ok) return setDownloadError(failure);
    const name = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") ?? "")?.[1] ?? fallbackName;
    saveFile(await res.blob(), name);
  };
  const downloadErrors = () =>
    progress && download(`/app/imports/errors?id=${encodeURIComponent(progress.id)}`, "errors.csv", "The error file could not be downloaded.");
  const downloadTemplate = () => download("/app/imports/template", "subscriptions-template.csv", "The template could not be downloaded.");

  const failure = (f: typeof upload) => (f.state === "idle" && f.data && !f.data.ok ? f.data.error : null);
  const uploadError = failure(inspect) ?? failure(upload);
  const runError = failure(run);
  const started = run.data?.ok && run.data.started;
  const canRun = !!report && report.toCreate > 0 && !report.errors.some((e) => e.row === 0) && !started;
  const needsMapping = !!inspection && inspection.header.length > 0 && !!mapping;

  return (
    <Page
      title="Import"
      subtitle="Bring subscribers from another subscriptions app or another shop."
      primaryAction={{
        content: report && report.toCreate > 0 ? `Import ${report.toCreate} subscriptions` : "Import subscriptions",
        disabled: !canRun,
        loading: run.state !== "idle",
        onAction: start,
      }}
      secondaryActions={[{ content: "Download template", onAction: () => void downloadTemplate() }]}
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <SectionCard title="1. Choose the file">
              <Text as="p" tone="subdued">
                A CSV exported from Recharge, Skio, Loop or Appstle, this app&apos;s own migration export (CSV or JSONL), or the template filled in. Nothing is
                created until you import.
              </Text>
              <DropZone
                label="Migration file"
                allowMultiple={false}
                accept=".csv,.jsonl,.ndjson,text/csv,application/x-ndjson"
                type="file"
                onDrop={(_all, accepted) => choose(accepted[0] ?? null)}
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
              {downloadError && <Banner tone="critical" title={downloadError} />}
            </SectionCard>
            {needsMapping && (
              <ImportMapping header={inspection.header} choices={choices} mappings={inspection.mappings} value={mapping} onChange={setMapping} />
            )}
            {file && (
              <SectionCard title={needsMapping ? "3. Check the file" : "2. Check the file"}>
                <Text as="p" tone="subdued">
                  Every row is checked against your shop before anything is created.
                </Text>
                <InlineStack gap="200">
                  <Button onClick={submitFile} disabled={inspect.state !== "idle"} loading={upload.state !== "idle"}>
                    Check file
                  </Button>
                </InlineStack>
              </SectionCard>
            )}
            {report && <Report report={report} />}
            {runError && <Banner tone="critical" title={runError} />}
            {progress && (
              <Card>
                <BlockStack gap="300">
                  <InlineStack gap="200" blockAlign="center">
                    <Text as="h2" variant="headingMd">
                      {`Import of ${progress.fileName}`}
                    </Text>
                    <Badge tone={STATUS_TONE[progress.status]}>{PROGRESS_WORDS[progress.status] ?? progress.status}</Badge>
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
                    <div ref={failuresWrap}>
                      <DataTable
                        columnContentTypes={["text", "text", "text"]}
                        headings={["Rows", "Column", "Why it failed"]}
                        rows={progress.failures.map((f) => [f.rows.join(", "), f.column ?? "", f.message])}
                      />
                    </div>
                  )}
                  {progress.failed > 0 && !active && (
                    <InlineStack>
                      <Button onClick={downloadErrors}>Download error file</Button>
                    </InlineStack>
                  )}
                </BlockStack>
              </Card>
            )}
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
