import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "@/server/api/procedures-route";
import { createApp } from "@/server/app";
import type { Env } from "@/server/env";
import { createAccount, createOrganization, createUser, PASSWORD } from "./fixtures";
import { cookieFrom } from "./helpers";

const FRONTEND = "http://frontend.test";

// One instance (the upstream) owns the data; the other (the frontend) is pointed at it and has
// a database that fails if touched, so every answer it gives must have come through the upstream.
const upstream = createApp();
const untouchable = new Proxy(
  {},
  {
    get() {
      throw new Error("the frontend must not use its own database in proxy mode");
    },
  },
);
const frontendEnv = {
  ...env,
  DB: untouchable,
  API_UPSTREAM: "http://upstream.test",
  UPSTREAM: { fetch: (request: Request) => upstream.request(request, undefined, env) },
} as unknown as Env;

function frontend() {
  const app = createApp();
  // A page-like route that reads through the procedures, as page loads do.
  app.get("/probe/account/:id", async (c) => c.json(await api(c).accounts.details({ id: c.req.param("id") })));
  return app;
}

function call(path: string, init: RequestInit = {}) {
  return frontend().request(new Request(new URL(path, FRONTEND), init), undefined, frontendEnv);
}

let email: string;
let accountId: string;
let cookie: string;

beforeAll(async () => {
  const orgId = await createOrganization("Proxied dealer");
  accountId = await createAccount(orgId, "Proxied fleet");
  email = (await createUser({ orgId, role: "owner" })).email;
});

describe("proxy mode (API_UPSTREAM)", () => {
  it("forwards the plain sign-in call and passes the session cookie back", async () => {
    const response = await call("/api/sign-in", {
      method: "POST",
      body: JSON.stringify({ username: email, password: PASSWORD }),
      headers: { Origin: FRONTEND, "Content-Type": "application/json" },
    });
    expect(await response.json()).toEqual({ ok: true });
    const token = cookieFrom(response, "__Host-session");
    expect(token).toBeDefined();
    cookie = `__Host-session=${token}`;
  });

  it("answers the current user from the upstream", async () => {
    const me = (await (await call("/api/me", { headers: { Cookie: cookie } })).json()) as { ok: boolean; user: string };
    expect(me).toMatchObject({ ok: true, user: email });
  });

  it("forwards typed procedures in the wire format", async () => {
    const input = encodeURIComponent(JSON.stringify({ id: accountId }));
    const body = (await (await call(`/api/accounts.details?input=${input}`, { headers: { Cookie: cookie } })).json()) as {
      result: { data: { name: string } };
    };
    expect(body.result.data.name).toBe("Proxied fleet");
  });

  it("lets pages read through the upstream with the caller's identity", async () => {
    const response = await call(`/probe/account/${accountId}`, { headers: { Cookie: cookie } });
    expect(await response.json()).toMatchObject({ _id: accountId, name: "Proxied fleet" });
  });

  it("keeps the upstream's refusals: errors arrive with their codes", async () => {
    const missing = await call("/probe/account/acc_nope", { headers: { Cookie: cookie } });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("Code: NOT_FOUND");
    const anonymous = await call(`/probe/account/${accountId}`);
    expect(anonymous.status).toBe(401);
  });

  it("renders signed-in pages for the upstream's user", async () => {
    const page = await call("/welcome", { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(email);
    const signedOut = await call("/welcome");
    expect(signedOut.status).toBe(401);
  });
});
