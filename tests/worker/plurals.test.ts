import { beforeAll, describe, expect, it } from "vitest";
import type { Language } from "@/schema/languages";
import { translatorFor } from "@/server/i18n/i18n";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { giveSeats, registerRadios } from "./fleet-fixtures";
import { ORIGIN, request } from "./helpers";

// Counts are said with i18next plurals (issue 23: "pause at 1 failures" in all four languages).

const errorCount: Record<Language, [one: string, two: string]> = {
  en: ["1 failure", "2 failures"],
  "es-MX": ["1 falla", "2 fallas"],
  "fr-CA": ["1 échec", "2 échecs"],
  "pt-BR": ["1 falha", "2 falhas"],
};

describe("the deployment page's error thresholds", () => {
  let cookie = "";
  let path = "";

  beforeAll(async () => {
    const owner = await createUser({ role: "owner" });
    const accountId = await createAccount(owner.orgId, "Plural fleet");
    await giveSeats(owner.orgId, accountId, 4);
    await registerRadios(owner.orgId, accountId, "PLURAL", 2);
    cookie = await sessionCookie(owner.email);
    const phase = { successPercent: 100, successAction: "next", errorKind: "count", errorMinimum: 0, waitMinutes: 0 };
    const plan = {
      phases: [
        { ...phase, share: 50, errorValue: 1 },
        { ...phase, share: 100, errorValue: 2 },
      ],
    };
    const response = await request("/api/deployments.create", {
      method: "POST",
      body: JSON.stringify({ accountId, plan }),
      headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: cookie },
    });
    const { result } = (await response.json()) as { result: { data: { id: string } } };
    path = `/accounts/${accountId}/deployments/${result.data.id}`;
  });

  it.each(Object.entries(errorCount))("says one failure and two failures in %s", async (language, [one, two]) => {
    const html = await (await request(path, { headers: { Cookie: `${cookie}; lang=${language}` } })).text();
    expect(html).toContain(`<html lang="${language}">`);
    expect(html).toContain(`${one};`);
    expect(html).toContain(`${two};`);
  });
});

// Every message that counts something, in every language: the form for 1 differs from the form
// for 2, and each says the number.
const counted: [key: string, values: (count: number) => Record<string, string | number>][] = [
  ["deployments.errorCount", (count) => ({ count, value: count })],
  ["deployments.errorPercent", (count) => ({ count, value: 20, minimum: count })],
  ["commands.bulk.selection", (count) => ({ count })],
  ["commands.bulk.sent", (count) => ({ count, queued: count })],
  ["commands.bulk.sentSkipped", (count) => ({ count, queued: count, skipped: 3 })],
  ["devices.bulk.assigned", (count) => ({ count })],
  ["devices.bulk.tagged", (count) => ({ count, tag: "x" })],
  ["devices.bulk.untagged", (count) => ({ count, tag: "x" })],
  ["devices.errors.notEnoughSeats", (count) => ({ count, needed: count, free: 0 })],
  ["devices.import.noSeats", (count) => ({ count, free: count })],
  ["devices.import.problemsTitle", (count) => ({ count })],
  ["devices.registry.allocation", (count) => ({ count, plan: "P", organization: "O", quantity: count })],
  ["subscriptions.errors.seatsInUse", (count) => ({ count, inUse: count })],
];

describe.each<Language>(["en", "es-MX", "fr-CA", "pt-BR"])("counted messages in %s", (language) => {
  const t = translatorFor(language, "northwind");
  it.each(counted)("%s has a singular and a plural", (key, values) => {
    const one = String(t(key, values(1)));
    const two = String(t(key, values(2)));
    expect(one).toContain("1");
    expect(two).toContain("2");
    expect(one).not.toBe(key);
    expect(two.replace("2", "1")).not.toBe(one);
  });
});
