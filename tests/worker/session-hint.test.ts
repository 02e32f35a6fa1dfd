import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "@/server/app";
import type { D1Database } from "@/server/cloudflare";
import { refusingWrites, WriteBeforeSession } from "@/server/data/refusing-writes";
import { type Counted, counting } from "./d1-counting";
import { createAccount, createOrganization, createUser, PASSWORD, sessionCookie } from "./fixtures";
import { cookieFrom, ORIGIN, postForm, request } from "./helpers";

// A signed-in page starts loading as the person the session hint names, in the same D1 round
// trip as the session read (src/server/middleware/session.ts). The session decides: a wrong,
// forged, stale or orphaned hint must never show anyone else's data, grant a permission, or
// outlive a sign-out; it only costs that page a second load.

const HINT = "__Host-who";
const hintCookie = (user: { id: string; orgId: string }, role: string, language = "") =>
  `${HINT}=${encodeURIComponent([user.id, user.orgId, role, language].join(" "))}`;

let ours: { id: string; email: string; orgId: string };
let theirs: { id: string; email: string; orgId: string };
let session: string;

beforeAll(async () => {
  const ourOrg = await createOrganization("Hinted dealer");
  await createAccount(ourOrg, "Our own fleet");
  ours = await createUser({ orgId: ourOrg, role: "viewer" });
  const theirOrg = await createOrganization("Other dealer");
  await createAccount(theirOrg, "Their secret fleet");
  theirs = await createUser({ orgId: theirOrg, role: "owner" });
  session = await sessionCookie(ours.email);
});

async function page(path: string, cookie: string, counted?: Counted) {
  const bindings = counted ? { ...env, DB: counting(env.DB as D1Database, counted) } : env;
  const response = await createApp().request(
    new Request(new URL(path, ORIGIN), { headers: { Cookie: cookie } }),
    undefined,
    bindings,
  );
  return { response, html: await response.text() };
}

describe("the session hint", () => {
  it("is left by signing in, so the first page already reads beside the session", async () => {
    const response = await request("/api/sign-in", {
      method: "POST",
      body: JSON.stringify({ username: ours.email, password: PASSWORD }),
      headers: { Origin: ORIGIN, "Content-Type": "application/json" },
    });
    expect(cookieFrom(response, HINT)).toBe(encodeURIComponent(`${ours.id} ${ours.orgId} viewer `));
  });

  it("is left by a signed-in page and names the session's person", async () => {
    const { response } = await page("/accounts", session);
    expect(cookieFrom(response, HINT)).toBe(encodeURIComponent(`${ours.id} ${ours.orgId} viewer `));
    expect(response.headers.getSetCookie().find((line) => line.startsWith(`${HINT}=`))).toMatch(
      /HttpOnly.*Secure|Secure.*HttpOnly/,
    );
  });

  it("naming another organisation's owner shows only the session's own accounts, and is corrected", async () => {
    const counted: Counted = { calls: 0, statements: [] };
    const { response, html } = await page("/accounts", `${session}; ${hintCookie(theirs, "owner")}`, counted);
    expect(response.status).toBe(200);
    expect(html).toContain("Our own fleet");
    expect(html).not.toContain("Their secret fleet");
    expect(cookieFrom(response, HINT)).toBe(encodeURIComponent(`${ours.id} ${ours.orgId} viewer `));
    // The guess cost one more round trip, no more.
    expect(counted.calls).toBe(2);
  });

  it("claiming a higher role grants nothing: the page the session may not see stays refused", async () => {
    const { response, html } = await page("/settings/users", `${session}; ${hintCookie(ours, "owner")}`);
    expect(response.status).toBe(403);
    expect(html).toContain("This route is protected.");
    expect(html).not.toContain('href="/settings/users/invite"');
  });

  it("without a session shows the sign-in form and is removed", async () => {
    const { response, html } = await page("/accounts", hintCookie(ours, "viewer"));
    expect(response.status).toBe(401);
    expect(html).not.toContain("Our own fleet");
    expect(response.headers.getSetCookie().some((line) => line.startsWith(`${HINT}=;`) && /Max-Age=0/.test(line))).toBe(true);
  });

  it("beside an idle session ends that session and shows the sign-in form", async () => {
    const other = await createUser({ orgId: ours.orgId, role: "viewer" });
    const idle = await sessionCookie(other.email);
    await env.DB.prepare("UPDATE sessions SET last_seen_at = ? WHERE user_id = ?")
      .bind(new Date(Date.now() - 16 * 60_000).toISOString(), other.id)
      .run();
    const { response, html } = await page("/accounts", `${idle}; ${hintCookie(other, "viewer")}`);
    expect(response.status).toBe(401);
    expect(html).not.toContain("Our own fleet");
    const left = await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?")
      .bind(other.id)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });

  it("with a stale language shows the page in the person's saved language", async () => {
    const spanish = await createUser({ orgId: ours.orgId, role: "viewer" });
    await env.DB.prepare("UPDATE users SET language = 'es-MX' WHERE id = ?").bind(spanish.id).run();
    const cookie = await sessionCookie(spanish.email);
    const { html, response } = await page("/accounts", `${cookie}; ${hintCookie(spanish, "viewer", "fr-CA")}`);
    expect(html).toMatch(/<html[^>]* lang="es-MX"/);
    expect(cookieFrom(response, HINT)).toBe(encodeURIComponent(`${spanish.id} ${spanish.orgId} viewer es-MX`));
  });

  it("that is garbage is ignored: the page is read as without one", async () => {
    for (const garbage of ["x", "a b c d e", "a b emperor ", `${"z".repeat(300)} b owner `, "a b owner xx-XX"]) {
      const { response, html } = await page("/accounts", `${session}; ${HINT}=${encodeURIComponent(garbage)}`);
      expect(response.status, garbage).toBe(200);
      expect(html).toContain("Our own fleet");
    }
  });

  it("is removed by signing out", async () => {
    const other = await createUser({ orgId: ours.orgId, role: "viewer" });
    const cookie = `${await sessionCookie(other.email)}; ${hintCookie(other, "viewer")}`;
    const response = await postForm("/sign-out", {}, { Cookie: cookie });
    expect(response.headers.getSetCookie().some((line) => line.startsWith(`${HINT}=;`))).toBe(true);
  });

  it("is not used outside signed-in pages: an API call reads the session first", async () => {
    const response = await request("/api/auth.me", { headers: { Cookie: `${session}; ${hintCookie(theirs, "owner")}` } });
    const body = await response.text();
    expect(body).not.toContain(theirs.orgId);
  });
});

describe("work begun on the hint", () => {
  it("may read but not write, and each refusal is heard however the work handles the error", async () => {
    let refusals = 0;
    const db = refusingWrites(env.DB as D1Database, () => {
      refusals += 1;
    });
    expect(await db.prepare("SELECT 1 AS one").first("one")).toBe(1);
    expect(await db.prepare("SELECT 'update' AS action").first("action")).toBe("update");
    const writes = [
      "INSERT INTO sessions (id) VALUES ('x')",
      "update users set name = 'x'",
      "DELETE FROM accounts",
      "REPLACE INTO t VALUES (1)",
    ];
    for (const write of writes) {
      expect(() => db.prepare(write)).toThrow(WriteBeforeSession);
    }
    expect(refusals).toBe(writes.length);
  });
});
