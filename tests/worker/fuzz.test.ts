import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes } from "@/routes/table";
import { createApp } from "@/server/app";
import { createUser, sessionCookie } from "./fixtures";
import { ORIGIN, request } from "./helpers";
import { deep, hostileStrings, mutate, type Random, seededRandom } from "./hostile";
import { procedureSamples } from "./procedure-samples";
import { procedures } from "./procedures";
import { makeTenant } from "./tenant";

/**
 * Issue 9: no input may cause a server error. Every procedure, every page action and every
 * plain auth call gets a few hundred generated hostile requests (wrong types, huge and deep
 * values, control characters, unpaired surrogates, SQL and LIKE metacharacters, prototype
 * keys, broken encodings and content types, every HTTP method), signed in as an owner. Any
 * 5xx, or any answer that speaks of the database, fails, with the request that caused it.
 * The PRNG is seeded: the same seed sends the same requests.
 */
const SEED = 20261123;
const GENERATED_PER_PROCEDURE = 200;
const BATCH = 20;
const TRANSPORT_SHARE = 0.3;
const GENERATED_PER_FORM = 25;
const AT_ONCE = 8;
// About 60 s on a quiet 2-core machine; generous, so a loaded CI runner is slow, not red.
const TIMEOUT_MS = 600_000;

type Sent = {
  method: string;
  path: string;
  headers?: Record<string, string | undefined>;
  body?: BodyInit;
  /** The generated inputs a batch carries, one per call, to say which one failed. */
  inputs?: unknown[];
};

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
// D1's own words (case-sensitive: a random base64 challenge may well contain "d1_").
const DATABASE_WORDS = /D1_ERROR|D1_TYPE_ERROR|SQLITE_[A-Z]|constraint failed|no such (table|column)|pattern too complex/;

// One app for every request (building it per request would cost more than the requests).
const app = createApp();
let tenant: Awaited<ReturnType<typeof makeTenant>>;
let owner: string;
const counts = { requests: 0, inputs: 0, serverErrors: 0, databaseTalk: 0 };
const failures: string[] = [];

function describeBody(body: BodyInit | undefined): string {
  if (body === undefined) return "";
  if (typeof body === "string") return JSON.stringify(body.length > 300 ? `${body.slice(0, 300)}… (${body.length} chars)` : body);
  if (body instanceof URLSearchParams) {
    const text = body.toString();
    return `form ${JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text)}`;
  }
  if (body instanceof FormData) return `multipart with ${[...body.keys()].length} fields`;
  if (body instanceof Uint8Array)
    return `bytes [${[...body.slice(0, 40)].join(",")}${body.length > 40 ? ",…" : ""}] (${body.length})`;
  return String(body);
}

function recordFailure(sent: Sent, status: number, text: string, input?: unknown) {
  if (failures.length >= 40) return;
  const shown = sent.path.length > 300 ? `${sent.path.slice(0, 300)}… (${sent.path.length} chars)` : sent.path;
  const which = input === undefined ? "" : `\n    the call with input ${(JSON.stringify(input) ?? "undefined").slice(0, 300)}`;
  failures.push(
    `${status} ← ${sent.method} ${shown} ${JSON.stringify(sent.headers ?? {})} ${describeBody(sent.body)}${which}\n    answered: ${text.slice(0, 240)}`,
  );
}

type BatchItem = { error?: { data?: { httpStatus?: number } } };

