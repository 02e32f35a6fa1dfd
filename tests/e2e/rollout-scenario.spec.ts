import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type APIRequestContext, expect, test } from "./client-address";
import { call, signIn } from "./procedure-calls";

// Issue 25's rollout, end to end in a browser: a configurator saves the group "North garage, old
// firmware" and sees its count and phase sizes on the confirm page; a second person approves; the
// deployment runs at a set pace; a radio's failure pauses it, and an email and a signed webhook
// (received by a local receiver started here) say so; the failed radio is retried alone and
// succeeds. Radios speak the device protocol from the test. Metro Rail is used by no other
// deployment test, and everything made here is named after this run (two copies of this test
// at once would each change Metro Rail's settings: run it again with --workers 1).

const ACCOUNT = "acc_metro_rail";
const GROUPS = `/accounts/${ACCOUNT}/registry/devices/groups`;

type Radio = { uid: string; secret: string };

async function checkIn(request: APIRequestContext, radio: Radio, body: unknown = {}): Promise<string | null> {
  const response = await request.post("/device/v1/check-in", {
    data: body,
    headers: { Authorization: `Bearer ${radio.uid}:${radio.secret}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { deployment: { id: string } | null }).deployment?.id ?? null;
}

async function report(request: APIRequestContext, radio: Radio, deploymentId: string, state: string) {
  const response = await request.post(`/device/v1/deployments/${deploymentId}/status`, {
    data: { state, ...(state === "failed" ? { code: "E-FLASH", detail: "write failed" } : {}) },
    headers: { Authorization: `Bearer ${radio.uid}:${radio.secret}` },
  });
  expect(response.status()).toBe(200);
}

const idOf = (url: string) => decodeURIComponent(url.split("/").pop()?.split("?")[0] ?? "");

test("a group's rollout: counted, approved by a second person, paced, paused by a failure (email and signed webhook), the failed radio retried alone", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  // The local receiver: every POST kept with its signature header.
  const received: { body: string; signature: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      received.push({ body, signature: String(req.headers["webhook-signature"] ?? "") });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  try {
    const run = Date.now().toString(36).toUpperCase();
    const siteName = `North garage ${run}`;

    // The owner: four radios at a new site (three on old firmware), approval required, email
    // for a pause, and a webhook of the account's organization.
    const owner = await (await browser.newContext({ baseURL })).newPage();
    await signIn(owner, baseURL, "owner@example.com");
    const site = await call<{ _id: string }>(owner, baseURL, "sites.add", { accountId: ACCOUNT, name: siteName });
    const radios: Radio[] = [];
    for (let i = 1; i <= 4; i++) {
      const added = await call<{ secret: string }>(owner, baseURL, "devices.add", {
        orgId: "org_metro",
        uid: `SCN-${run}-${i}`,
        brand: "Northwind",
        model: "XR-7",
        accountId: ACCOUNT,
        siteId: site._id,
      });
      const radio = { uid: `SCN-${run}-${i}`, secret: added.secret };
      await checkIn(owner.request, radio, { firmware: i < 4 ? "1.0.0" : "2.0.0" });
      radios.push(radio);
    }
    const [applies, fails, silent, newer] = radios as [Radio, Radio, Radio, Radio];

    await owner.goto(`/accounts/edit/${ACCOUNT}/general`);
    const approval = owner.getByLabel("Deployments wait for a second person’s approval");
    if (!(await approval.isChecked())) {
      await approval.check();
      await owner.getByLabel("Expires after (hours)").fill("24");
      await owner.getByRole("button", { name: "Save approval" }).click();
      await expect(owner.getByText("Approval setting saved.").first()).toBeVisible();
    }

    await owner.goto(`/accounts/${ACCOUNT}/notifications`);
    await owner.getByRole("checkbox", { name: "A deployment pauses itself" }).check();
    await owner.getByRole("button", { name: "Save choices" }).click();
    await expect(owner.getByText("Your notification choices are saved.").first()).toBeVisible();

    await owner.goto("/settings/organizations/webhooks/org_metro");
    await owner.getByLabel("Address").fill(hookUrl);
    await owner.getByRole("checkbox", { name: "A deployment pauses itself" }).check();
    await owner.getByRole("button", { name: "Add webhook" }).click();
    const secret = (await owner.locator("[data-webhook-secret]").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_/);

    // The configurator saves the group, and sees it hold the three old radios.
    const configurator = await (await browser.newContext({ baseURL })).newPage();
    await signIn(configurator, baseURL, "configurator@example.com");
    const group = "North garage, old firmware";
    await configurator.goto(GROUPS);
    if ((await configurator.getByRole("link", { name: group, exact: true }).count()) > 0) {
      // An earlier run's group: deleted first, by the page.
      await configurator.getByRole("link", { name: group, exact: true }).click();
      await configurator.getByRole("link", { name: "Delete group" }).click();
      await configurator.getByRole("button", { name: /^Delete group/ }).click();
      await expect(configurator).toHaveURL(GROUPS);
    }
    await configurator.getByRole("link", { name: "New group" }).first().click();
    await configurator.getByLabel("Group name").fill(group);
    await configurator.getByLabel("Site", { exact: true }).selectOption({ label: siteName });
    await configurator.getByLabel("Firmware").fill("1.0.0");
    await configurator.getByRole("button", { name: "Create group" }).click();
    const row = configurator.getByRole("listitem").filter({ has: configurator.getByRole("link", { name: group, exact: true }) });
    await expect(row.getByRole("link", { name: "3 (show in the inventory)" })).toBeVisible();

    // The confirm page: the group's count and its phase sizes before anything is confirmed; a pace;
    // one failure pauses.
    await configurator.goto(`/accounts/${ACCOUNT}/confirm-deployment`);
    await configurator.getByLabel("Saved group").selectOption({ label: group });
    await configurator.getByLabel("In phases").check();
    await configurator.getByLabel("Phases (% of radios, cumulative)").fill("100");
    await configurator.getByLabel("Success threshold (% applied)").fill("100");
    await configurator.getByLabel("Error threshold").selectOption("count");
    await configurator.getByLabel("Pause at (failed or rejected)").fill("1");
    await configurator.getByLabel("At most a number of radios a minute").check();
    await configurator.getByLabel("Radios a minute, at most").fill("10");
    await configurator.getByRole("button", { name: "Count the radios per phase" }).click();
    await expect(configurator.getByText("Radios in this target now: 3")).toBeVisible();
    await expect(configurator.getByText("Phase 1: 3 radios")).toBeVisible();
    await configurator.getByLabel("Note").fill(`Old firmware at ${siteName}`);
    await configurator.getByRole("button", { name: "Confirm and deploy" }).click();
    await expect(configurator.getByRole("heading", { level: 1, name: /Deployment #\d+/ })).toBeVisible();
    await expect(configurator.getByText("Waiting for approval by someone other than configurator@example.com")).toBeVisible();
    const deploymentUrl = configurator.url();
    const deploymentId = idOf(deploymentUrl);
    expect(await checkIn(configurator.request, applies)).toBeNull(); // nothing before approval

    // A second person approves, without JavaScript.
    const approver = await (await browser.newContext({ baseURL, javaScriptEnabled: false })).newPage();
    await signIn(approver, baseURL, "admin@example.com");
    await approver.goto(deploymentUrl);
    await approver.getByLabel("Note (optional)").fill("Checked");
    await approver.getByRole("button", { name: "Approve" }).click();
    await expect(approver.getByText("Deployment approved.")).toBeVisible();
    await expect(approver.getByText("At most 10 radios a minute")).toBeVisible();
    await expect(approver.getByText(`Group “${group}” as it was when confirmed`)).toBeVisible();

    // The radios: the group's three are offered it (the pace's first minute holds them all), the newer one is not.
    const request = configurator.request;
    expect(await checkIn(request, applies)).toBe(deploymentId);
    expect(await checkIn(request, fails)).toBe(deploymentId);
    expect(await checkIn(request, silent)).toBe(deploymentId);
    expect(await checkIn(request, newer)).toBeNull();
    await report(request, applies, deploymentId, "applied");
    await report(request, fails, deploymentId, "failed");

    await configurator.goto(deploymentUrl);
    await expect(configurator.getByText("Paused automatically: the error threshold was crossed.")).toBeVisible();

    // The email, in the local outbox.
    await expect(async () => {
      const mailbox = await (await owner.request.get(`/mailbox?to=${encodeURIComponent("owner@example.com")}`)).text();
      expect(mailbox).toMatch(/Deployment #\d+ paused itself/);
    }).toPass({ timeout: 30_000 });

    // The webhook, signed with the secret shown once (HMAC-SHA256 of "<t>.<body>").
    let paused: { body: string; signature: string } | undefined;
    await expect(async () => {
      paused = received.find((hit) => {
        const event = JSON.parse(hit.body) as { type: string; data: { subjectId: string } };
        return event.type === "deployment.paused" && event.data.subjectId === deploymentId;
      });
      expect(paused).toBeDefined();
    }).toPass({ timeout: 45_000 });
    const { t, v1 } = Object.fromEntries((paused?.signature ?? "").split(",").map((part) => part.split("=", 2))) as {
      t: string;
      v1: string;
    };
    expect(v1).toBe(createHmac("sha256", secret).update(`${t}.${paused?.body}`).digest("hex"));
    expect(Math.abs(Date.now() / 1000 - Number(t))).toBeLessThan(300);

    // Retry the failed radio alone: it applies, the retry finishes; the others are left as they are.
    await configurator.getByRole("button", { name: "Retry the failed radios (1)" }).click();
    await expect(configurator.getByText("The radios that failed, rejected or timed out in deployment #")).toBeVisible();
    const retryId = idOf(configurator.url());
    expect(retryId).not.toBe(deploymentId);
    expect(await checkIn(request, fails)).toBe(retryId);
    expect(await checkIn(request, silent)).not.toBe(retryId);
    expect(await checkIn(request, newer)).toBeNull();
    await report(request, fails, retryId, "applied");
    await configurator.reload();
    await expect(configurator.locator('[data-live-part="deployment-state"]')).toHaveText("finished");
  } finally {
    receiver.close();
  }
});
