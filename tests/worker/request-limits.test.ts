import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { ORIGIN, request } from "./helpers";

type WireError = {
  error: { message: string; data: { code: string; httpStatus: number; fieldErrors?: Record<string, string[]> } };
};

let owner: string;
let orgId: string;
let accountId: string;

beforeAll(async () => {
  orgId = await createOrganization("Limits dealer");
  accountId = await createAccount(await createOrganization("Limits customer", orgId), "Limits fleet");
  owner = await sessionCookie((await createUser({ orgId, role: "owner" })).email);
}, 60_000);

function post(path: string, body: BodyInit, headers: Record<string, string> = {}) {
  return request(path, {
    method: "POST",
    body,
    headers: { Origin: ORIGIN, Cookie: owner, "Content-Type": "application/json", ...headers },
  });
}

describe("the shared request limits answer 4xx in the caller's language", () => {
  it("refuses an API body over its limit with PAYLOAD_TOO_LARGE", async () => {
    const response = await post("/api/accounts.add", JSON.stringify({ orgId, name: "x".repeat(600 * 1024) }));
    expect(response.status).toBe(413);
    const body = (await response.json()) as WireError;
    expect(body.error.data.code).toBe("PAYLOAD_TOO_LARGE");
    expect(body.error.message).toBe("This request is too large. Send less at once.");
  });

  it("refuses JSON nested deeper than 32 levels without parsing it, in Spanish when asked", async () => {
    const response = await post("/api/accounts.add", `${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`.slice(0, 400_000), {
      "Accept-Language": "es-MX",
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as WireError).error.message).toBe("La entrada tiene demasiados niveles anidados.");
  });

  it("refuses prototype keys", async () => {
    const response = await post("/api/accounts.add", '{"orgId":"x","name":"y","__proto__":{"admin":true}}');
    expect(response.status).toBe(400);
    expect(((await response.json()) as WireError).error.message).toContain("__proto__");
  });

  it("refuses batches longer than 20 calls and methods other than GET and POST", async () => {
    const batch = await request(`/api/${Array(21).fill("accounts.publicList").join(",")}?batch=1&input={}`, {
      headers: { Cookie: owner },
    });
    expect(batch.status).toBe(400);
    for (const method of ["HEAD", "PUT", "DELETE", "OPTIONS"]) {
      const response = await request("/api/accounts.publicList", { method, headers: { Cookie: owner, Origin: ORIGIN } });
      expect(response.status, method).toBe(405);
    }
  });

  it("answers a broken multipart form and 10,000 form fields with 4xx, not 500", async () => {
    const broken = await request("/accounts/add", {
      method: "POST",
      body: '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nunterminated',
      headers: { Origin: ORIGIN, Cookie: owner, "Content-Type": "multipart/form-data; boundary=b" },
    });
    expect(broken.status).toBe(400);
    expect(await broken.text()).toContain("The form could not be read.");
    const many = await request("/accounts/add", {
      method: "POST",
      body: new URLSearchParams(Array.from({ length: 10_000 }, (_, i) => [`f${i}`, "x"])),
      headers: { Origin: ORIGIN, Cookie: owner, "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(many.status).toBe(413);
  });
});

describe("text that is not printable is a field error", () => {
  it("refuses a NUL in a name with a message on that field", async () => {
    const response = await post("/api/accounts.add", JSON.stringify({ orgId, name: "Fleet\u0000" }));
    expect(response.status).toBe(400);
    const body = (await response.json()) as WireError;
    expect(body.error.data.fieldErrors?.name).toEqual([
      "Remove the invisible characters (such as control characters or broken symbols) from this field.",
    ]);
  });

  it("refuses an unpaired surrogate and a search D1 could not run", async () => {
    const lone = await post("/api/accounts.add", JSON.stringify({ orgId, name: "a\ud800b" }));
    expect(lone.status).toBe(400);
    const search = await request(
      `/api/accounts.list?input=${encodeURIComponent(JSON.stringify({ orgId, search: "ü".repeat(30) }))}`,
      {
        headers: { Cookie: owner },
      },
    );
    expect(search.status).toBe(400);
    expect(((await search.json()) as WireError).error.data.code).toBe("BAD_REQUEST");
  });
});

describe("D1 refusals", () => {
  it("are 4xx that say nothing about the database", async () => {
    // A name the schema allows but a table CHECK refuses: made possible by a trigger only this test adds.
    await env.DB.exec(
      "CREATE TRIGGER limits_test_refuse BEFORE UPDATE OF name ON accounts WHEN NEW.name = 'Refused by CHECK' BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: limits_test'); END",
    );
    const response = await post(
      "/api/accounts.update",
      JSON.stringify({ id: accountId, version: 1, name: "Refused by CHECK", subscriptionLevel: "essential", timezone: "UTC" }),
    );
    const text = await response.text();
    expect(response.status).toBe(400);
    expect(text).not.toMatch(/D1_|SQLITE|constraint/i);
    expect(text).toContain("A value you entered is not allowed here.");
  });
});
