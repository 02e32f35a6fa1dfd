// `npm run demo:radio -- --account <accountId> [--count N] [--model XR-7]`: registers demo radios
// in the LOCAL database (always --local, and PERSIST_TO like scripts/local-d1.mjs), assigned to
// the account (each takes a seat: none is registered past the free seats), and prints one JSON
// line {"uid": …, "secret": …} per radio, so people and tests can drive radios through the
// device protocol. Secrets are made as src/server/api/device-inputs.ts makes them (256 random
// bits, base64url); only their SHA-256 (hex) is stored.
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { sqlValue } from "./seed-sql.mjs";

const DATABASE = "configuration-tool";
const { values: args } = parseArgs({
  options: {
    account: { type: "string" },
    count: { type: "string", default: "1" },
    model: { type: "string", default: "XR-7" },
  },
});

function fail(message) {
  console.error(`demo:radio: ${message}`);
  console.error("usage: npm run demo:radio -- --account <accountId> [--count N] [--model XR-7]");
  process.exit(1);
}

const count = Number(args.count);
if (!args.account) fail("--account is required");
if (!Number.isInteger(count) || count < 1 || count > 1000) fail("--count must be a whole number from 1 to 1000");
if (!/^[A-Za-z0-9][A-Za-z0-9 ._/+-]{0,59}$/.test(args.model)) fail("--model must be a model name");

/** wrangler on the local database only; a moment's lock by the running server is tried again. */
function wrangler(wranglerArgs) {
  const persist = process.env.PERSIST_TO ? ["--persist-to", process.env.PERSIST_TO] : [];
  for (let attempt = 1; ; attempt++) {
    try {
      return execFileSync("npx", ["wrangler", ...wranglerArgs, "--local", ...persist], {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, CI: "true" },
        encoding: "utf8",
      });
    } catch (error) {
      const output = `${error.stdout ?? ""}${error.stderr ?? ""}`;
      if (attempt < 6 && /SQLITE_BUSY|database is locked/.test(output)) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250 * attempt);
        continue;
      }
      process.stderr.write(output);
      fail(`wrangler ${wranglerArgs.slice(0, 2).join(" ")} failed`);
    }
  }
}

function query(sql) {
  const [result] = JSON.parse(wrangler(["d1", "execute", DATABASE, "--json", "--command", sql]));
  return result?.results ?? [];
}

const [account] = query(
  `SELECT id, org_id, devices_in_use, (SELECT COALESCE(SUM(quantity), 0) FROM allocations WHERE account_id = accounts.id) AS seats
   FROM accounts WHERE id = ${sqlValue(args.account)}`,
);
if (!account) fail(`no account ${args.account} in the local database (run npm start once to seed it)`);
const free = account.seats - account.devices_in_use;
if (free < count) fail(`the account has ${free} free seats; allocate more or ask for fewer radios`);

const at = new Date().toISOString();
const radios = Array.from({ length: count }, () => {
  const uid = `DEMO-${randomBytes(5).toString("hex").toUpperCase()}`;
  const secret = randomBytes(32).toString("base64url");
  return { uid, secret, hash: createHash("sha256").update(secret).digest("hex") };
});
// One statement: every radio or none (the seat trigger is the last line should seats go meanwhile).
const rows = radios
  .map((r) =>
    [r.uid, account.org_id, account.id, "Northwind", args.model, `Demo ${r.uid.slice(5)}`, "[]", r.hash, at, at, at]
      .map(sqlValue)
      .join(", "),
  )
  .map((values) => `(${values})`)
  .join(",\n");
wrangler([
  "d1",
  "execute",
  DATABASE,
  "--command",
  `INSERT INTO devices (uid, org_id, account_id, brand, model, name, tags, secret_hash, attributes_changed_at, created_at, updated_at) VALUES ${rows};`,
]);
for (const r of radios) console.log(JSON.stringify({ uid: r.uid, secret: r.secret }));
