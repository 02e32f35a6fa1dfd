import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { type DemoIdp, startDemoIdp } from "../../scripts/demo-idp.mjs";
import { type APIRequestContext, expect, type Page, request, test } from "./client-address";
import { invitationLink } from "./invitations";

// Single sign-on against a REAL OpenID Connect provider: scripts/demo-idp.mjs (the
// `oidc-provider` package) started here on a free port of its own (9400 + a random offset), with
// a client for this test server. The provider is registered in the app through the
// identityProviders.add procedure as the demo owner, for a domain unique to this run, so other
// specs sharing the server never meet it. People are invited by the demo owner (users.invite);
// their first single sign-on accepts the invitation.

const DEMO_PASSWORD = "radios-demo-2025";
const IDP_PASSWORD = "idp-password-for-e2e";
const NEW_PASSWORD = "harbor-lights-on-channel-7";
// New names for every beforeAll: a worker that runs this file's tests in two groups (fully
// parallel) runs beforeAll twice, and the first group's provider still holds its domain.
let run = "";
let DOMAIN = "";
let PROVIDER_NAME = "";
let CLIENT = { clientId: "", clientSecret: "" };

function newRun() {
  run = randomUUID().slice(0, 8);
  DOMAIN = `sso-${run}.example`;
  PROVIDER_NAME = `Test SSO ${run}`;
  CLIENT = { clientId: `e2e-client-${run}`, clientSecret: `e2e-secret-${randomUUID()}` };
}

const email = (name: string) => `${name}@${DOMAIN}`;

let idp: DemoIdp;
let providerId = "";

/** A port nobody listens on, from 9400 + a random offset (so parallel runs do not collide). */
async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = 9400 + 100 + Math.floor(Math.random() * 500);
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, "localhost", () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error("no free port for the identity provider");
}

async function ownerApi(baseURL: string, username = "owner@example.com"): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL } });
  const signedIn = await api.post("/api/sign-in", { data: { username, password: DEMO_PASSWORD } });
  expect(await signedIn.json()).toEqual({ ok: true });
  return api;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  newRun();
  const baseURL = test.info().project.use.baseURL ?? "";
  const port = await freePort();
  const issuer = `http://localhost:${port}`;
  // The provider row first: its id is part of the redirect URI the provider must know.
  const api = await ownerApi(baseURL);
  const added = await api.post("/api/identityProviders.add", {
    data: {
      orgId: "org_harbor",
      name: PROVIDER_NAME,
      issuer,
      clientId: CLIENT.clientId,
      clientSecret: CLIENT.clientSecret,
      emailDomains: [DOMAIN],
    },
  });
  expect(added.status(), await added.text()).toBe(200);
  providerId = ((await added.json()) as { result: { data: { id: string } } }).result.data.id;
  await api.dispose();
  // A claimed domain routes nobody until proven: the vendor organization approves it.
  const vendor = await ownerApi(baseURL, "vendor@example.com");
  const approved = await vendor.post("/api/identityProviders.approveDomain", { data: { id: providerId, domain: DOMAIN } });
  expect(approved.status(), await approved.text()).toBe(200);
  await vendor.dispose();

  const accounts = new Map(
    ["erin", "frank", "carol", "nobody"].map((name) => [
      name,
      {
        email: email(name),
        emailVerified: true,
        name: `${name[0]?.toUpperCase()}${name.slice(1)} Example`,
        password: IDP_PASSWORD,
      },
    ]),
  );
  idp = await startDemoIdp({
    port,
    name: PROVIDER_NAME,
    accounts,
    clients: [{ ...CLIENT, redirectUris: [`${baseURL}/api/auth/callback/${providerId}`] }],
  });
  for (const name of ["erin", "frank", "carol"]) await invitationLink(baseURL, email(name), "configurator");
});

test.afterEach(() => {
  idp.hooks.request = undefined;
  idp.hooks.redirect = undefined;
});

test.afterAll(async () => {
  await idp?.close();
});

/** Every island of that name has hydrated (React owns its element). */
async function hydrated(page: Page, island: string) {
  await page.waitForFunction((name) => {
    const elements = [...document.querySelectorAll(`[data-island="${name}"]`)];
    return elements.length > 0 && elements.every((e) => Object.keys(e).some((key) => key.startsWith("__reactContainer")));
  }, island);
}

async function signedInAs(page: Page): Promise<string | null> {
  const me = (await (await page.request.get("/api/me")).json()) as { ok: boolean; user?: string };
  return me.ok ? (me.user ?? null) : null;
}

