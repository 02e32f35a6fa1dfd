import { execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type APIRequestContext, expect, test } from "./client-address";
import { call, signIn } from "./procedure-calls";

// Issue 27's cookbook (docs/cookbook.md): each script run as an integrator would, with a token
// limited to an account of this run, against the suite's server. The test then plays the radios
// the first script registered, so the rollout the second one starts has something to wait for.

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const exec = promisify(execFile);

type Radio = { uid: string; secret: string };

/** The radios' side: check in, and report applied on the deployment they are given. */
async function playRadios(request: APIRequestContext, radios: Radio[], until: () => boolean) {
  while (!until()) {
    for (const radio of radios) {
      const headers = { Authorization: `Bearer ${radio.uid}:${radio.secret}` };
      const answer = (await (await request.post("/device/v1/check-in", { data: {}, headers })).json()) as {
        deployment: { id: string; yourState: string } | null;
      };
      if (answer.deployment?.yourState === "pending")
        await request.post(`/device/v1/deployments/${answer.deployment.id}/status`, { data: { state: "applied" }, headers });
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

test("the cookbook's three scripts run with a token limited to one account; another account stays out of reach; revoked, it fails at once", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await signIn(page, baseURL, "owner@example.com");

  // An advanced account of this run, with two seats, and a token for it alone.
  const { _id: accountId } = await call<{ _id: string }>(page, baseURL, "accounts.add", {
    orgId: "org_harbor",
    name: `Cookbook ${run}`,
    subscriptionLevel: "advanced",
  });
  await call(page, baseURL, "subscriptions.allocate", { subscriptionId: "sub_harbor_demo", accountId: accountId, quantity: 2 });
  const made = await call<{ id: string; token: string }>(page, baseURL, "apiTokens.create", {
    name: `Cookbook ${run}`,
    role: "configurator",
    accountIds: [accountId],
    expiresInDays: 1,
  });
  const dir = await mkdtemp(join(tmpdir(), "cookbook-"));
  const env = { ...process.env, CT_URL: baseURL ?? "", CT_TOKEN: made.token };
  const script = (name: string) => join("docs", "cookbook", name);

  // 1. Register radios from a CSV: a file with a mistake is refused by line, nothing written.
  const uids = [`CB-${run}-1`, `CB-${run}-2`];
  await writeFile(
    join(dir, "bad.csv"),
    `uid,brand,model,name,tags\n${uids[0]},Northwind,XR-7,One,cookbook\n,Northwind,XR-7,Two,cookbook\n`,
  );
  const refused = await exec("node", [script("register-radios.mjs"), "--account", accountId, "--file", join(dir, "bad.csv")], {
    env,
  }).catch((error: { code: number; stderr: string }) => error);
  expect(refused).toMatchObject({ code: 1 });
  expect((refused as { stderr: string }).stderr).toContain("line 3");
  await writeFile(
    join(dir, "radios.csv"),
    `uid,brand,model,name,tags\n${uids.map((uid, i) => `${uid},Northwind,XR-7,Cookbook ${i + 1},cookbook`).join("\n")}\n`,
  );
  const secretsFile = join(dir, "secrets.csv");
  const registered = await exec(
    "node",
    [script("register-radios.mjs"), "--account", accountId, "--file", join(dir, "radios.csv"), "--secrets", secretsFile],
    { env },
  );
  expect(registered.stdout).toContain("registered 2 new radios");
  const radios = (await readFile(secretsFile, "utf8"))
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => {
      const [uid = "", secret = ""] = line.split(",");
      return { uid, secret };
    });
  expect(radios.map((r) => r.uid).sort()).toEqual(uids);

  // 2. A phased rollout to a saved group, waited for while the radios apply it.
  await call(page, baseURL, "radioGroups.create", { accountId: accountId, name: "Cookbook radios", tag: "cookbook" });
  let ended = false;
  const rollout = spawn(
    "node",
    [
      script("phased-rollout.mjs"),
      "--account",
      accountId,
      "--group",
      "Cookbook radios",
      "--phases",
      "50,100",
      "--success",
      "100",
      "--every",
      "1",
      "--wait-minutes",
      "1",
    ],
    { env },
  );
  let output = "";
  rollout.stdout.on("data", (chunk) => (output += String(chunk)));
  rollout.stderr.on("data", (chunk) => (output += String(chunk)));
  const exitCode = new Promise<number | null>((resolve) => rollout.on("exit", (code) => resolve(code)));
  void exitCode.then(() => (ended = true));
  await playRadios(page.request, radios, () => ended);
  expect(await exitCode, output).toBe(0);
  expect(output).toContain("finished: 2 applied, 0 did not");

  // 3. The month's command history: a ping sent now is in today's row.
  const api = (path: string, data: unknown) =>
    page.request.post(`/api/${path}`, { data, headers: { Authorization: `Bearer ${made.token}` } });
  expect((await api("commands.send", { accountId, uid: uids[0], type: "ping" })).status()).toBe(200);
  const month = new Date().toISOString().slice(0, 7);
  const exported = await exec("node", [script("export-command-history.mjs"), "--account", accountId, "--month", month], { env });
  // Every day of the month has a row (day, succeeded, failed, expired, cancelled, waiting, total, seconds);
  // today's holds the ping, waiting for its radio. The account keeps UTC days.
  const rows = exported.stdout
    .replace(/^\uFEFF/, "")
    .trim()
    .split(/\r?\n/);
  const days = Number(new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate());
  expect(rows).toHaveLength(days + 1);
  const today = rows.find((row) => row.startsWith(new Date().toISOString().slice(0, 10)));
  expect(today?.split(",").slice(1, 7)).toEqual(["0", "0", "0", "0", "1", "1"]);

  // The token sees its account only: the demo account's radios are not there, as for another tenant.
  const foreign = await page.request.get(
    `/api/devices.list?input=${encodeURIComponent(JSON.stringify({ accountId: "acc_harbor_demo" }))}`,
    {
      headers: { Authorization: `Bearer ${made.token}` },
    },
  );
  expect(foreign.status()).toBe(404);

  // Revoked, the very next call fails.
  await call(page, baseURL, "apiTokens.revoke", { id: made.id, version: 1 });
  const after = await page.request.get(
    `/api/devices.list?input=${encodeURIComponent(JSON.stringify({ accountId: accountId }))}`,
    {
      headers: { Authorization: `Bearer ${made.token}` },
    },
  );
  expect(after.status()).toBe(401);
});
