import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { languages } from "@/schema/languages";
import { insertDelivery, insertWebhook } from "@/server/data/notifications";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { giveSeats, registerRadios } from "./fleet-fixtures";
import { ORIGIN, request } from "./helpers";

// Nothing is translated twice (issue 23: "i18n: missing key" in the log): the main pages render
// in every language without asking i18next for a key it does not have, and a refusal that
// carries values reaches an island's JSON answer translated once.

let owner = "";
let accountId = "";
let orgId = "";
let webhookId = "";

beforeAll(async () => {
  const user = await createUser({ role: "owner" });
  orgId = user.orgId;
  accountId = await createAccount(orgId, "Keys fleet", "advanced");
  await giveSeats(orgId, accountId, 3);
  await registerRadios(orgId, accountId, "KEYS", 2);
  owner = await sessionCookie(user.email);
  // A disabled webhook with a failed delivery: every part of the webhook screens renders.
  webhookId = await insertWebhook(env.DB, {
    orgId,
    url: "https://hooks.example.com/keys",
    events: ["deployment.paused"],
    secret: "whsec_keys",
  });
  await insertDelivery(env.DB, webhookId, "deployment.paused", "{}");
  await env.DB.prepare("UPDATE webhooks SET enabled = 0, disabled_at = '2026-11-20T10:00:00.000Z' WHERE id = ?")
    .bind(webhookId)
    .run();
});

afterEach(() => vi.restoreAllMocks());

const missingKeys = (warn: { mock: { calls: unknown[][] } }) =>
  warn.mock.calls.map((call) => String(call[0])).filter((line) => line.includes("i18n: missing key"));

const account = (path: string) => `/accounts/${accountId}${path}`;
const pages = () => [
  "/welcome",
  "/accounts",
  "/devices",
  "/security",
  "/settings/organizations",
  "/settings/users",
  `/settings/organizations/webhooks/${orgId}`,
  `/settings/organizations/webhooks/${orgId}/deliveries/${webhookId}`,
  `/settings/organizations/webhooks/${orgId}/delete/${webhookId}`,
  account("/notifications"),
  account(""),
  account("/sites"),
  account("/locations"),
  account("/profiles"),
  account("/rules"),
  account("/registry/devices"),
  account("/registry/subscriptions"),
  account("/deployments"),
  account("/confirm-deployment"),
  account("/changes"),
  account("/activity-logs"),
  account("/reports"),
  account("/fc-cases/fc-dashboard"),
];

describe("translations asked for once", () => {
  it.each(languages)("renders the main pages in %s without a missing key", async (language) => {
    const warn = vi.spyOn(console, "warn");
    for (const path of pages()) {
      const response = await request(path, { headers: { Cookie: `${owner}; lang=${language}` } });
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toContain(`<html lang="${language}">`);
    }
    expect(missingKeys(warn)).toEqual([]);
  });

  it("answers an island's post refused with values in words, translated once", async () => {
    const allocation = await env.DB.prepare("SELECT id, version FROM allocations WHERE account_id = ?")
      .bind(accountId)
      .first<{ id: string; version: number }>();
    const warn = vi.spyOn(console, "warn");
    const response = await request(account(`/registry/subscriptions/editAllocation/${allocation?.id}`), {
      method: "POST",
      body: new URLSearchParams({ version: String(allocation?.version), quantity: "1" }),
      headers: {
        Origin: ORIGIN,
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
        Cookie: `${owner}; lang=fr-CA`,
      },
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { ok: boolean; errors: Record<string, string> };
    expect(Object.values(body.errors)).toContain(
      "Les radios de ce compte utilisent 2 sièges. Retirez d’abord des radios, puis reprenez les sièges.",
    );
    expect(missingKeys(warn)).toEqual([]);
  });
});
