import { beforeAll, describe, expect, it } from "vitest";
import { indexForKey, TYPE_AHEAD_RESET_MS, TypeAhead, typeAheadIndex } from "@/islands/runtime/menu-keys";
import {
  MAX_RECENT_ACCOUNTS,
  parseRecentAccounts,
  type RecentAccount,
  readRecentAccounts,
  recentAccountsKey,
  recordRecentAccount,
  withRecentAccount,
} from "@/islands/runtime/recent-accounts";
import type { PermissionMap } from "@/schema/permissions";
import { permissionsOf, type Role } from "@/server/auth/roles";
import { accountIdInPath } from "@/server/current-account";
import { accountNavItems, accountSectionOf } from "@/ui/shell/account-navigation";
import { profileMenuLinks } from "@/ui/shell/profile-menu-items";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { request } from "./helpers";

// The signed-in shell: the account sidebar per role and subscription level, the profile
// menu's links per role and account context, the account home page and its tenant check,
// the header's account switcher props, and the pure rules of recent accounts and menus.

function get(path: string, cookie?: string) {
  return request(path, { headers: cookie ? { Cookie: cookie } : {} });
}

/** The sections of the sidebar, each with the path it opens (relative to the account). */
/** Every product area built, to test who sees what once the screens exist. */
const allBuilt = { devices: true, reports: true, deployments: true, commands: true };

function sidebar(
  role: Role | PermissionMap,
  level: "essential" | "advanced" = "essential",
  path = "/accounts/acc_1",
  areas: Record<keyof typeof allBuilt, boolean> = allBuilt,
) {
  const permissions = typeof role === "string" ? permissionsOf(role) : role;
  return accountNavItems(permissions, { id: "acc_1", subscriptionLevel: level }, path, areas).map(
    (item) => `${item.section}:${item.href.replace("/accounts/acc_1", "") || "/"}`,
  );
}

const unescapeAttribute = (raw: string) =>
  raw.replace(/&(quot|amp|lt|gt|#x27);/g, (_, e: string) => ({ quot: '"', amp: "&", lt: "<", gt: ">", "#x27": "'" })[e] ?? "");

/** The header's account switcher as the server rendered it: its data and its link. */
function switcherOf(html: string): { current: unknown; userId: string; messages: Record<string, string>; link: string } {
  const match =
    /<div class="relative" data-switcher="" data-user-id="([^"]*)"(?: data-current="([^"]*)")? data-messages="([^"]*)">(<a .*?<\/a>)<\/div>/s.exec(
      html,
    );
  if (!match) return { current: undefined, userId: "", messages: {}, link: "" };
  return {
    userId: match[1] ?? "",
    current: match[2] ? JSON.parse(unescapeAttribute(match[2])) : null,
    messages: JSON.parse(unescapeAttribute(match[3] ?? "{}")),
    link: match[4] ?? "",
  };
}

/** The profile menu as the server rendered it: a disclosure the shell script enhances. */
function profileMenuOf(html: string): string {
  return /<details class="relative" data-menu="">.*?<\/details>/s.exec(html)?.[0] ?? "";
}

/** The hrefs of the account sidebar as the server rendered it. */
function sidebarLinks(html: string): string[] {
  const nav = /<nav aria-label="Account sections".*?<\/nav>/s.exec(html)?.[0] ?? "";
  return [...nav.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1] ?? "");
}

/** The hrefs of the profile menu as the server rendered it (the no-JavaScript disclosure). */
function profileMenuHrefs(html: string): string[] {
  return [...profileMenuOf(html).matchAll(/<a href="([^"]+)"/g)].map((m) => m[1] ?? "");
}

