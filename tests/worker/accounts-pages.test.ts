import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { cookieFrom, postForm, request } from "./helpers";

// The accounts screens as a browser without JavaScript meets them (and as the islands post):
// the list through its URL, adding, the General and Network config tabs with their stale-edit
// and write-only rules, and who may open what.

let dealer: string;
let customer: string;
let otherTenant: string;
let owner: string;
let viewer: string;
let configurator: string;
let outsider: string;
let theirAccount: string;

function get(path: string, cookie: string, headers: Record<string, string> = {}) {
  return request(path, { headers: { Cookie: cookie, ...headers }, redirect: "manual" });
}

function post(path: string, cookie: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return postForm(path, fields, { Cookie: cookie, ...headers });
}

/** The opening tag of the input (or select, textarea) named `name`. */
function tagOf(html: string, name: string, element = "input"): string {
  return new RegExp(`<${element}[^>]*name="${name.replaceAll(".", "\\.")}"[^>]*>`).exec(html)?.[0] ?? "";
}

function inputValue(html: string, name: string): string | undefined {
  const value = /\svalue="([^"]*)"/.exec(tagOf(html, name))?.[1];
  return value?.replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

function selected(html: string, name: string): string | undefined {
  const pattern = new RegExp(`<select[^>]*name="${name.replaceAll(".", "\\.")}"[^>]*>([\\s\\S]*?)</select>`);
  const options = pattern.exec(html)?.[1] ?? "";
  return /<option[^>]*value="([^"]*)"[^>]*selected=""/.exec(options)?.[1];
}

