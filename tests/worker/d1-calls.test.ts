import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "@/server/app";
import type { D1Database } from "@/server/cloudflare";
import { type Counted, counting } from "./d1-counting";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { ORIGIN } from "./helpers";

// How many D1 round trips the main pages make (DESIGN.md §8: the session and a page's data in
// as few calls as possible). Each statement run alone (first/all/run/raw) is one call; a
// db.batch of any length is one. The budgets are today's counts: a change that adds a round
// trip to one of these pages fails here, and should batch it instead or lower another.

async function visit(path: string, cookie: string): Promise<Counted & { response: Response }> {
  const counted: Counted = { calls: 0, statements: [] };
  const app = createApp();
  const response = await app.request(new Request(new URL(path, ORIGIN), { headers: { Cookie: cookie } }), undefined, {
    ...env,
    DB: counting(env.DB as D1Database, counted),
  });
  expect(response.status, path).toBe(200);
  await response.clone().text();
  return { ...counted, response };
}

const callsOf = (path: string, cookie: string) => visit(path, cookie);

/** The session hint a signed-in page leaves in the browser (src/server/auth/session-hint.ts). */
function hintOf(response: Response): string {
  const hint = response.headers.getSetCookie().find((line) => line.startsWith("__Host-who="));
  if (!hint) throw new Error("no session hint was set");
  return hint.split(";")[0] as string;
}

let session: string;
let cookie: string;
let accountId: string;

beforeAll(async () => {
  const orgId = await createOrganization("Round trips dealer");
  accountId = await createAccount(orgId, "Round trips fleet");
  session = await sessionCookie((await createUser({ orgId, role: "owner" })).email);
  // A browser that has shown a signed-in page before carries the hint along with the session.
  cookie = `${session}; ${hintOf((await visit("/welcome", session)).response)}`;
});

it("a browser without the session hint reads the session first, then the page's data, and gets the hint", async () => {
  const first = await visit("/accounts", session);
  expect(first.calls).toBe(2);
  expect(hintOf(first.response)).toMatch(/^__Host-who=/);
});

/**
 * Today's counts; lower them when a page gets cheaper. Before this test (session and user
 * read apart, tenant checks walking the tree): 2, 2, 5, 15, 10, not measured, 7. Before the
 * per-request memo of tenant checks (src/server/data/request-memo.ts): 1, 1, 4, 12, 6, 6, 4.
 * Before reads asked side by side went as one batch (src/server/data/read-coalescing.ts) and
 * the shell's account and pending count were read beside the page's data: 1, 1, 3, 7, 4, 4, 3.
 * Before the session and a page's first reads went together on the session hint: 1, 1, 2, 3, 3, 3, 3.
 * What is left on an account page: the session with the account (its tenancy decides what else
 * may be read), then everything else at once.
 */
const budgets: [label: string, path: () => string, budget: number][] = [
  ["no-op (session only): /getting-started", () => "/getting-started", 1],
  ["welcome", () => "/welcome", 1],
  // The session and the page's data in one batch, the page begun on the session hint.
  ["accounts list", () => "/accounts", 1],
  // Device counts and drift since the fleet half; the account itself is read once per request.
  ["account home", () => `/accounts/${accountId}`, 2],
  ["sites list", () => `/accounts/${accountId}/sites`, 2],
  ["activity log", () => `/accounts/${accountId}/activity-logs`, 2],
  ["a form page (add site)", () => `/accounts/${accountId}/sites/add`, 2],
];

describe("D1 round trips per page", () => {
  for (const [label, path, budget] of budgets) {
    it(`${label}: at most ${budget}`, async () => {
      const counted = await callsOf(path(), cookie);
      console.log(`${label.padEnd(40)} ${counted.calls} calls\n  ${counted.statements.join("\n  ")}`);
      expect(counted.calls).toBeLessThanOrEqual(budget);
    });
  }
});
