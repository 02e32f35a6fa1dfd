import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { giveSeats, registerRadios } from "./fleet-fixtures";
import { ORIGIN, request } from "./helpers";

// Issue 24: the deployment page ships no React. Its actions are plain POST forms; while the
// deployment runs, its counts follow it through one plain script; once it is over, no script
// but the shell's.

const noIsland = /data-island="/;
const liveCountsScript = /<script type="module" src="[^"]*live-counts[^"]*"/;

describe("the deployment page's scripts", () => {
  let cookie = "";
  let id = "";
  let path = "";
  const call = async (procedure: string, input: unknown) => {
    const response = await request(`/api/${procedure}`, {
      method: "POST",
      body: JSON.stringify(input),
      headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: cookie },
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { result: { data: { id: string; state: string } } }).result.data;
  };
  const page = async () => {
    const response = await request(path, { headers: { Cookie: cookie } });
    expect(response.status).toBe(200);
    return response.text();
  };

  beforeAll(async () => {
    const owner = await createUser({ role: "owner" });
    const accountId = await createAccount(owner.orgId, "Script-free fleet");
    await giveSeats(owner.orgId, accountId, 3);
    await registerRadios(owner.orgId, accountId, "NOREACT", 3);
    cookie = await sessionCookie(owner.email);
    id = (await call("deployments.create", { accountId })).id;
    path = `/accounts/${accountId}/deployments/${id}`;
  });

  it("while running: plain forms for the actions, the counts in cells the live script fills, no island", async () => {
    const html = await page();
    expect(html).not.toMatch(noIsland);
    expect(html).toMatch(liveCountsScript);
    expect(html).toContain(`data-live-counts="${id}"`);
    expect(html).toMatch(/<td[^>]*data-count="total:pending"[^>]*>3<\/td>/);
    expect(html).toMatch(/<form action="[^"]*" method="post"><input type="hidden" name="do" value="pause"\/>/);
  });

  it("once finished: no script of its own, the counts still shown", async () => {
    expect((await call("deployments.act", { id, action: "advance" })).state).toBe("finished");
    const html = await page();
    expect(html).not.toMatch(noIsland);
    expect(html).not.toMatch(liveCountsScript);
    expect(html).not.toContain("data-live-counts=");
    expect(html).toMatch(/data-testid="deployment-live-state"[^>]*>[^<]*finished/);
    expect(html).toMatch(/<td[^>]*data-count="total:pending"[^>]*>3<\/td>/);
  });
});