async function send(sent: Sent, cookie: string) {
  const headers: Record<string, string> = { Origin: ORIGIN, Cookie: cookie };
  for (const [name, value] of Object.entries(sent.headers ?? {})) if (value !== undefined) headers[name] = value;
  let status = 0;
  let text = "";
  try {
    const response = await request(sent.path, { method: sent.method, headers, body: sent.body, redirect: "manual" }, app);
    status = response.status;
    text = await response.text();
  } catch (error) {
    status = 599;
    text = `threw ${error instanceof Error ? error.message : String(error)}`;
  }
  counts.requests += 1;
  counts.inputs += sent.inputs?.length ?? 1;
  const talks = DATABASE_WORDS.test(text);
  if (talks) counts.databaseTalk += 1;
  if (status >= 500 || talks) {
    counts.serverErrors += status >= 500 ? 1 : 0;
    recordFailure(sent, status, text);
    return;
  }
  // A batch answers 207 with one result per call: each call must be a 4xx or a success too.
  if (sent.inputs && text.startsWith("[")) {
    const items = JSON.parse(text) as BatchItem[];
    items.forEach((item, i) => {
      const itemStatus = item.error?.data?.httpStatus ?? 200;
      if (itemStatus >= 500) {
        counts.serverErrors += 1;
        recordFailure(sent, itemStatus, JSON.stringify(item), sent.inputs?.[i]);
      }
    });
  }
}

async function sendAll(requests: Sent[], cookie: string) {
  let next = 0;
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      while (next < requests.length) {
        const sent = requests[next] as Sent;
        next += 1;
        await send(sent, cookie);
      }
    }),
  );
}

const json = { "Content-Type": "application/json" };

/** Requests that break the transport rather than the input: methods, content types, encodings, batches. */
function transportCases(path: string, type: string, sample: unknown, random: Random): Sent[] {
  const valid = JSON.stringify(sample ?? null);
  const url = `/api/${path}`;
  const methods: Sent[] = METHODS.map((method) => ({
    method,
    path: method === "GET" || method === "HEAD" ? `${url}?input=${encodeURIComponent(valid)}` : url,
    headers: json,
    body: method === "GET" || method === "HEAD" ? undefined : valid,
  }));
  // The shared layer answers these before any procedure runs: each procedure gets a seeded share of them.
  const others: Sent[] = [
    ...[
      "",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/json; charset=utf-16",
      "application/jsonx",
    ].map((contentType) => ({
      method: "POST",
      path: url,
      headers: contentType ? { "Content-Type": contentType } : {},
      body: valid,
    })),
    ...[
      "",
      "{",
      "[",
      "nul",
      '"',
      '{"a":1}{"b":2}',
      "\uFEFF{}",
      "1e999",
      `{"0":${valid}}`,
      `[${"[".repeat(100_000)}${"]".repeat(100_000)}]`,
      `${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}`,
      `"${"x".repeat(2_000_000)}"`,
      `1${"0".repeat(400)}`,
      `{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}`,
    ].map((body) => ({ method: "POST", path: url, headers: json, body })),
    { method: "POST", path: url, headers: json, body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x80, 0x22, 0x3a, 0x31, 0x7d]) },
    { method: "GET", path: `${url}?input=%E0%A4%A` },
    { method: "GET", path: `${url}?input=%ZZ%` },
    { method: "GET", path: `${url}?input=${encodeURIComponent(JSON.stringify(deep(5000)))}` },
    { method: "GET", path: `${url}?input=${"%5B".repeat(3000)}` },
    { method: "GET", path: `${url}?input=${encodeURIComponent(JSON.stringify({ s: "x".repeat(100_000) }))}` },
    { method: "GET", path: `${url}?input=${encodeURIComponent(valid)}&input=2` },
    { method: "GET", path: `${url}?batch=1&input=${encodeURIComponent(valid)}` },
    { method: "GET", path: `${url}?batch=1&input=[]` },
    { method: "GET", path: `${url}?batch=1` },
    {
      method: type === "query" ? "GET" : "POST",
      path: `/api/${Array(300).fill(path).join(",")}?batch=1${type === "query" ? `&input=${encodeURIComponent(JSON.stringify(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [i, sample]))))}` : ""}`,
      headers: json,
      body: type === "query" ? undefined : JSON.stringify(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [i, sample]))),
    },
    { method: "GET", path: `/api/${path},${path}?input=${encodeURIComponent(valid)}` },
    { method: "GET", path: `${url}/extra` },
    { method: "GET", path: `${url}%00` },
    { method: "GET", path: `${url}..` },
    { method: "POST", path: url, headers: { ...json, "Content-Length": "99999999999" }, body: valid },
  ];
  return [...methods, ...others.filter(() => random.next() < TRANSPORT_SHARE)];
}

