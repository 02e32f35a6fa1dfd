import { afterEach, describe, expect, it, vi } from "vitest";
import { languages } from "@/schema/languages";
import { integratorProcedures } from "@/server/api/integrator-procedures";
import { createUser, sessionCookie } from "./fixtures";
import { request } from "./helpers";

// The API reference (issue 27): public, rendered from the committed OpenAPI document, in four
// languages, every procedure on its group's page with its input and a curl example.

afterEach(() => vi.restoreAllMocks());

const missingKeys = (warn: { mock: { calls: unknown[][] } }) =>
  warn.mock.calls.map((call) => String(call[0])).filter((line) => line.includes("i18n: missing key"));

const groups = [...new Set([...integratorProcedures].map((path) => path.split(".")[0] ?? ""))];

async function page(path: string, cookie = "") {
  const response = await request(path, cookie ? { headers: { Cookie: cookie } } : {});
  return { status: response.status, html: await response.text() };
}

/** The text of an HTML fragment as a reader gets it (entities decoded where curl examples use them). */
const decoded = (html: string) =>
  html
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&amp;", "&")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">");

describe("/docs/api", () => {
  it.each(languages)("renders for someone signed out in %s, without a missing key", async (language) => {
    const warn = vi.spyOn(console, "warn");
    const overview = await page("/docs/api", `lang=${language}`);
    expect(overview.status).toBe(200);
    expect(overview.html).toContain(`<html lang="${language}">`);
    for (const group of groups) {
      const { status, html } = await page(`/docs/api/${group}`, `lang=${language}`);
      expect(status, group).toBe(200);
      expect(html).toContain(`<html lang="${language}">`);
    }
    expect(missingKeys(warn)).toEqual([]);
  });

  it("speaks the reader's language", async () => {
    const titles = await Promise.all(
      languages.map(async (language) => /<h1[^>]*>([^<]+)<\/h1>/.exec((await page("/docs/api", `lang=${language}`)).html)?.[1]),
    );
    expect(new Set(titles).size).toBe(languages.length);
  });

  it("says how to get a token and send it, links the document, the token page and every group", async () => {
    const { html } = await page("/docs/api");
    expect(html).toContain('href="/settings/api-tokens"');
    expect(html).toContain('href="/api/openapi.json"');
    expect(decoded(html)).toContain('-H "Authorization: Bearer $TOKEN"');
    expect(html).toContain("Retry-After");
    // The story of the issue, step by step: radios from a CSV, a group, a phased rollout, its result.
    for (const step of [
      "devices.importCsv",
      "radioGroups.create",
      "deployments.create",
      "deployments.get",
      "deployments.radios",
    ]) {
      expect(decoded(html), step).toContain(`'http://config.test/api/${step}'`);
    }
    // The lists that page, with the field their cursor goes in.
    expect(html).toMatch(/href="\/docs\/api\/devices#devices.list"[^>]*>devices.list<\/a> <code[^>]*>cursor</);
    for (const code of [
      "BAD_REQUEST",
      "UNAUTHORIZED",
      "FORBIDDEN",
      "NOT_FOUND",
      "CONFLICT",
      "PRECONDITION_FAILED",
      "TOO_MANY_REQUESTS",
    ]) {
      expect(html).toContain(code);
    }
    for (const group of groups) expect(html, group).toContain(`href="/docs/api/${group}"`);
    // The CSV downloads, with their own curl.
    expect(html).toContain("/accounts/{accountId}/registry/devices/export.csv");
    expect(decoded(html)).toContain(
      "curl -o 'radios.csv' 'http://config.test/accounts/acc_metro_bus/registry/devices/export.csv?site=site_mta_north'",
    );
  });

  it("lists every procedure on its group's page: method, path, permission, input fields and curl", async () => {
    for (const path of integratorProcedures) {
      const [group = ""] = path.split(".");
      const html = decoded((await page(`/docs/api/${group}`)).html);
      expect(html, path).toContain(`id="${path}"`);
      expect(html, path).toContain(`/api/${path}`);
    }
    const devices = decoded((await page("/docs/api/devices")).html);
    // A query: GET with its input URL-encoded by curl.
    expect(devices).toContain("curl --get 'http://config.test/api/devices.list'");
    expect(devices).toContain(`--data-urlencode 'input={"accountId":"acc_metro_bus"}'`);
    // A mutation: POST with a JSON body, its fields and the permission it needs.
    expect(devices).toContain("curl 'http://config.test/api/devices.importCsv'");
    expect(devices).toContain("-H 'Content-Type: application/json'");
    expect(devices).toContain("manage-devices");
    expect(devices).toMatch(/>csv<\/code> <code[^>]*>string<\/code> <span[^>]*>required</);
    expect(devices).toMatch(/>dryRun<\/code> <code[^>]*>boolean<\/code> <span[^>]*>optional</);
    // Nested objects read as dotted names; a union of objects by what tells its variants apart.
    const deployments = decoded((await page("/docs/api/deployments")).html);
    expect(deployments).toContain(">plan.phases[].share<");
    const profiles = decoded((await page("/docs/api/profiles")).html);
    expect(profiles).toContain('When type = "buttons":');
  });

  it("answers 404 for a group that does not exist", async () => {
    expect((await page("/docs/api/users")).status).toBe(404);
    expect((await page("/docs/api/nothing")).status).toBe(404);
  });

  it("is linked from the footer, signed in or not", async () => {
    const user = await createUser({ role: "viewer" });
    const cookie = await sessionCookie(user.email);
    for (const html of [(await page("/sign-in")).html, (await page("/accounts", cookie)).html]) {
      expect(html).toMatch(/<footer[\s\S]*href="\/docs\/api"/);
    }
    const signedIn = await page("/docs/api/devices", cookie);
    expect(signedIn.status).toBe(200);
  });
});
