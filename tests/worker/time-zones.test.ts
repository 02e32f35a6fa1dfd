import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { formatDateTime } from "@/schema/format";
import { instantOfWallClock, wallClockInput } from "@/schema/zoned-date";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { giveSeats, RADIO_SECRET, registerRadios } from "./fleet-fixtures";
import { ORIGIN, postForm, request } from "./helpers";

// One time zone, labelled (issue 23): inside an account every moment is shown on the account's
// wall clock and names its zone; outside every account, UTC, named too. Forms take times on the
// account's wall clock; CSV headers name the zone. The simulator shows the radio's UTC readably.

describe("the one date helper and wall-clock inputs", () => {
  it("names the zone beside every time, in each language", () => {
    const at = "2026-02-05T10:00:00Z";
    expect(formatDateTime("en", at, "America/Chicago")).toMatch(/^Feb 5, 2026, 4:00\sAM CST$/);
    expect(formatDateTime("en", at, "UTC")).toMatch(/^Feb 5, 2026, 10:00\sAM UTC$/);
    expect(formatDateTime("es-MX", at, "America/Chicago")).toMatch(/GMT-6$/);
  });

  it("reads a datetime-local value on the zone's wall clock, across DST, and refuses junk", () => {
    expect(instantOfWallClock("2030-01-10T09:00", "America/Chicago")).toBe("2030-01-10T15:00:00.000Z");
    expect(instantOfWallClock("2030-07-10T09:00", "America/Chicago")).toBe("2030-07-10T14:00:00.000Z");
    expect(instantOfWallClock("2030-07-10T09:00", "UTC")).toBe("2030-07-10T09:00:00.000Z");
    for (const junk of ["", "2030-02-30T09:00", "2030-01-10 09:00", "2030-01-10T24:00", "tomorrow"])
      expect(instantOfWallClock(junk, "America/Chicago"), junk).toBeNull();
    expect(wallClockInput("2030-01-10T15:00:00.000Z", "America/Chicago")).toBe("2030-01-10T09:00");
  });
});

describe("pages and files", () => {
  let cookie = "";
  let accountId = "";
  let uid = "";

  beforeAll(async () => {
    const owner = await createUser({ role: "owner" });
    accountId = await createAccount(owner.orgId, "Chicago fleet");
    await env.DB.prepare("UPDATE accounts SET timezone = 'America/Chicago' WHERE id = ?").bind(accountId).run();
    await giveSeats(owner.orgId, accountId, 5);
    [uid = ""] = await registerRadios(owner.orgId, accountId, "TZ", 1);
    // 05:30 UTC on the 10th is 23:30 on the 9th in Chicago.
    await env.DB.prepare("UPDATE devices SET last_seen_at = '2026-01-10T05:30:00.000Z' WHERE uid = ?").bind(uid).run();
    cookie = await sessionCookie(owner.email);
  });

  const get = (path: string) => request(path, { headers: { Cookie: cookie } });

  it("a radio's page shows the account's zone inside the account and UTC in the inventory, each named", async () => {
    const inAccount = await (await get(`/accounts/${accountId}/registry/devices/view/${uid}`)).text();
    expect(inAccount).toMatch(/Jan 9, 2026, 11:30\sPM CST/);
    const inventory = await (await get(`/devices/view/${uid}`)).text();
    expect(inventory).toMatch(/Jan 10, 2026, 5:30\sAM UTC/);
    const list = await (await get(`/accounts/${accountId}/registry/devices`)).text();
    expect(list).toMatch(/Jan 9, 2026, 11:30\sPM CST/);
  });

  it("the radios' CSV names the zone in the header and uses one stable format", async () => {
    const account = await (await get(`/accounts/${accountId}/registry/devices/export.csv`)).text();
    const [header = "", row = ""] = account.split(/\r?\n/);
    expect(header).toContain("lastSeen (America/Chicago)");
    expect(row).toContain("2026-01-09 23:30:00");
    const inventory = await (await get("/devices/export.csv")).text();
    expect(inventory.split(/\r?\n/)[0]).toContain("lastSeen (UTC)");
    expect(inventory).toContain("2026-01-10 05:30:00");
  });

  it("the confirm form takes its times on the account's wall clock and says which", async () => {
    const page = await (await get(`/accounts/${accountId}/confirm-deployment`)).text();
    expect(page).toContain("Start at (optional, Central Time – Chicago time)");
    expect(page).toContain("Switchover time (Central Time – Chicago time)");
    const answer = await postForm(
      `/accounts/${accountId}/confirm-deployment`,
      {
        planKind: "all",
        startAt: "2030-01-10T09:00",
        timeoutMinutes: "1440",
        switchover: "at",
        switchoverAt: "2030-01-10T10:30",
        note: "",
      },
      { Cookie: cookie },
    );
    expect(answer.status).toBe(303);
    const id = decodeURIComponent(answer.headers.get("location")?.split("/").pop()?.split("?")[0] ?? "");
    const got = await request(`/api/deployments.get?input=${encodeURIComponent(JSON.stringify({ id }))}`, {
      headers: { Cookie: cookie },
    });
    const { deployment } = (
      (await got.json()) as {
        result: { data: { deployment: { plan: { startAt: string }; switchover: { at: string } } } };
      }
    ).result.data;
    expect(deployment.plan.startAt).toBe("2030-01-10T15:00:00.000Z");
    expect(deployment.switchover.at).toBe("2030-01-10T16:30:00.000Z");
    const view = await (await get(`/accounts/${accountId}/deployments/${id}`)).text();
    expect(view).toMatch(/at Jan 10, 2030, 10:30\sAM CST/);
  });

  it("the simulator shows the switchover the radio receives in UTC, readably and named", async () => {
    // The deployment confirmed above starts in 2030; as if it had started, so the radio is told.
    await env.DB.prepare("UPDATE deployments SET state = 'running' WHERE account_id = ?").bind(accountId).run();
    const running = await (
      await postForm("/simulator", { uid, secret: RADIO_SECRET, step: "check-in" }, { Origin: ORIGIN })
    ).text();
    expect(running).toMatch(/It switches over at Jan 10, 2030, 4:30\sPM UTC\./);
    expect(running).not.toContain("2030-01-10T16:30:00.000Z</");
  });
});