/** The provider's own sign-in page (not ours): its address is the provider's. */
async function signInAtProvider(page: Page, address: string) {
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`));
  await expect(page.getByRole("heading", { name: PROVIDER_NAME })).toBeVisible();
  await page.getByLabel("Email").fill(address);
  await page.getByLabel("Password").fill(IDP_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Starts single sign-on directly (the address the sign-in page's button links to). */
async function startSso(page: Page) {
  await page.goto(`/api/auth/signin/${providerId}`);
}

function problem(page: Page) {
  return page.getByRole("main").getByRole("alert");
}

async function expectRefused(page: Page, text: string | RegExp) {
  await expect(page.getByRole("heading", { level: 1, name: "We couldn't sign you in" })).toBeVisible();
  await expect(problem(page)).toContainText(text);
  await expect(page.getByRole("main").getByRole("link", { name: "Back to sign in" })).toHaveAttribute("href", "/sign-in");
  expect(await signedInAs(page)).toBeNull();
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("the email step names the provider; its button leads through the provider's sign-in back to /welcome", async ({
      page,
      baseURL,
    }) => {
      test.setTimeout(60_000);
      const person = javaScriptEnabled ? "erin" : "frank";
      await page.goto("/sign-in");
      // The default identity provider's button is always there (spec §2).
      await expect(page.getByRole("link", { name: "Sign in with Northwind ID" })).toBeVisible();
      if (javaScriptEnabled) await page.locator("[data-sign-in][data-enhanced]").waitFor({ state: "attached" });
      await page.getByLabel("Email", { exact: true }).fill(email(person).toUpperCase());
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page.getByRole("heading", { name: "Single sign-on" })).toBeVisible();
      await expect(page.getByText(`Your organization signs in with ${PROVIDER_NAME}.`)).toBeVisible();
      await expect(page.getByLabel("Password", { exact: true })).toHaveCount(0);
      const button = page.getByRole("link", { name: `Continue with ${PROVIDER_NAME}` });
      await expect(button).toHaveAttribute("href", `/api/auth/signin/${providerId}`);

      if (javaScriptEnabled) {
        // The first click's navigation answers 204 (the browser stays): the button is left
        // showing what it shows while the browser navigates. The second click goes through.
        const signInUrl = (url: URL) => url.pathname === `/api/auth/signin/${providerId}`;
        await page.route(signInUrl, (route) => route.fulfill({ status: 204 }));
        await button.click();
        const redirecting = page.getByRole("link", { name: "Redirecting…" });
        await expect(redirecting).toBeVisible();
        await expect(redirecting).toHaveAttribute("aria-busy", "true");
        await page.unroute(signInUrl);
        await redirecting.click();
      } else {
        await button.click();
      }
      await signInAtProvider(page, email(person));
      await expect(page).toHaveURL(`${baseURL}/welcome`);
      await expect(page.getByRole("heading", { level: 1, name: "Welcome" })).toBeVisible();
      if (javaScriptEnabled)
        await expect(page.getByRole("region", { name: /^Notifications/ }).getByText("You're signed in.")).toBeVisible();
      else await expect(page.getByRole("status")).toHaveText("You're signed in.");
      expect(await signedInAs(page)).toBe(email(person));
      // The invitation was accepted with its role: a configurator has no Users card.
      await expect(page.getByRole("navigation", { name: "Areas you can open" }).getByRole("link", { name: "Users" })).toHaveCount(
        0,
      );
    });
  });
}

test("a tampered state on the way back is refused, and nobody is signed in", async ({ page }) => {
  // The provider's redirect back to us carries another state than the one we sent.
  idp.hooks.redirect = (location) => {
    if (location.pathname === `/api/auth/callback/${providerId}`) {
      location.searchParams.set("state", `${location.searchParams.get("state")}x`);
    }
  };
  await startSso(page);
  await signInAtProvider(page, email("erin"));
  await expectRefused(page, "This sign-in link has expired or was already used.");
});

test("an ID token with another nonce than the one we sent is refused", async ({ page }) => {
  // The provider is asked for another nonce than the one stored with the state, so its ID
  // token carries a nonce this sign-in never sent.
  idp.hooks.request = (url) => {
    if (url.pathname === "/auth" && url.searchParams.has("nonce")) url.searchParams.set("nonce", "a-nonce-we-never-sent");
  };
  await startSso(page);
  await signInAtProvider(page, email("erin"));
  await expectRefused(page, `We couldn't verify the answer from ${PROVIDER_NAME}`);
});