describe("account sidebar", () => {
  const everything = ["home:/", "sites:/sites", "locations:/locations", "profiles:/profiles", "rules:/rules"];

  it.each<[Role, string[]]>([
    [
      "owner",
      [
        ...everything,
        "registry:/registry/devices",
        "deployments:/deployments",
        "fcCases:/fc-cases/fc-dashboard",
        "activityLogs:/activity-logs",
        "reports:/reports",
      ],
    ],
    [
      "admin",
      [
        ...everything,
        "registry:/registry/devices",
        "deployments:/deployments",
        "fcCases:/fc-cases/fc-dashboard",
        "activityLogs:/activity-logs",
        "reports:/reports",
      ],
    ],
    [
      "configurator",
      [
        ...everything,
        "registry:/registry/devices",
        "deployments:/deployments",
        "activityLogs:/activity-logs",
        "reports:/reports",
      ],
    ],
    [
      "technician",
      ["home:/", "registry:/registry/devices", "deployments:/deployments", "activityLogs:/activity-logs", "reports:/reports"],
    ],
    [
      "viewer",
      ["home:/", "registry:/registry/devices", "deployments:/deployments", "activityLogs:/activity-logs", "reports:/reports"],
    ],
    ["case-agent", ["home:/", "deployments:/deployments", "fcCases:/fc-cases/fc-dashboard", "activityLogs:/activity-logs"]],
  ])("a %s sees %j", (role, expected) => {
    expect(sidebar(role, "essential")).toEqual(expected);
    expect(sidebar(role, "advanced")).toEqual(expected);
  });

  it("opens Inventory on subscriptions without the devices flag, and hides it without both", () => {
    expect(sidebar({ "view-subscriptions-in-accounts": true })).toEqual([
      "home:/",
      "registry:/registry/subscriptions",
      "deployments:/deployments",
      "activityLogs:/activity-logs",
    ]);
    expect(sidebar({ "view-devices-in-accounts": true, "view-subscriptions-in-accounts": true })).toContain(
      "registry:/registry/devices",
    );
    expect(sidebar({})).toEqual(["home:/", "deployments:/deployments", "activityLogs:/activity-logs"]);
  });

  it("opens Customer care on the first fc tab the flags allow (spec §6)", () => {
    expect(sidebar({ "view-fc-users": true })).toContain("fcCases:/fc-cases/list-fc-customers");
    expect(sidebar({ "view-all-users": true })).toContain("fcCases:/fc-cases/fc-settings");
  });

  it("shows no Inventory, Deployments or Reports while their screens do not exist", () => {
    const none = { devices: false, reports: false, deployments: false, commands: false };
    expect(sidebar("owner", "advanced", "/accounts/acc_1", none)).toEqual([
      ...everything,
      "fcCases:/fc-cases/fc-dashboard",
      "activityLogs:/activity-logs",
    ]);
    expect(sidebar("viewer", "advanced", "/accounts/acc_1", none)).toEqual(["home:/", "activityLogs:/activity-logs"]);
  });

  it("shows Reports by the flag for the account's subscription level", () => {
    const advancedOnly: PermissionMap = { "view-reports-in-advanced-accounts": true };
    const otherOnly: PermissionMap = { "view-reports-in-non-advanced-accounts": true };
    expect(sidebar(advancedOnly, "advanced")).toContain("reports:/reports");
    expect(sidebar(advancedOnly, "essential")).not.toContain("reports:/reports");
    expect(sidebar(otherOnly, "essential")).toContain("reports:/reports");
    expect(sidebar(otherOnly, "advanced")).not.toContain("reports:/reports");
  });

  it("marks the section of the current path, and nothing for a path elsewhere", () => {
    const current = (path: string) =>
      accountNavItems(permissionsOf("owner"), { id: "acc_1", subscriptionLevel: "advanced" }, path, allBuilt)
        .filter((item) => item.current)
        .map((item) => item.section);
    expect(current("/accounts/acc_1")).toEqual(["home"]);
    expect(current("/accounts/acc_1/")).toEqual(["home"]);
    expect(current("/accounts/acc_1/sites/site_9/locations")).toEqual(["sites"]);
    expect(current("/accounts/acc_1/registry/subscriptions")).toEqual(["registry"]);
    expect(current("/accounts/acc_1/activity-logs")).toEqual(["activityLogs"]);
    expect(current("/accounts/acc_1/deployments/dep_1")).toEqual(["deployments"]);
    expect(current("/accounts/acc_1/fc-cases/list-fc-sessions/fcs_1")).toEqual(["fcCases"]);
    expect(current("/accounts/acc_10")).toEqual([]);
    expect(current("/accounts/edit/acc_1")).toEqual([]);
    expect(accountSectionOf("/accounts/acc_1/changes", "acc_1")).toBeNull();
  });
});

describe("profile menu links", () => {
  const ids = (role: Role, accountId: string | null) =>
    profileMenuLinks({ permissions: permissionsOf(role) }, accountId, allBuilt).map((link) => link.href);

  it("offers account settings only with an account in context and edit-accounts", () => {
    expect(ids("owner", null)).toEqual(["/settings/organizations", "/devices"]);
    expect(ids("owner", "acc_1")).toEqual(["/accounts/edit/acc_1", "/settings/organizations", "/devices"]);
    expect(ids("admin", "acc_1")).toEqual(["/accounts/edit/acc_1", "/settings/organizations", "/devices"]);
    expect(ids("configurator", "acc_1")).toEqual(["/devices"]);
    expect(ids("technician", "acc_1")).toEqual(["/devices"]);
    expect(ids("viewer", "acc_1")).toEqual([]);
    expect(ids("case-agent", "acc_1")).toEqual([]);
    expect(profileMenuLinks(null, "acc_1")).toEqual([]);
  });

  it("offers no Manage devices while /devices does not exist", () => {
    const none = { devices: false, reports: false, deployments: false, commands: false };
    expect(profileMenuLinks({ permissions: permissionsOf("owner") }, null, none).map((link) => link.href)).toEqual([
      "/settings/organizations",
    ]);
  });
});