/** A procedure's generated inputs, sent the way its type expects (and now and then batched). */
function generatedCases(path: string, type: string, sample: unknown, random: Random): Sent[] {
  const inputs = Array.from({ length: GENERATED_PER_PROCEDURE }, () => mutate(sample, random));
  // Sent as batches (batch=1) of up to BATCH calls and about 12 KB: every input reaches the procedure.
  const cases: Sent[] = [];
  let group: unknown[] = [];
  const flush = () => {
    if (!group.length) return;
    const calls = Array(group.length).fill(path).join(",");
    const body = JSON.stringify(Object.fromEntries(group.map((input, i) => [i, input])));
    cases.push(
      type === "query"
        ? { method: "GET", path: `/api/${calls}?batch=1&input=${encodeURIComponent(body)}`, inputs: group }
        : { method: "POST", path: `/api/${calls}?batch=1`, headers: json, body, inputs: group },
    );
    group = [];
  };
  for (const input of inputs) {
    const size = (JSON.stringify(input) ?? "").length;
    if (size > 12_000) {
      // Too large to share a batch: alone, as the procedure's own call.
      const text = JSON.stringify(input) ?? "";
      cases.push(
        type === "query"
          ? { method: "GET", path: `/api/${path}?input=${encodeURIComponent(text)}` }
          : { method: "POST", path: `/api/${path}`, headers: json, body: text },
      );
      continue;
    }
    group.push(input);
    if (group.length >= BATCH) flush();
  }
  flush();
  return cases;
}

/** A route's path with the tenant's ids in place of its parameters (ids it does not have stay unknown). */
function routeUrl(path: string): string {
  const ids: Record<string, string> = {
    accountId: tenant.accountId,
    siteId: tenant.siteId,
    locationId: tenant.locationId,
    profileId: tenant.profileId,
    ruleId: tenant.ruleId,
    orgId: tenant.childOrgId,
    userId: tenant.userId,
    subscriptionId: tenant.subscriptionId,
    allocationId: tenant.allocationId,
    profileType: "buttons",
  };
  const filled = path.replace(/:(\w+)(\{[^}]*\})?/g, (_, name: string) => ids[name] ?? `unknown-${name}`);
  const query = new URLSearchParams({ orgId: tenant.childOrgId, id: tenant.subscriptionId, accountId: tenant.accountId });
  return `${filled}?${query}`;
}

/** The names of a page's form fields, read from the page as the owner sees it. */
async function fieldNames(url: string): Promise<string[]> {
  const response = await request(url, { headers: { Cookie: owner } });
  const html = await response.text();
  const names = new Set([...html.matchAll(/<(?:input|select|textarea)[^>]*\sname="([^"]+)"/g)].map((m) => m[1] as string));
  return names.size ? [...names] : ["name", "version", "email", "password"];
}

function hostileForm(names: string[], random: Random): [string, string][] {
  const fields: [string, string][] = names.map((name) => [name, random.next() < 0.5 ? random.pick(hostileStrings) : ""]);
  if (random.next() < 0.3) fields.push([random.pick(["__proto__", "constructor", "prototype", "toString"]), "1"]);
  if (random.next() < 0.2) fields.push([random.pick(names), random.pick(hostileStrings)]);
  if (random.next() < 0.1) fields.push([random.pick(hostileStrings).slice(0, 40), random.pick(hostileStrings)]);
  return fields;
}

/**
 * A multipart body written out as a browser does (names escaped per the HTML standard: `"`,
 * CR and LF as %22, %0D, %0A), since workerd's FormData refuses to serialize some names a
 * browser still sends, such as one ending in a backslash.
 */
function multipart(fields: [string, string][], boundary: string): string {
  const escapeName = (name: string) => name.replaceAll('"', "%22").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
  const parts = fields.map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(name)}"\r\n\r\n${value}\r\n`,
  );
  return `${parts.join("")}--${boundary}--\r\n`;
}

