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

async function callsOf(path: string, cookie: string): Promise<Counted> {
  const counted: Counted = { calls: 0, statements: [] };
  const app = createApp();
  const response = await app.request(new Request(new URL(path, ORIGIN), { headers: { Cookie: cookie } }), undefined, {
    ...env,
    DB: counting(env.DB as D1Database, counted),
  });
  expect(response.status, path).toBe(200);
  await response.text();
  return counted;
}

let cookie: string;
let accountId: string;

beforeAll(async () => {
  const orgId = await createOrganization("Round trips dealer");
  accountId = await createAccount(orgId, "Round trips fleet");
  cookie = await sessionCookie((await createUser({ orgId, role: "owner" })).email);
});

/**
 * Today's counts; lower them when a page gets cheaper. Before this test (session and user
 * read apart, tenant checks walking the tree): 2, 2, 5, 15, 10, not measured, 7. Before the
 * per-request memo of tenant checks (src/server/data/request-memo.ts): 1, 1, 4, 12, 6, 6, 4.
 * Before reads asked side by side went as one batch (src/server/data/read-coalescing.ts) and
 * the shell's account and pending count were read beside the page's data: 1, 1, 3, 7, 4, 4, 3.
 * What is left on an account page: the session, then the account (its tenancy decides what
 * else may be read), then everything else at once.
 */
const budgets: [label: string, path: () => string, budget: number][] = [
  ["no-op (session only): /getting-started", () => "/getting-started", 1],
  ["welcome", () => "/welcome", 1],
  ["accounts list", () => "/accounts", 2],
  // Device counts and drift since the fleet half; the account itself is read once per request.
  ["account home", () => `/accounts/${accountId}`, 3],
  ["sites list", () => `/accounts/${accountId}/sites`, 3],
  ["activity log", () => `/accounts/${accountId}/activity-logs`, 3],
  ["a form page (add site)", () => `/accounts/${accountId}/sites/add`, 3],
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
