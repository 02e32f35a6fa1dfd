import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import { createApp } from "@/server/app";
import { createAccount, createOrganization } from "../../tests/worker/fixtures";
import { bearer, giveSeats, registerRadios, sha256Hex } from "../../tests/worker/fleet-fixtures";
import { request } from "../../tests/worker/helpers";

// Decision gate for the check-in 304 path (issue 12): what one Durable Object round trip that
// answers from memory costs, next to the static route and one D1 SELECT, in workerd, with ONE
// app for every request (as a deployed Worker builds it once per isolate). The 304 path can be
// no cheaper than the static route plus whatever it must ask; for ≥ 50 % of the static rate,
// that ask has to cost less than the static answer itself.
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const ROUNDS = 7;
const N = 200;

it("a shard round trip from memory vs the static route vs one D1 SELECT", async () => {
  const app = createApp();
  const ns = env.DEVICE_SHARDS;
  if (!ns) throw new Error("DEVICE_SHARDS is not bound");
  const stub = ns.get(ns.idFromName("shard-3"));
  const orgId = await createOrganization("Gate");
  const accountId = await createAccount(orgId, "Gate fleet");
  await giveSeats(orgId, accountId, 1);
  const [uid = ""] = await registerRadios(orgId, accountId, "GATE", 1);
  const auth = bearer(uid);
  const first = await request("/device/v1/config", { headers: { Authorization: auth } }, app);
  const etag = first.headers.get("etag") ?? "";
  await first.arrayBuffer();

  const key = await crypto.subtle.importKey("raw", new Uint8Array(32), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
  const token = new TextEncoder().encode(`${uid}|${etag}|2026-11-24T03:00:00Z`);
  const signature = await crypto.subtle.sign("HMAC", key, token);

  // µs per call, sequential; or with `inFlight` calls at a time (throughput, not latency).
  const time = async (fn: () => Promise<unknown>, inFlight = 1) => {
    const started = performance.now();
    for (let i = 0; i < N; i += inFlight) await Promise.all(Array.from({ length: inFlight }, fn));
    return ((performance.now() - started) * 1000) / N;
  };
  const kinds: Record<string, () => Promise<unknown>> = {
    "static route": async () => (await request("/healthz", {}, app)).arrayBuffer(),
    "shard fetch (from memory)": async () => (await stub.fetch("https://shard/count")).json(),
    "shard fetch, stub per call": async () => (await ns.get(ns.idFromName("shard-3")).fetch("https://shard/count")).json(),
    "D1 SELECT 1": () => env.DB.prepare("SELECT 1 AS one").first(),
    "sha256 of the secret": () => sha256Hex("a".repeat(64)),
    "HMAC-SHA256 verify (a signed ETag)": () => crypto.subtle.verify("HMAC", key, signature, token),
    // The design built after this gate: a signed ETag and the account's cached fleet version.
    "304 signed ETag (no D1 call)": async () =>
      (await request("/device/v1/config", { headers: { Authorization: auth, "If-None-Match": etag } }, app)).arrayBuffer(),
    "304 full path (no-cache: one D1 statement)": async () =>
      (
        await request(
          "/device/v1/config",
          { headers: { Authorization: auth, "If-None-Match": etag, "Cache-Control": "no-cache" } },
          app,
        )
      ).arrayBuffer(),
  };
  const sequential: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((name) => [name, []]));
  const parallel: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, fn] of Object.entries(kinds)) {
      sequential[name]?.push(await time(fn));
      parallel[name]?.push(await time(fn, 16));
    }
  }
  const staticUs = median(sequential["static route"] ?? []);
  const staticParallel = median(parallel["static route"] ?? []);
  for (const name of Object.keys(kinds)) {
    const s = median(sequential[name] ?? []);
    const p = median(parallel[name] ?? []);
    console.log(
      `${name}: ${s.toFixed(0)} µs sequential (${(s / staticUs).toFixed(1)}× static), ${p.toFixed(0)} µs per call at 16 in flight (${(p / staticParallel).toFixed(1)}× static)`,
    );
  }
  expect(staticUs).toBeGreaterThan(0);
});