/** A form action's requests: hostile values, broken bodies and encodings, every method. */
function formCases(url: string, names: string[], random: Random): Sent[] {
  const urlencoded = { "Content-Type": "application/x-www-form-urlencoded" };
  const boundary = "----fuzzboundary";
  const multipartType = { "Content-Type": `multipart/form-data; boundary=${boundary}` };
  const many = (n: number, sameName: boolean) =>
    new URLSearchParams(Array.from({ length: n }, (_, i) => [sameName ? (names[0] ?? "name") : `f${i}`, "x"]));
  const cases: Sent[] = [
    ...METHODS.filter((m) => m !== "POST").map((method) => ({ method, path: url })),
    { method: "POST", path: url, headers: urlencoded, body: many(10_000, false) },
    { method: "POST", path: url, headers: urlencoded, body: many(10_000, true) },
    { method: "POST", path: url, headers: urlencoded, body: new URLSearchParams([[names[0] ?? "name", "x".repeat(1_000_000)]]) },
    { method: "POST", path: url, headers: urlencoded, body: `${names[0] ?? "name"}=%E0%A4%A&x=%ZZ&%%%=1&=&&==` },
    {
      method: "POST",
      path: url,
      headers: urlencoded,
      body: new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x3d, 0xff, 0xfe, 0xc0, 0x80]),
    },
    {
      method: "POST",
      path: url,
      headers: multipartType,
      body: `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nunterminated`,
    },
    {
      method: "POST",
      path: url,
      headers: multipartType,
      body: `--${boundary}\r\nbroken header line\r\n\r\nx\r\n--${boundary}--\r\n`,
    },
    {
      method: "POST",
      path: url,
      headers: multipartType,
      body: `--other\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--other--\r\n`,
    },
    { method: "POST", path: url, headers: multipartType, body: "" },
    { method: "POST", path: url, headers: { "Content-Type": "multipart/form-data" }, body: "a=b" },
    { method: "POST", path: url, headers: { "Content-Type": "multipart/form-data; boundary=" }, body: "--\r\n" },
    {
      method: "POST",
      path: url,
      headers: multipartType,
      body: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n${"x".repeat(10_000)}\r\n--${boundary}--\r\n`,
    },
    { method: "POST", path: url, headers: { "Content-Type": "text/plain" }, body: "name=x" },
    { method: "POST", path: url, headers: { "Content-Type": "application/json" }, body: '{"name":"x"}' },
    { method: "POST", path: url, headers: { "Content-Type": "application/json" }, body: "{" },
    { method: "POST", path: url, body: "name=x" },
    {
      method: "POST",
      path: url,
      headers: { "Content-Type": "application/x-www-form-urlencoded; charset=utf-16" },
      body: "name=x",
    },
    { method: "POST", path: url, headers: { ...urlencoded, "Content-Length": "99999999999" }, body: "name=x" },
  ];
  for (let i = 0; i < GENERATED_PER_FORM; i += 1) {
    const fields = hostileForm(names, random);
    const asJson: Record<string, string> = random.next() < 0.3 ? { Accept: "application/json" } : {};
    cases.push(
      random.next() < 0.8
        ? { method: "POST", path: url, headers: { ...urlencoded, ...asJson }, body: new URLSearchParams(fields) }
        : { method: "POST", path: url, headers: { ...multipartType, ...asJson }, body: multipart(fields, boundary) },
    );
  }
  return cases;
}

/** The plain calls of spec §7 beside the procedures, and the two posts outside the route table. */
const plainCalls: { path: string; sample: unknown }[] = [
  { path: "/api/me", sample: undefined },
  { path: "/api/sign-in", sample: { username: "owner@example.com", password: "wrong password" } },
  { path: "/api/auth/2fa/email/send", sample: {} },
  { path: "/api/auth/2fa/email/verify", sample: { otp: "123456" } },
  { path: "/api/passkey/register/start", sample: {} },
  {
    path: "/api/passkey/register/verify",
    sample: { id: "abc", rawId: "abc", type: "public-key", response: { clientDataJSON: "abc", attestationObject: "abc" } },
  },
  { path: "/api/passkey/auth/start", sample: { username: "owner@example.com" } },
  {
    path: "/api/passkey/auth/verify",
    sample: {
      uniqueId: "x",
      response: {
        id: "abc",
        rawId: "abc",
        type: "public-key",
        response: { clientDataJSON: "a", authenticatorData: "a", signature: "a" },
      },
    },
  },
  { path: "/api/auth/signin/unknown-provider", sample: undefined },
  { path: "/api/auth/callback/unknown-provider", sample: undefined },
  { path: "/api/sign-out", sample: undefined },
];

beforeAll(async () => {
  tenant = await makeTenant("Fuzz");
  owner = tenant.cookies.owner;
}, TIMEOUT_MS);

afterAll(() => {
  console.log(
    `fuzz (seed ${SEED}): ${counts.inputs} hostile inputs in ${counts.requests} requests, ${counts.serverErrors} answered 5xx, ${counts.databaseTalk} spoke of the database`,
  );
});

describe("fuzz: no input causes a server error", () => {
  it(
    "every procedure answers hostile input with 4xx",
    async () => {
      const random = seededRandom(SEED);
      // Reads first, deletes last, so the tenant's rows live as long as possible.
      const ordered = [...procedures].sort((a, b) => Number(a.path.endsWith(".delete")) - Number(b.path.endsWith(".delete")));
      for (const procedure of ordered) {
        const sample = procedureSamples[procedure.path]?.(tenant);
        await sendAll(
          [
            ...transportCases(procedure.path, procedure.type, sample, random),
            ...generatedCases(procedure.path, procedure.type, sample, random),
          ],
          owner,
        );
      }
      expect(failures.splice(0)).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    "every page action answers hostile form posts with 4xx (or its page)",
    async () => {
      const random = seededRandom(SEED + 1);
      for (const route of routes.filter((r) => r.page.action)) {
        const url = routeUrl(route.path);
        await sendAll(formCases(url, await fieldNames(url), random), owner);
      }
      await sendAll(formCases("/language", ["language", "next"], random), owner);
      expect(failures.splice(0)).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    "every plain auth call answers hostile input with 4xx",
    async () => {
      const random = seededRandom(SEED + 2);
      // A session of its own: the calls may sign it out.
      const plain = await sessionCookie((await createUser({ orgId: tenant.orgId })).email);
      for (const call of plainCalls) {
        const valid = JSON.stringify(call.sample ?? {});
        const requests: Sent[] = [
          ...METHODS.map((method) => ({
            method,
            path: call.path,
            headers: json,
            body: method === "GET" || method === "HEAD" ? undefined : valid,
          })),
          ...["{", "[", "", "1e999", `${"[".repeat(100_000)}`, `"${"x".repeat(2_000_000)}"`, '{"__proto__":{"a":1}}'].map(
            (body) => ({
              method: "POST",
              path: call.path,
              headers: json,
              body,
            }),
          ),
          { method: "POST", path: call.path, headers: { "Content-Type": "text/plain" }, body: valid },
          {
            method: "POST",
            path: call.path,
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
            body: "username=a",
          },
          { method: "POST", path: call.path, headers: json, body: new Uint8Array([0x7b, 0xff, 0x7d]) },
          { method: "GET", path: `${call.path}?state=${"x".repeat(5000)}&next=%E0%A4%A&code=\u0000` },
          ...Array.from({ length: GENERATED_PER_PROCEDURE }, () => ({
            method: "POST",
            path: call.path,
            headers: json,
            body: JSON.stringify(mutate(call.sample ?? {}, random)) ?? "",
          })),
        ];
        await sendAll(requests, call.path === "/api/sign-out" ? plain : owner);
      }
      await sendAll(formCases("/sign-out", ["x"], random), plain);
      expect(failures.splice(0)).toEqual([]);
    },
    TIMEOUT_MS,
  );
});
