// Win-back campaigns (docs/decisions/115-117): the merchant creates a campaign as a draft (a
// refusal lands on its field), starts it, the campaign job runs, and the campaign's page and the
// list show both groups and the figures beside each other; then pauses it. Desktop and 375 px, no
// console errors, no serious axe violations.
import { expect, test } from "@playwright/test";
import { expectAccessible, expectNoHorizontalOverflow, openApp, seed, watchConsole } from "./admin-support";

const lastJson = <T>(out: string): T =>
  JSON.parse(
    out
      .trim()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .at(-1)!,
  ) as T;

for (const width of [1280, 375]) {
  test(`create, start and read a win-back campaign (${width} px)`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    const console = watchConsole(page);
    const { domain } = lastJson<{ domain: string }>(seed("winback", "shop"));

    const app = await openApp(page, domain, "/app/winback");
    await expect(app.locator("h1")).toHaveText("Win-back campaigns");
    await expect(app.getByText("Create your first win-back campaign")).toBeVisible();
    await expectAccessible(page);
    if (width === 375) await expectNoHorizontalOverflow(page);

    await app.getByRole("link", { name: "Create campaign" }).first().click();
    await expect(app.locator("h1")).toHaveText("Create campaign");
    await app.getByLabel("Name").fill("Come back for 20%");
    await app.getByLabel("Offer").fill("20% off your first box back.");
    await app.getByLabel("Discount code").fill("20");
    // A refusal lands on its field and saves nothing.
    await app.getByLabel("Hold-out").fill("80");
    await app.getByRole("button", { name: "Save draft" }).click();
    await expect(app.getByText("At most 50%")).toBeVisible();
    await app.getByLabel("Hold-out").fill("50");
    await app.getByLabel("Too expensive").check();
    await app.getByRole("button", { name: "Save draft" }).click();

    await expect(app.locator("h1")).toHaveText("Come back for 20%");
    await expect(app.getByText("Draft", { exact: true })).toBeVisible();
    await expectAccessible(page);
    if (width === 375) await expectNoHorizontalOverflow(page);

    await app.getByRole("button", { name: "Start campaign" }).click();
    await expect(app.getByText("Active", { exact: true })).toBeVisible();
    // Started, the rules are read-only: its ledger is decided by them.
    await expect(app.getByRole("button", { name: "Save draft" })).toHaveCount(0);

    // The hourly job's run for this shop, now.
    const report = lastJson<{ sent: number; heldOut: number }>(seed("winback", "run", domain));
    expect(report.sent + report.heldOut).toBe(6);

    await page.reload();
    const frame = page.frameLocator("iframe#app-iframe");
    await expect(frame.locator("h1")).toHaveText("Come back for 20%");
    const sentRow = frame.getByRole("row", { name: /Sent the e-mail/ });
    const heldRow = frame.getByRole("row", { name: /Held out/ });
    await expect(sentRow).toContainText(String(report.sent));
    await expect(heldRow).toContainText(String(report.heldOut));
    await expect(frame.getByText(/Recovered \(raw\): 0\.00 USD\. Added by the campaign:/)).toBeVisible();
    await expectAccessible(page);
    if (width === 375) await expectNoHorizontalOverflow(page);

    await frame.getByRole("button", { name: "Pause campaign" }).click();
    await expect(frame.getByText("Paused", { exact: true })).toBeVisible();

    // The list: the campaign with both groups.
    await frame.getByRole("link", { name: "Win-back campaigns" }).first().click();
    await expect(frame.locator("h1")).toHaveText("Win-back campaigns");
    const row = frame.getByRole("row", { name: /Come back for 20%/ });
    await expect(row).toContainText("Paused");
    await expect(row).toContainText(`${report.sent}`);
    console.expectNone();
  });
}