describe("the account in a path", () => {
  it.each([
    ["/accounts/acc_1", "acc_1"],
    ["/accounts/acc_1/sites/s1", "acc_1"],
    ["/accounts/edit/acc_1", "acc_1"],
    ["/accounts/edit/acc_1/network", "acc_1"],
    ["/accounts/a%20b", "a b"],
    ["/accounts", null],
    ["/accounts/", null],
    ["/accounts/add", null],
    ["/accounts/edit", null],
    ["/welcome", null],
    ["/accounts/%E0%A4%A", null],
  ])("%s → %s", (path, expected) => {
    expect(accountIdInPath(path)).toBe(expected);
  });
});

describe("pages", () => {
  let orgId: string;
  let busId: string;
  let railId: string;
  let foreignId: string;
  const cookies: Partial<Record<Role, string>> = {};

  beforeAll(async () => {
    orgId = await createOrganization("Harbor");
    const customer = await createOrganization("Metro", orgId);
    busId = await createAccount(customer, "Metro Bus Operations", "advanced");
    railId = await createAccount(orgId, "Rail & <Yard>", "essential");
    foreignId = await createAccount(await createOrganization("Elsewhere"), "Not Yours", "advanced");
    for (const role of ["owner", "viewer", "technician", "case-agent"] as const) {
      const user = await createUser({ role, orgId });
      cookies[role] = await sessionCookie(user.email);
    }
  });

  it("shows an account's home in the layout: name, level, time zone, the sidebar with Home current", async () => {
    const response = await get(`/accounts/${busId}`, cookies.owner);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<title>Account home · Configuration Tool</title>");
    expect(html).toContain("Metro Bus Operations");
    expect(html).toContain("Advanced");
    expect(html).toContain("UTC");
    expect(html).toContain("Configured in this account");
    expect(html).toMatch(new RegExp(`<a href="/accounts/${busId}" aria-current="page"[^>]*>Home</a>`));
    for (const section of ["sites", "locations", "profiles", "rules", "activity-logs"]) {
      expect(html).toContain(`href="/accounts/${busId}/${section}"`);
    }
    expect(html).toContain(`href="/accounts/${busId}/registry/devices"`);
    // Reports exist (issue 14): the owner holds the advanced account's flag.
    expect(html).toContain(`href="/accounts/${busId}/reports"`);
  });

  it("shows the sidebar a viewer may use, and Reports by the account's level", async () => {
    const html = await (await get(`/accounts/${railId}`, cookies["case-agent"])).text();
    expect(html).not.toContain(`href="/accounts/${railId}/sites"`);
    expect(html).not.toContain(`href="/accounts/${railId}/registry`);
    expect(html).not.toContain(`href="/accounts/${railId}/reports"`);
    expect(html).toContain(`href="/accounts/${railId}/activity-logs"`);
    // Names are escaped like any text.
    expect(html).toContain("Rail &amp; &lt;Yard&gt;");
    const viewer = await (await get(`/accounts/${railId}`, cookies.viewer)).text();
    expect(viewer).toContain(`href="/accounts/${railId}/activity-logs"`);
    expect(viewer).not.toContain(`href="/accounts/${railId}/rules"`);
    expect(viewer).toContain(`href="/accounts/${railId}/reports"`);
    // Deployments' list is open to the account's users (issue 23: it was missing from the sidebar).
    expect(sidebarLinks(viewer)).toContain(`/accounts/${railId}/deployments`);
    expect(sidebarLinks(html)).toContain(`/accounts/${railId}/deployments`);
  });

  it("answers another tenant's account with the 404 error screen and no account in the header", async () => {
    const response = await get(`/accounts/${foreignId}`, cookies.owner);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Sorry, this isn&#x27;t supposed to happen!");
    expect(html).toContain("We can&#x27;t find that account.");
    expect(html).toContain("Code: NOT_FOUND");
    expect(html).not.toContain("Not Yours");
    expect(switcherOf(html).current).toBeNull();
    expect(profileMenuHrefs(html)).toEqual(["/settings/organizations", "/devices"]);
  });

  it("answers an unknown account with 404 too, and a signed-out visitor with the sign-in form", async () => {
    expect((await get("/accounts/acc_nothing_here", cookies.owner)).status).toBe(404);
    const signedOut = await get(`/accounts/${busId}`);
    expect(signedOut.status).toBe(401);
    expect(await signedOut.text()).toContain("<title>Sign in · Configuration Tool</title>");
  });

  it("leaves /accounts/add and /accounts/edit to the accounts screens", async () => {
    for (const path of ["/accounts/add", "/accounts/edit"]) {
      const html = await (await get(path, cookies.owner)).text();
      expect(html).not.toContain("We can&#x27;t find that account.");
      expect(html).not.toContain("<title>Account home");
    }
  });

  it("renders the profile menu per role: account settings only inside an account, nothing for a viewer", async () => {
    expect(profileMenuHrefs(await (await get("/welcome", cookies.owner)).text())).toEqual([
      "/settings/organizations",
      "/devices",
    ]);
    expect(profileMenuHrefs(await (await get(`/accounts/${busId}`, cookies.owner)).text())).toEqual([
      `/accounts/edit/${busId}`,
      "/settings/organizations",
      "/devices",
    ]);
    expect(profileMenuHrefs(await (await get(`/accounts/${busId}`, cookies.viewer)).text())).toEqual([]);
    // Manage devices comes back with /devices (src/schema/features.ts).
    expect(profileMenuHrefs(await (await get(`/accounts/${busId}`, cookies.technician)).text())).toEqual(["/devices"]);
  });

  it("renders the profile menu without JavaScript: a disclosure with a plain sign-out form", async () => {
    const html = await (await get("/welcome", cookies.viewer)).text();
    const menu = profileMenuOf(html);
    expect(menu).toMatch(/<summary[^>]*>.*Signed in as.*Test User.*<\/summary>/s);
    expect(menu).toMatch(
      /<form data-sign-out="" action="\/sign-out" method="post"><button type="submit"[^>]*>Sign out<\/button><\/form>/,
    );
    // No React for the shell: the menu is plain HTML and a small script enhances it.
    expect(html).not.toContain("data-island=");
  });

  it("gives the switcher the current account, and renders it as a link to /accounts", async () => {
    const inside = switcherOf(await (await get(`/accounts/${busId}`, cookies.viewer)).text());
    expect(inside.current).toEqual({ id: busId, name: "Metro Bus Operations" });
    expect(inside.userId).toMatch(/^usr_/);
    expect(inside.link).toMatch(/^<a href="\/accounts"/);
    expect(inside.link).toContain("Jump to an account");
    expect(inside.link).toContain("Metro Bus Operations");
    // The strings the script needs, in the page's language.
    expect(inside.messages).toMatchObject({ search: "Search accounts", noMatch: "No account matches “{{search}}”." });
    const outside = switcherOf(await (await get("/welcome", cookies.viewer)).text());
    expect(outside.current).toBeNull();
    expect(outside.link).toMatch(/^<a href="\/accounts"[^>]*><span[^>]*>Jump to an account<\/span><\/a>$/);
  });

  it("collapses into a mobile menu with an Accounts link, the profile links, sign-out and languages", async () => {
    const html = await (await get(`/accounts/${busId}`, cookies.owner)).text();
    const mobile = /<details class="sm:hidden" data-disclosure="">.*?<\/details>/s.exec(html)?.[0] ?? "";
    expect(mobile).toContain(">Menu</summary>");
    const hrefs = [...mobile.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual(["/accounts", `/accounts/edit/${busId}`, "/settings/organizations", "/devices"]);
    expect(mobile).toContain('action="/sign-out"');
    expect(mobile).toContain('action="/language"');
    expect(mobile).toContain("português - Brasil");
  });

  it("speaks the user's language in the shell", async () => {
    const html = await (await get(`/accounts/${busId}`, `${cookies.owner}; lang=es-MX`)).text();
    expect(html).toContain("Ir a una cuenta");
    expect(html).toContain(">Registro de actividad</a>");
    expect(html).toContain("Configuración de la cuenta");
    expect(html).toContain("Avanzado");
  });

  it("has no signed-in controls for a signed-out visitor", async () => {
    const html = await (await get("/")).text();
    expect(html).not.toContain('data-menu=""');
    expect(html).not.toContain('data-switcher=""');
    expect(html).not.toContain('id="idle-warning"');
    expect(html).not.toContain(">Menu</summary>");
  });
});

describe("recent accounts", () => {
  const a = (n: number): RecentAccount => ({ id: `acc_${n}`, name: `Account ${n}` });

  it("puts the chosen account first, removes its duplicate and keeps at most 5", () => {
    expect(withRecentAccount([], a(1))).toEqual([a(1)]);
    expect(withRecentAccount([a(1), a(2), a(3)], a(3))).toEqual([a(3), a(1), a(2)]);
    expect(withRecentAccount([a(1), a(2), a(3), a(4), a(5)], a(6))).toEqual([a(6), a(1), a(2), a(3), a(4)]);
    expect(withRecentAccount([a(1), a(2), a(3), a(4), a(5)], a(5))).toEqual([a(5), a(1), a(2), a(3), a(4)]);
    // A renamed account keeps one entry, under its new name.
    expect(withRecentAccount([a(1), a(2)], { id: "acc_2", name: "Renamed" })).toEqual([{ id: "acc_2", name: "Renamed" }, a(1)]);
    expect(MAX_RECENT_ACCOUNTS).toBe(5);
  });

  it("reads only a list of objects with string id and string name; anything else is empty", () => {
    expect(parseRecentAccounts(JSON.stringify([a(1), a(2)]))).toEqual([a(1), a(2)]);
    expect(parseRecentAccounts(JSON.stringify([{ id: "x", name: "X", extra: 1 }]))).toEqual([{ id: "x", name: "X" }]);
    expect(parseRecentAccounts(JSON.stringify([1, 2, 3, 4, 5, 6, 7].map(a)))).toHaveLength(5);
    for (const bad of [
      null,
      "",
      "not json",
      "{}",
      '"acc_1"',
      "null",
      JSON.stringify({ id: "acc_1", name: "A" }),
      JSON.stringify([a(1), { id: 2, name: "B" }]),
      JSON.stringify([a(1), { id: "acc_2" }]),
      JSON.stringify([a(1), null]),
      JSON.stringify([[a(1)]]),
    ]) {
      expect(parseRecentAccounts(bad)).toEqual([]);
    }
  });

  it("records per user in storage, and survives storage that refuses", () => {
    const data = new Map<string, string>();
    const storage = { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
    recordRecentAccount(storage, "usr_1", a(1));
    recordRecentAccount(storage, "usr_1", a(2));
    recordRecentAccount(storage, "usr_2", a(3));
    expect(readRecentAccounts(storage, "usr_1")).toEqual([a(2), a(1)]);
    expect(readRecentAccounts(storage, "usr_2")).toEqual([a(3)]);
    data.set(recentAccountsKey("usr_1"), "[{]");
    expect(recordRecentAccount(storage, "usr_1", a(4))).toEqual([a(4)]);

    const refusing = {
      getItem: (): string => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
    };
    expect(readRecentAccounts(refusing, "usr_1")).toEqual([]);
    expect(recordRecentAccount(refusing, "usr_1", a(1))).toEqual([a(1)]);
  });
});

describe("menu keys", () => {
  it("moves with arrows (wrapping), Home and End", () => {
    expect(indexForKey("ArrowDown", -1, 4)).toBe(0);
    expect(indexForKey("ArrowDown", 3, 4)).toBe(0);
    expect(indexForKey("ArrowUp", 0, 4)).toBe(3);
    expect(indexForKey("ArrowUp", -1, 4)).toBe(3);
    expect(indexForKey("ArrowUp", 2, 4)).toBe(1);
    expect(indexForKey("Home", 2, 4)).toBe(0);
    expect(indexForKey("End", 0, 4)).toBe(3);
    expect(indexForKey("a", 0, 4)).toBeNull();
    expect(indexForKey("ArrowDown", -1, 0)).toBeNull();
  });

  it("finds items by their first letters and forgets the letters after 350 ms", () => {
    const labels = ["Account settings", "Organization settings", "Manage devices", "Sign out"];
    const typed = new TypeAhead();
    expect(typeAheadIndex(labels, typed.push("o", 1000), 0)).toBe(1);
    expect(typed.push("r", 1000 + TYPE_AHEAD_RESET_MS - 1)).toBe("or");
    expect(typeAheadIndex(labels, "or", 1)).toBe(1);
    expect(typed.push("s", 1000 + 2 * TYPE_AHEAD_RESET_MS)).toBe("s");
    expect(typeAheadIndex(labels, "s", 1)).toBe(3);
    expect(typeAheadIndex(labels, "M", 0)).toBeNull(); // the buffer is lower case
    expect(typeAheadIndex(labels, "x", 0)).toBeNull();
    // The same letter again cycles through the items that start with it.
    const twins = ["Sites", "Sign out", "Rules"];
    expect(typeAheadIndex(twins, "s", 0)).toBe(1);
    expect(typeAheadIndex(twins, "ss", 1)).toBe(0);
  });
});
