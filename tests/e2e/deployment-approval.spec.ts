import { expect, type Page, test } from "./client-address";

// Four-eyes approval end to end (issue 25): the owner turns approval on for Field crew, the
// configurator confirms a deployment that then waits (shown on the list and the account home),
// and the admin, a second person, approves it in a browser without JavaScript: it starts.

const DEMO_PASSWORD = "radios-demo-2025";
const ACCOUNT = "acc_harbor_field";

test.describe.configure({ mode: "serial" });

async function signIn(page: Page, baseURL: string | undefined, email: string) {
  const response = await page.request.post("/api/sign-in", {
    data: { username: email, password: DEMO_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

test("a deployment waits for a second person's approval, then starts", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const owner = await (await browser.newContext({ baseURL })).newPage();
  await signIn(owner, baseURL, "owner@example.com");
  await owner.goto(`/accounts/edit/${ACCOUNT}/general`);
  await owner.getByLabel("Deployments wait for a second person’s approval").check();
  await owner.getByLabel("Expires after (hours)").fill("24");
  await owner.getByRole("button", { name: "Save approval" }).click();
  await expect(owner.getByText("Approval setting saved.").first()).toBeVisible();
  await expect(owner.getByLabel("Deployments wait for a second person’s approval")).toBeChecked();

  const author = await (await browser.newContext({ baseURL })).newPage();
  await signIn(author, baseURL, "configurator@example.com");
  await author.goto(`/accounts/${ACCOUNT}/confirm-deployment`);
  await author.getByRole("button", { name: "Confirm and deploy" }).click();
  await expect(author.getByRole("heading", { level: 1, name: /Deployment #\d+/ })).toBeVisible();
  const deploymentUrl = author.url();
  await expect(author.getByText("Waiting for approval by someone other than configurator@example.com")).toBeVisible();
  // The author has no Approve button of their own.
  await expect(author.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await author.goto(`/accounts/${ACCOUNT}/deployments`);
  await expect(author.getByText("Deployments waiting for approval: 1")).toBeVisible();
  await author.goto(`/accounts/${ACCOUNT}`);
  await expect(author.getByRole("link", { name: "Deployments waiting for approval: 1" })).toBeVisible();

  // The admin decides in a browser without JavaScript: plain forms, post/redirect/get.
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const approver = await context.newPage();
  await signIn(approver, baseURL, "admin@example.com");
  await approver.goto(deploymentUrl);
  await approver.getByRole("button", { name: "Reject" }).click();
  // The browser's own check asks for the note first; the page itself is unchanged.
  await expect(approver.getByRole("button", { name: "Approve" })).toBeVisible();
  await approver.getByLabel("Note (optional)").fill("Checked the channel plan");
  await approver.getByRole("button", { name: "Approve" }).click();
  await expect(approver.getByText("Deployment approved.")).toBeVisible();
  await expect(approver.getByText(/Approved by admin@example\.com/)).toBeVisible();
  await expect(approver.locator('[data-live-part="deployment-state"]')).toHaveText("running");
  await approver.setViewportSize({ width: 320, height: 800 });
  await expect(approver.getByText(/Approved by admin@example\.com/)).toBeVisible();
  await approver.goto(`/accounts/${ACCOUNT}`);
  await expect(approver.getByText("Deployments waiting for approval")).toHaveCount(0);
});
