// The signed download route over real HTTP (docs/decisions/058-export-downloads.md): the signature covers the
// id and the expiry; every refusal is the identical 404 (only the request id differs).
import { prisma } from "../../../app/db.server";
import { signDownloadUrl } from "../../../app/domain/exports/signing.server";
import { runDailySweep } from "../../../app/domain/housekeeping/daily-sweep.server";
import { useStack } from "../../support/stack";
import { exportsClient, finished, insertGoldenContracts } from "../../support/exports";

// Worker round trips on a loaded machine: generous per-test time (no wall-clock assertions).
vi.setConfig({ testTimeout: 120_000 });

const stack = useStack();

async function readyJob() {
  const { shopId } = await stack.installShop();
  await insertGoldenContracts(shopId);
  const call = await exportsClient(stack, shopId);
  const job = await finished(call, (await call("POST", "/exports", { dataset: "subscriptions" })).json.id);
  expect(job.status).toBe("ready");
  return { shopId, call, job };
}

/** Status, headers that matter and the body with the request id taken out. */
async function refusal(url: string, init?: RequestInit) {
  const res = await fetch(url, init);
  const body = await res.json();
  expect(body.error.request_id).toMatch(/^req_/);
  expect(res.headers.get("x-service-request-id")).toBe(body.error.request_id);
  delete body.error.request_id;
  return { status: res.status, contentType: res.headers.get("content-type"), cache: res.headers.get("cache-control"), body };
}

describe("GET /api/exports/{id}/download", () => {
  it("refuses a tampered signature, an edited expiry, an expired URL, an unknown id and a missing signature with the identical 404", async () => {
    const { job } = await readyJob();
    const good = new URL(job.download_url!);
    expect((await fetch(good)).status).toBe(200);

    const tampered = new URL(good);
    const sig = tampered.searchParams.get("signature")!;
    tampered.searchParams.set("signature", (sig[0] === "a" ? "b" : "a") + sig.slice(1));

    const edited = new URL(good);
    edited.searchParams.set("expires", String(Number(good.searchParams.get("expires")) + 3600));

    // Signed correctly, but issued more than an hour ago.
    const expired = new URL(signDownloadUrl(job.id, new Date(Date.now() - 3601_000)).url);

    const unknown = new URL(signDownloadUrl("cnotajob000000000000000000", new Date()).url);

    const bare = new URL(good);
    bare.search = "";

    const answers = [];
    for (const url of [tampered, edited, expired, unknown, bare]) answers.push(await refusal(url.toString()));
    for (const a of answers) {
      expect(a.status).toBe(404);
      expect(a).toEqual(answers[0]);
    }
    expect(answers[0].body.error.code).toBe("not_found");
    // A bearer key changes nothing: the signature is the authorization.
    const withKey = await refusal(tampered.toString(), { headers: { Authorization: "Bearer svc_sk_whatever" } });
    expect(withKey).toEqual(answers[0]);
  });

  it("refuses a failed job and an expired job with the same 404", async () => {
    const { shopId, job } = await readyJob();
    const ok = await fetch(job.download_url!);
    expect(ok.status).toBe(200);
    const sample = await refusal(signDownloadUrl("cnotajob000000000000000000", new Date()).url);

    // Expired by the daily sweep (24 h after ready_at): bytes gone, record kept.
    await runDailySweep(new Date(Date.now() + 24 * 3600_000 + 60_000));
    const row = await prisma.exportJob.findUniqueOrThrow({ where: { id: job.id } });
    expect(row.status).toBe("expired");
    expect(await refusal(signDownloadUrl(job.id, new Date()).url)).toEqual(sample);

    const failed = await prisma.exportJob.create({
      data: { shopId, dataset: "subscriptions", format: "csv", status: "failed", activeSlot: null, errorCode: "render_failed", errorMessage: "x" },
    });
    expect(await refusal(signDownloadUrl(failed.id, new Date()).url)).toEqual(sample);
  });

  it("HEAD answers the same headers without a body", async () => {
    const { job } = await readyJob();
    const res = await fetch(job.download_url!, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(job.byte_size));
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });
});