/** The account names of the list's table, in order. */
function listedNames(html: string): string[] {
  return [...html.matchAll(/<a href="\/accounts\/acc_[^"]+"[^>]*>([^<]+)<\/a>/g)].map((m) => m[1] ?? "");
}

async function account(id: string) {
  return env.DB.prepare("SELECT name, subscription_level, timezone, version, network_config FROM accounts WHERE id = ?")
    .bind(id)
    .first<{ name: string; subscription_level: string; timezone: string; version: number; network_config: string }>();
}

beforeAll(async () => {
  dealer = await createOrganization("Harbor Dealer");
  customer = await createOrganization("Metro Customer", dealer);
  otherTenant = await createOrganization("Another Tenant");
  // 30 accounts across the tree: 26 with the dealer, 4 with its customer.
  for (let n = 1; n <= 30; n += 1) {
    await createAccount(
      n <= 26 ? dealer : customer,
      `Fleet ${String(n).padStart(2, "0")}`,
      n % 3 === 0 ? "advanced" : "essential",
    );
  }
  theirAccount = await createAccount(otherTenant, "Their Fleet");
  owner = await sessionCookie((await createUser({ orgId: dealer, role: "owner" })).email);
  viewer = await sessionCookie((await createUser({ orgId: dealer, role: "viewer" })).email);
  configurator = await sessionCookie((await createUser({ orgId: dealer, role: "configurator" })).email);
  outsider = await sessionCookie((await createUser({ orgId: otherTenant, role: "owner" })).email);
});

describe("/accounts", () => {
  it("asks a visitor without a session to sign in, at the same URL", async () => {
    const response = await request("/accounts?q=Fleet");
    expect(response.status).toBe(401);
    expect(await response.text()).toContain("<title>Sign in · Configuration Tool</title>");
  });

  it("lists the tree's accounts 25 to a page, by name, with a pager in the URL", async () => {
    const html = await (await get("/accounts", owner)).text();
    expect(html).toContain("30 accounts");
    const names = listedNames(html);
    expect(names).toHaveLength(25);
    expect(names.slice(0, 3)).toEqual(["Fleet 01", "Fleet 02", "Fleet 03"]);
    const next = html.match(/href="(\/accounts\?after=[\w-]+)" rel="next"/)?.[1];
    expect(next).toBeTruthy();
    expect(html).not.toContain('rel="prev"');
    expect(html).toContain('<span aria-disabled="true"');
    expect(html).not.toContain("Their Fleet");

    const second = await (await get(String(next), owner)).text();
    expect(listedNames(second)).toEqual(["Fleet 26", "Fleet 27", "Fleet 28", "Fleet 29", "Fleet 30"]);
    expect(second).not.toContain('rel="next"');
    const previous = second.match(/href="(\/accounts\?before=[\w-]+)" rel="prev"/)?.[1];
    expect(listedNames(await (await get(String(previous), owner)).text())).toEqual(names);
    // The accounts of the customer below the dealer show with their organization.
    expect(second).toContain("Metro Customer");
  });

  it("sorts through header links that say how they sort (aria-sort)", async () => {
    const html = await (await get("/accounts?sort=-name", owner)).text();
    expect(listedNames(html).slice(0, 2)).toEqual(["Fleet 30", "Fleet 29"]);
    expect(html).toMatch(/<th scope="col" aria-sort="descending"[^>]*><a href="\/accounts"/);
    const byLevel = await (await get("/accounts?sort=-level", owner)).text();
    // Advanced first; a descending sort is the exact reverse of the ascending one.
    expect(listedNames(byLevel)[0]).toBe("Fleet 30");
    expect(listedNames(await (await get("/accounts?sort=level", owner)).text())[0]).toBe("Fleet 01");
    // Last updated starts newest first.
    expect(html).toContain('href="/accounts?sort=-updated"');
  });

  it("searches by name and keeps the search in the pager and sort links", async () => {
    const html = await (await get("/accounts?q=fleet%202&sort=-name", owner)).text();
    expect(listedNames(html)).toEqual([
      "Fleet 29",
      "Fleet 28",
      "Fleet 27",
      "Fleet 26",
      "Fleet 25",
      "Fleet 24",
      "Fleet 23",
      "Fleet 22",
      "Fleet 21",
      "Fleet 20",
    ]);
    expect(html).toContain("10 accounts match “fleet 2”");
    expect(await (await get("/accounts?q=Fleet%2007", owner)).text()).toContain("1 account matches “Fleet 07”");
    expect(inputValue(html, "q")).toBe("fleet 2");
    expect(html).toContain('href="/accounts?q=fleet+2"');
    // LIKE wildcards typed by the user are plain characters.
    expect(listedNames(await (await get("/accounts?q=%25", owner)).text())).toEqual([]);
  });

  it("filters by an organization of the tree, and refuses one outside it (404)", async () => {
    const html = await (await get(`/accounts?org=${customer}`, owner)).text();
    expect(listedNames(html)).toEqual(["Fleet 27", "Fleet 28", "Fleet 29", "Fleet 30"]);
    expect(selected(html, "org")).toBe(customer);
    expect(html).toContain(">\u00a0\u00a0\u00a0Metro Customer</option>");
    expect((await get(`/accounts?org=${otherTenant}`, owner)).status).toBe(404);
  });

  it("treats a cursor that is not one of ours as the first page, and old page numbers too", async () => {
    for (const url of [
      "/accounts?after=%22%2A%20NEAR",
      "/accounts?before=eyJ4Ijox",
      "/accounts?page=9",
      `/accounts?after=${"A".repeat(5000)}`,
    ]) {
      const response = await get(url, owner);
      expect(response.status).toBe(200);
      expect(listedNames(await response.text()).slice(0, 2)).toEqual(["Fleet 01", "Fleet 02"]);
    }
  });

  it("answers any search, FTS syntax and Unicode included, without a server error", async () => {
    const hostile = [
      '"',
      '"fleet',
      "*",
      "fleet*",
      "NEAR(fleet 2)",
      "-fleet",
      "fleet OR 1",
      "a:b",
      "^x",
      "(",
      "\u0000",
      "ü".repeat(200),
      "🚒 fleet",
      "%_\\",
      "x".repeat(119),
    ];
    for (const q of hostile) {
      const response = await get(`/accounts?q=${encodeURIComponent(q)}`, owner);
      // Found, or refused as a bad search (too long, control characters): never a server error.
      expect([200, 400], q).toContain(response.status);
    }
    // A lone surrogate and a broken UTF-8 sequence, as raw bytes in the URL.
    for (const raw of ["%ED%A0%80", "%FF%FE", "%C3"])
      expect([200, 400], raw).toContain((await get(`/accounts?q=${raw}`, owner)).status);
    expect(listedNames(await (await get(`/accounts?q=${encodeURIComponent('"fleet 0"*')}`, owner)).text())).toHaveLength(9);
  });

  it("offers Add account only to those who may add", async () => {
    expect(await (await get("/accounts", owner)).text()).toContain('href="/accounts/add"');
    expect(await (await get("/accounts", viewer)).text()).not.toContain('href="/accounts/add"');
  });

  it("shows an empty state with an Add account button when there are none", async () => {
    const lonely = await createOrganization("Empty Org");
    const cookie = await sessionCookie((await createUser({ orgId: lonely, role: "admin" })).email);
    const html = await (await get("/accounts", cookie)).text();
    expect(html).toContain("No accounts yet");
    expect(html).toContain('href="/accounts/add"');
    expect(html).not.toContain("<table");
  });
});

describe("/accounts/add", () => {
  it("offers the time zones and the organizations of the tree, own organization first", async () => {
    const html = await (await get("/accounts/add", owner)).text();
    // Each zone by its localised name (issue 9, §4).
    expect(html).toContain('<option value="America/Chicago">Central Time – Chicago</option>');
    expect(html).toContain('<option value="Europe/Isle_of_Man">');
    const spanish = await (await get("/accounts/add", `${owner}; lang=pt-BR`)).text();
    expect(spanish).toContain('<option value="America/Chicago">Horário Central – Chicago</option>');
    expect(selected(html, "timezone")).toBe("UTC");
    expect(selected(html, "orgId")).toBe(dealer);
    expect(html).toContain(`<option value="${customer}">`);
    expect(html).not.toContain(otherTenant);
  });

  it("adds the account and goes to it with a flash", async () => {
    const response = await post("/accounts/add", owner, {
      name: "Harbor Ferries",
      subscriptionLevel: "advanced",
      timezone: "America/Chicago",
      orgId: customer,
    });
    expect(response.status).toBe(303);
    const location = response.headers.get("location") ?? "";
    expect(location).toMatch(/^\/accounts\/acc_[a-z0-9]+$/);
    expect(cookieFrom(response, "flash")).toContain("accounts.added");
    const row = await env.DB.prepare("SELECT org_id, subscription_level, timezone FROM accounts WHERE id = ?")
      .bind(location.split("/").at(-1))
      .first();
    expect(row).toEqual({ org_id: customer, subscription_level: "advanced", timezone: "America/Chicago" });
  });

  it("shows the form again with the errors and what was typed", async () => {
    const response = await post("/accounts/add", owner, {
      name: "   ",
      subscriptionLevel: "advanced",
      timezone: "Mars/Olympus",
      orgId: dealer,
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("Enter the account name.");
    expect(html).toContain("Choose a time zone from the list.");
    expect(selected(html, "subscriptionLevel")).toBe("advanced");
    expect(tagOf(html, "name")).toContain('aria-invalid="true"');
  });

  it("answers an island (Accept: application/json) with translated errors or the redirect", async () => {
    const bad = await post(
      "/accounts/add",
      owner,
      { name: "", subscriptionLevel: "essential", timezone: "UTC", orgId: dealer },
      { Accept: "application/json", Cookie: `${owner}; lang=fr-CA` },
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ ok: false, errors: { name: "Entrez le nom du compte." } });
    const good = await post(
      "/accounts/add",
      owner,
      { name: "Island Fleet", subscriptionLevel: "essential", timezone: "UTC", orgId: dealer },
      { Accept: "application/json" },
    );
    const reply = (await good.json()) as { ok: boolean; redirect: string };
    expect(reply.ok).toBe(true);
    expect(reply.redirect).toMatch(/^\/accounts\/acc_/);
    // The page the island goes to shows the flash, as after a plain post.
    expect(cookieFrom(good, "flash")).toContain("accounts.added");
  });

  it("refuses an organization outside the caller's tree", async () => {
    const response = await post("/accounts/add", owner, {
      name: "Sneaky",
      subscriptionLevel: "essential",
      timezone: "UTC",
      orgId: otherTenant,
    });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("We can&#x27;t find that organization.");
    expect(await env.DB.prepare("SELECT id FROM accounts WHERE name = 'Sneaky'").first()).toBeNull();
  });

  it("is protected from a viewer, page and form", async () => {
    const page = await get("/accounts/add", viewer);
    expect(page.status).toBe(403);
    expect(await page.text()).toContain("This route is protected.");
    const posted = await post("/accounts/add", viewer, {
      name: "Viewer Fleet",
      subscriptionLevel: "essential",
      timezone: "UTC",
      orgId: dealer,
    });
    expect(posted.status).toBe(403);
    expect(await env.DB.prepare("SELECT id FROM accounts WHERE name = 'Viewer Fleet'").first()).toBeNull();
  });
});

describe("/accounts/edit/:accountId", () => {
  it("redirects to the General tab", async () => {
    const id = await createAccount(dealer, "Redirected");
    const response = await get(`/accounts/edit/${id}`, owner);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/accounts/edit/${id}/general`);
  });

  it("shows the tabs the user may open, and Delete only with edit-accounts", async () => {
    const id = await createAccount(dealer, "Tabbed");
    const html = await (await get(`/accounts/edit/${id}/general`, owner)).text();
    expect(html).toContain(`href="/accounts/edit/${id}/general" aria-current="page"`);
    expect(html).toContain(`href="/accounts/edit/${id}/network"`);
    expect(html).toContain("Delete account");
    expect(inputValue(html, "name")).toBe("Tabbed");
    expect(inputValue(html, "version")).toBe("1");
    const forConfigurator = await (await get(`/accounts/edit/${id}/general`, configurator)).text();
    expect(forConfigurator).toContain("Save changes");
    expect(forConfigurator).not.toContain("Delete account");
  });

  it.each(["general", "network"])("protects %s from a viewer (403)", async (tab) => {
    const id = await createAccount(dealer, "Guarded");
    const page = await get(`/accounts/edit/${id}/${tab}`, viewer);
    expect(page.status).toBe(403);
    expect(await page.text()).toContain("This route is protected.");
    expect((await post(`/accounts/edit/${id}/${tab}`, viewer, { version: "1", name: "Nope" })).status).toBe(403);
    expect((await account(id))?.name).toBe("Guarded");
  });

  it.each(["general", "network"])("answers 404 for another tenant's account on %s", async (tab) => {
    expect((await get(`/accounts/edit/${theirAccount}/${tab}`, owner)).status).toBe(404);
    const posted = await post(`/accounts/edit/${theirAccount}/${tab}`, owner, {
      version: "1",
      name: "Hijacked",
      subscriptionLevel: "essential",
      timezone: "UTC",
    });
    expect(posted.status).toBe(404);
    expect((await account(theirAccount))?.name).toBe("Their Fleet");
    // And the outsider may open it.
    expect((await get(`/accounts/edit/${theirAccount}/${tab}`, outsider)).status).toBe(200);
  });
});

describe("General tab", () => {
  it("saves on the version it was typed on", async () => {
    const id = await createAccount(dealer, "Before");
    const response = await post(`/accounts/edit/${id}/general`, owner, {
      version: "1",
      name: "After",
      subscriptionLevel: "advanced",
      timezone: "Europe/Paris",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/accounts/edit/${id}/general`);
    expect(cookieFrom(response, "flash")).toContain("accounts.saved");
    expect(await account(id)).toMatchObject({
      name: "After",
      subscription_level: "advanced",
      timezone: "Europe/Paris",
      version: 2,
    });
  });

  it("refuses a stale save, keeps what was typed and offers the current version", async () => {
    const id = await createAccount(dealer, "Contested");
    await post(`/accounts/edit/${id}/general`, owner, {
      version: "1",
      name: "First Save",
      subscriptionLevel: "essential",
      timezone: "UTC",
    });
    const stale = await post(`/accounts/edit/${id}/general`, configurator, {
      version: "1",
      name: "Second Save",
      subscriptionLevel: "advanced",
      timezone: "Asia/Tokyo",
    });
    expect(stale.status).toBe(409);
    const html = await stale.text();
    expect(html).toContain("Someone else changed this while you were editing.");
    expect(html).toContain(`<a href="/accounts/edit/${id}/general" class="font-semibold underline">Load the current version`);
    expect(inputValue(html, "name")).toBe("Second Save");
    expect(selected(html, "timezone")).toBe("Asia/Tokyo");
    expect(selected(html, "subscriptionLevel")).toBe("advanced");
    expect(await account(id)).toMatchObject({ name: "First Save", version: 2 });

    const json = await post(
      `/accounts/edit/${id}/general`,
      configurator,
      { version: "1", name: "Third", subscriptionLevel: "essential", timezone: "UTC" },
      { Accept: "application/json" },
    );
    expect(json.status).toBe(409);
    expect(await json.json()).toMatchObject({
      ok: false,
      errors: {
        form: expect.stringContaining("Someone else changed this"),
        conflict: expect.stringContaining("Load the current version"),
      },
    });
  });

  it("shows field errors in the user's language", async () => {
    const id = await createAccount(dealer, "Spanish");
    const response = await post(`/accounts/edit/${id}/general`, `${owner}; lang=es-MX`, {
      version: "1",
      name: "x".repeat(121),
      subscriptionLevel: "essential",
      timezone: "UTC",
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('<html lang="es-MX">');
    expect(html).toMatch(/Usa como máximo 120 caracteres|120/);
  });

  it("deletes only when the typed name matches, then lists the accounts with a flash", async () => {
    const id = await createAccount(dealer, "Doomed Fleet");
    const wrong = await post(`/accounts/edit/${id}/general`, owner, {
      intent: "delete",
      version: "1",
      confirmName: "doomed fleet",
    });
    expect(wrong.status).toBe(422);
    const html = await wrong.text();
    expect(html).toContain("Type the account’s exact name to confirm.");
    expect(inputValue(html, "confirmName")).toBe("doomed fleet");
    // The General form still shows the stored values, not the delete form's.
    expect(inputValue(html, "name")).toBe("Doomed Fleet");

    const right = await post(`/accounts/edit/${id}/general`, owner, {
      intent: "delete",
      version: "1",
      confirmName: "Doomed Fleet",
    });
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe("/accounts");
    expect(cookieFrom(right, "flash")).toContain("accounts.deleted");
    expect(await account(id)).toBeNull();
  });

  it("does not let a configurator delete (edit-accounts)", async () => {
    const id = await createAccount(dealer, "Kept Fleet");
    const response = await post(`/accounts/edit/${id}/general`, configurator, {
      intent: "delete",
      version: "1",
      confirmName: "Kept Fleet",
    });
    expect(response.status).toBe(403);
    expect(await account(id)).not.toBeNull();
  });
});

describe("Network config tab", () => {
  const wifiRow = (n: number, fields: Record<string, string>) =>
    Object.fromEntries(Object.entries(fields).map(([key, value]) => [`wifi.${n}.${key}`, value]));

  it("shows the stored rows plus one empty row, with passphrases write-only", async () => {
    const id = await createAccount(dealer, "Networked");
    const saved = await post(`/accounts/edit/${id}/network`, owner, {
      version: "1",
      ...wifiRow(0, { id: "", ssid: "Depot", security: "wpa2-personal", passphrase: "depot-secret-1", priority: "5" }),
      ...wifiRow(1, { id: "", ssid: "Guest", security: "open", passphrase: "", priority: "" }),
      "lte.apn": "fleet.apn",
      "lte.username": "radio",
      "lte.password": "lte-secret-9",
      dnsServers: "1.1.1.1\n8.8.8.8",
      ntpServers: "pool.ntp.org",
      "endpoints.0.name": "Dispatch",
      "endpoints.0.url": "https://dispatch.example.com",
      "endpoints.1.name": "",
      "endpoints.1.url": "",
    });
    expect(saved.status).toBe(303);
    expect(cookieFrom(saved, "flash")).toContain("accounts.networkSaved");

    const html = await (await get(`/accounts/edit/${id}/network`, owner)).text();
    expect(html).not.toContain("depot-secret-1");
    expect(html).not.toContain("lte-secret-9");
    expect(inputValue(html, "wifi.0.ssid")).toBe("Depot");
    expect(inputValue(html, "wifi.0.passphrase") ?? "").toBe("");
    expect(html).toContain("Set — leave blank to keep it.");
    expect(selected(html, "wifi.1.security")).toBe("open");
    expect(inputValue(html, "wifi.2.ssid")).toBe(""); // the empty row
    expect(tagOf(html, "wifi.3.ssid")).toBe("");
    expect(inputValue(html, "lte.apn")).toBe("fleet.apn");
    expect(html).toMatch(/<textarea[^>]*name="dnsServers"[^>]*>1\.1\.1\.1\n8\.8\.8\.8<\/textarea>/);
    expect(inputValue(html, "endpoints.0.url")).toBe("https://dispatch.example.com");
    expect(inputValue(html, "version")).toBe("2");

    // Saving the form as shown (secrets blank) keeps the stored secrets.
    const wifiId = inputValue(html, "wifi.0.id") ?? "";
    const again = await post(`/accounts/edit/${id}/network`, owner, {
      version: "2",
      ...wifiRow(0, { id: wifiId, ssid: "Depot Yard", security: "wpa2-personal", passphrase: "", priority: "7" }),
      "lte.apn": "fleet.apn",
      "lte.username": "radio",
      "lte.password": "",
    });
    expect(again.status).toBe(303);
    const stored = JSON.parse((await account(id))?.network_config ?? "{}");
    expect(stored.wifi).toEqual([
      { id: wifiId, ssid: "Depot Yard", security: "wpa2-personal", passphrase: "depot-secret-1", priority: 7 },
    ]);
    expect(stored.lte.password).toBe("lte-secret-9");
    expect(stored.dnsServers).toBeUndefined();
  });

  it("adds another empty row without JavaScript and loses nothing typed", async () => {
    const id = await createAccount(dealer, "Growing");
    const response = await post(`/accounts/edit/${id}/network`, owner, {
      version: "1",
      intent: "addWifi",
      ...wifiRow(0, { id: "", ssid: "Typed SSID", security: "wpa3-personal", passphrase: "", priority: "3" }),
      dnsServers: "9.9.9.9",
      "endpoints.0.name": "Telemetry",
      "endpoints.0.url": "",
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(inputValue(html, "wifi.0.ssid")).toBe("Typed SSID");
    expect(selected(html, "wifi.0.security")).toBe("wpa3-personal");
    expect(inputValue(html, "wifi.0.priority")).toBe("3");
    expect(inputValue(html, "wifi.1.ssid")).toBe("");
    expect(html).toMatch(/name="dnsServers"[^>]*>9\.9\.9\.9</);
    expect(inputValue(html, "endpoints.0.name")).toBe("Telemetry");
    expect((await account(id))?.version).toBe(1); // nothing saved
  });

  it("removes a row marked Remove", async () => {
    const id = await createAccount(dealer, "Shrinking");
    await post(`/accounts/edit/${id}/network`, owner, {
      version: "1",
      ...wifiRow(0, { id: "", ssid: "Keep", security: "open", priority: "1" }),
      ...wifiRow(1, { id: "", ssid: "Drop", security: "open", priority: "2" }),
    });
    const html = await (await get(`/accounts/edit/${id}/network`, owner)).text();
    const response = await post(`/accounts/edit/${id}/network`, owner, {
      version: "2",
      ...wifiRow(0, { id: inputValue(html, "wifi.0.id") ?? "", ssid: "Keep", security: "open", priority: "1" }),
      ...wifiRow(1, { id: inputValue(html, "wifi.1.id") ?? "", ssid: "Drop", security: "open", priority: "2", remove: "on" }),
    });
    expect(response.status).toBe(303);
    const stored = JSON.parse((await account(id))?.network_config ?? "{}");
    expect(stored.wifi.map((w: { ssid: string }) => w.ssid)).toEqual(["Keep"]);
  });

  it("puts each schema error on its field, translated, and keeps the values", async () => {
    const id = await createAccount(dealer, "Invalid");
    const response = await post(`/accounts/edit/${id}/network`, `${owner}; lang=fr-CA`, {
      version: "1",
      ...wifiRow(0, { id: "", ssid: "New Network", security: "wpa2-personal", passphrase: "", priority: "120" }),
      dnsServers: "not a host!",
      "endpoints.0.name": "Dispatch",
      "endpoints.0.url": "dispatch",
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("Entrez une priorité de 0 à 99, en nombre entier.");
    expect(html).toContain("Entrez chaque serveur comme nom d’hôte ou adresse IP, un par ligne.");
    expect(html).toContain("Entrez une URL complète");
    expect(tagOf(html, "wifi.0.priority")).toContain('aria-invalid="true"');
    expect(tagOf(html, "dnsServers", "textarea")).toContain('aria-invalid="true"');
    expect(inputValue(html, "wifi.0.ssid")).toBe("New Network");
    expect((await account(id))?.version).toBe(1);
  });

  it("asks for a passphrase for a new WPA personal network, and a long enough one", async () => {
    const id = await createAccount(dealer, "Passphrases");
    const missing = await post(`/accounts/edit/${id}/network`, owner, {
      version: "1",
      ...wifiRow(0, { id: "", ssid: "Secure", security: "wpa2-personal", passphrase: "", priority: "1" }),
    });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("Enter the network&#x27;s passphrase.");
    const short = await post(`/accounts/edit/${id}/network`, owner, {
      version: "1",
      ...wifiRow(0, { id: "", ssid: "Secure", security: "wpa2-personal", passphrase: "short", priority: "1" }),
    });
    expect(await short.text()).toContain("A passphrase has at least 8 characters.");
  });

  it("refuses a stale save with the conflict message and the typed values", async () => {
    const id = await createAccount(dealer, "Raced");
    await post(`/accounts/edit/${id}/network`, owner, { version: "1", dnsServers: "1.1.1.1" });
    const stale = await post(`/accounts/edit/${id}/network`, owner, { version: "1", dnsServers: "8.8.4.4" });
    expect(stale.status).toBe(409);
    const html = await stale.text();
    expect(html).toContain("Someone else changed this while you were editing.");
    expect(html).toContain("Load the current version");
    expect(html).toMatch(/name="dnsServers"[^>]*>8\.8\.4\.4</);
  });
});

describe("organizations.list", () => {
  it("gives the caller's tree in reading order with depths", async () => {
    const response = await request("/api/organizations.list", { headers: { Cookie: owner } });
    const body = (await response.json()) as { result: { data: { id: string; depth: number }[] } };
    expect(body.result.data.map((o) => [o.id, o.depth])).toEqual([
      [dealer, 0],
      [customer, 1],
    ]);
  });
});