test("a provider account whose verified email has no user or invitation gets the clear message and no session", async ({
  page,
}) => {
  await startSso(page);
  await signInAtProvider(page, email("nobody"));
  await expectRefused(page, `No account here matches your ${PROVIDER_NAME} sign-in.`);
  await expect(page).toHaveTitle(/^Single sign-on/);
});

test("cancelling at the provider (access_denied) ends on the clear page", async ({ page }) => {
  await startSso(page);
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`));
  await page.getByRole("button", { name: "Cancel" }).click();
  await expectRefused(page, `${PROVIDER_NAME} did not sign you in.`);
});

test("unlinking from /security: refused while it is the only way in; once unlinked, only a matching verified email links again", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const carol = email("carol");
  const elsewhere = email("carol.elsewhere");
  // First sign-in: the invitation is accepted and the identity linked.
  await startSso(page);
  await signInAtProvider(page, carol);
  await expect(page).toHaveURL(`${baseURL}/welcome`);

  await page.goto("/security");
  await hydrated(page, "confirm-form");
  const identities = page.getByRole("list", { name: "Linked identities" });
  await expect(identities.getByRole("heading", { name: PROVIDER_NAME })).toBeVisible();
  await expect(identities).toContainText(carol);
  await expect(identities).toContainText("Last used");
  await identities.getByRole("button", { name: `Unlink ${PROVIDER_NAME} (${carol})` }).click();
  await expect(identities.getByRole("alert")).toContainText(
    "Set a password or add a passkey first: this identity is your only way to sign in.",
  );
  await expect(identities.getByRole("heading", { name: PROVIDER_NAME })).toBeVisible();

  // Carol sets a password through the reset mail.
  await page.goto("/forgot-password");
  await page.getByLabel("Email address").fill(carol);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page).toHaveURL(/\/confirm-reset-code-sent$/);
  await expect(async () => {
    await page.goto(`/mailbox?to=${encodeURIComponent(carol)}`);
    await expect(page.getByRole("article").first().getByRole("heading")).toHaveText("Reset your Configuration Tool password", {
      timeout: 1000,
    });
  }).toPass({ timeout: 10_000 });
  await page
    .getByRole("article")
    .first()
    .getByRole("link", { name: /\/reset-password\// })
    .click();
  await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel("Confirm new password").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page).toHaveURL(/\/confirm-password-reset$/);

  // The provider now gives another address for the same account: the link (its subject) still signs Carol in.
  const account = idp.accounts.get("carol");
  if (!account) throw new Error("no carol at the provider");
  account.email = elsewhere;
  await context.clearCookies();
  await startSso(page);
  await signInAtProvider(page, elsewhere);
  await expect(page).toHaveURL(`${baseURL}/welcome`);
  expect(await signedInAs(page)).toBe(carol);

  await page.goto("/security");
  await hydrated(page, "confirm-form");
  await expect(identities).toContainText(elsewhere);
  await identities.getByRole("button", { name: `Unlink ${PROVIDER_NAME} (${elsewhere})` }).click();
  await expect(page).toHaveURL(`${baseURL}/security`);
  await expect(
    page.getByRole("region", { name: /^Notifications/ }).getByText(`Your ${PROVIDER_NAME} identity was unlinked.`),
  ).toBeVisible();
  await expect(page.getByText("No linked identities yet.")).toBeVisible();

  // Unlinked, and the provider's verified email is not Carol's: nobody is signed in.
  await context.clearCookies();
  await startSso(page);
  await signInAtProvider(page, elsewhere);
  await expectRefused(page, `No account here matches your ${PROVIDER_NAME} sign-in.`);
  // Her password still works.
  const withPassword = await page.request.post("/api/sign-in", {
    data: { username: carol, password: NEW_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await withPassword.json()).toEqual({ ok: true });

  // The design: a provider that vouches for Carol's own address (verified, her domain, her
  // organization) links again at its next sign-in.
  account.email = carol;
  await context.clearCookies();
  await startSso(page);
  await signInAtProvider(page, carol);
  await expect(page).toHaveURL(`${baseURL}/welcome`);
  expect(await signedInAs(page)).toBe(carol);
  await page.goto("/security");
  await expect(identities.getByRole("heading", { name: PROVIDER_NAME })).toBeVisible();
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`provider settings with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("an owner adds, edits and deletes a provider; the secret is never shown; a viewer is refused", async ({
      page,
      baseURL,
    }) => {
      test.setTimeout(60_000);
      const signIn = (username: string) =>
        page.request.post("/api/sign-in", { data: { username, password: DEMO_PASSWORD }, headers: { Origin: baseURL ?? "" } });
      const domain = `${javaScriptEnabled ? "js" : "nojs"}-${run}.example`;
      const name = `Lakeside SSO ${javaScriptEnabled ? "A" : "B"} ${run}`;
      const secret = `very-secret-${randomUUID()}`;
      await signIn("owner@example.com");
      await page.goto("/settings/identity-providers");
      await expect(page.getByRole("heading", { level: 1, name: "Single sign-on" })).toBeVisible();
      await expect(page.getByRole("cell", { name: PROVIDER_NAME, exact: true })).toBeVisible();
      await page.getByRole("link", { name: "Add identity provider" }).click();
      await expect(page).toHaveURL(/\/settings\/identity-providers\/add$/);

      await page.getByLabel("Organization").selectOption("org_lakeside");
      await page.getByLabel("Name").fill(name);
      await page.getByLabel("Issuer URL").fill("http://login.lakeside.example");
      await page.getByLabel("Client ID").fill("lakeside-client");
      await page.getByLabel("Client secret").fill(secret);
      await page.getByLabel("Email domains").fill(`${domain}, ${DOMAIN}`);
      await page.getByRole("button", { name: "Add provider" }).click();
      // Refused: a plain-http issuer that is not this machine.
      await expect(
        page.getByRole("alert").getByRole("link", { name: "Enter the provider's issuer URL, starting with https://" }),
      ).toBeVisible();
      await expect(page.getByLabel("Issuer URL")).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByLabel("Name")).toHaveValue(name);
      await page.getByLabel("Issuer URL").fill("https://login.lakeside.example");
      if (!javaScriptEnabled) await page.getByLabel("Client secret").fill(secret);
      await page.getByRole("button", { name: "Add provider" }).click();
      // Refused: one domain is the other provider's.
      await expect(
        page.locator("[data-error-summary]").getByText("Another identity provider already has one of these domains."),
      ).toBeVisible();
      await page.getByLabel("Email domains").fill(domain);
      if (!javaScriptEnabled) await page.getByLabel("Client secret").fill(secret);
      await page.getByRole("button", { name: "Add provider" }).click();

      await expect(page).toHaveURL(/\/settings\/identity-providers\/edit\/idp_/);
      await expect(page.getByRole("heading", { level: 1, name: "Edit identity provider" })).toBeVisible();
      const id = page.url().split("/").at(-1) ?? "";
      await expect(page.getByTestId("redirect-uri")).toHaveText(`${baseURL}/api/auth/callback/${id}`);
      await expect(page.getByLabel("Client secret")).toHaveValue("");
      await expect(page.getByText("A secret is set and is never shown.")).toBeVisible();
      expect(await page.content()).not.toContain(secret);
      await expect(page.getByRole("main")).toContainText("Organization: Lakeside School District");

      await page.getByLabel("Name").fill(`${name} renamed`);
      await page.getByRole("button", { name: "Save" }).click();
      await expect(page).toHaveURL(/\/settings\/identity-providers$/);
      await expect(page.getByRole("cell", { name: `${name} renamed`, exact: true })).toBeVisible();

      await page.getByRole("link", { name: `Delete ${name} renamed` }).click();
      await expect(page.getByText(`Delete the identity provider ${name} renamed?`)).toBeVisible();
      await page.getByRole("button", { name: `Delete provider ${name} renamed` }).click();
      await expect(page).toHaveURL(/\/settings\/identity-providers$/);
      await expect(page.getByRole("cell", { name: `${name} renamed`, exact: true })).toHaveCount(0);
      const flash = `${name} renamed was deleted.`;
      if (javaScriptEnabled) await expect(page.getByRole("region", { name: /^Notifications/ }).getByText(flash)).toBeVisible();
      else await expect(page.getByRole("status")).toHaveText(flash);

      // Without edit-users the screen is protected.
      await page.request.post("/api/sign-out", { headers: { Origin: baseURL ?? "" } });
      await signIn("viewer@example.com");
      const response = await page.goto("/settings/identity-providers");
      expect(response?.status()).toBe(403);
      await expect(page.getByRole("heading", { name: "This route is protected." })).toBeVisible();
    });
  });
}
