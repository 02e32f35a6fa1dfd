import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { newDeviceSecret } from "@/server/api/device-inputs";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { postForm, request } from "./helpers";

// Every CSV the app writes keeps cells a spreadsheet would run as formulas inert (issue 23): a
// uid may start with "-" (uids are A–Z a–z 0–9 . _ -), and "-2-3" opened in a spreadsheet is
// the formula -5. The devices export, the activity log and a report, through one mechanism.

const HOSTILE_UID = "-2-3";
let owner: string;
let account: string;

beforeAll(async () => {
  const org = await createOrganization("Cells dealer");
  account = await createAccount(org, "Cells fleet", "advanced");
  owner = await sessionCookie((await createUser({ orgId: org, role: "owner" })).email);
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO subscriptions (id, org_id, plan, quantity, starts_at) VALUES ('sub_cells', ?, 'Plan', 10, '2026-01-01')",
    ).bind(org),
    env.DB.prepare(
      "INSERT INTO allocations (id, subscription_id, account_id, quantity) VALUES ('alc_cells', 'sub_cells', ?, 5)",
    ).bind(account),
    env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES ('site_cells', ?, '=HYPERLINK(\"x\")')").bind(account),
  ]);
  const added = await postForm(
    `/accounts/${account}/registry/devices/add`,
    { intent: "register", uid: HOSTILE_UID, brand: "Northwind", model: "XR-7", name: "@SUM(A1)" },
    { Cookie: owner },
  );
  expect(added.status).toBe(200);
  await env.DB.prepare("UPDATE devices SET site_id = 'site_cells' WHERE uid = ?").bind(HOSTILE_UID).run();
});

/** The file's rows as cells (no cell here holds a comma or a quote but the site's, which csv-stringify quotes). */
async function rowsOf(path: string): Promise<string[][]> {
  const response = await request(path, { headers: { Cookie: owner } });
  expect(response.headers.get("Content-Type")).toContain("text/csv");
  const text = (await response.text()).replace(/^\uFEFF/, "");
  return text
    .split("\r\n")
    .filter(Boolean)
    .map((line) => line.match(/("([^"]|"")*"|[^,]*)(,|$)/g)?.map((cell) => cell.replace(/,$/, "")) ?? []);
}

describe("no CSV cell a spreadsheet would run", () => {
  it("the devices export writes a uid starting with - as text, and every other text cell too", async () => {
    for (const path of ["/devices/export.csv", `/accounts/${account}/registry/devices/export.csv`]) {
      const row = (await rowsOf(path)).find((cells) => cells[0]?.includes("2-3"));
      expect(row?.[0], path).toBe(`'${HOSTILE_UID}`);
      expect(row?.[3], path).toBe("'@SUM(A1)");
    }
  });

  it("the activity log's id column (a radio's uid) is inert", async () => {
    const rows = await rowsOf(`/accounts/${account}/activity-logs/export.csv`);
    const entry = rows.find((cells) => cells.includes(`'${HOSTILE_UID}`));
    expect(entry).toBeDefined();
    expect(rows.flat()).not.toContain(HOSTILE_UID);
  });

  it("a report's CSV keeps a site named like a formula as text", async () => {
    const rows = await rowsOf(`/accounts/${account}/reports/inventory?by=site&format=csv`);
    expect(rows.map((cells) => cells[0])).toContain(`"'=HYPERLINK(""x"")"`);
  });

  it("the new radios' secrets, a CSV to copy, keep a uid starting with - inert; no secret starts with -", async () => {
    const answer = await postForm("/devices/import", { csv: "uid,model\n-9-9,XR-7\n", commit: "1" }, { Cookie: owner });
    const box = (await answer.text()).match(/<textarea[^>]*id="import-secrets"[^>]*>([\s\S]*?)<\/textarea>/)?.[1] ?? "";
    expect(box).toMatch(/^uid,secret\n&#x27;-9-9,[A-Za-z0-9_][A-Za-z0-9_-]{42}$/);
    // One base64url secret in 64 would start with "-": a spreadsheet would run it, or show it behind an apostrophe.
    const secrets = await Promise.all(Array.from({ length: 2000 }, () => newDeviceSecret()));
    expect(secrets.filter((s) => s.secret.startsWith("-"))).toEqual([]);
  });
});
