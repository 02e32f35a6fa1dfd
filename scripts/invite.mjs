// `npm run demo:invite -- --email someone@example.com --role viewer [--org org_harbor] [--by owner@example.com]
//  [--language en]`: invites someone in the LOCAL demo database (always --local, and PERSIST_TO
// like scripts/local-d1.mjs), prints the accept link for http://localhost:${PORT:-8787} and puts
// the invitation mail in the outbox, so /mailbox shows it. The code and its SHA-256 are made
// exactly as src/server/auth/invitations.ts makes them; only the hash is stored.
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { sqlValue } from "./seed-sql.mjs";

const DATABASE = "configuration-tool";
const ROLES = ["owner", "admin", "configurator", "technician", "viewer", "case-agent"];
const LANGUAGES = ["en", "es-MX", "fr-CA", "pt-BR"];
const LIFETIME_DAYS = 7;

const { values: args } = parseArgs({
  options: {
    email: { type: "string" },
    role: { type: "string" },
    org: { type: "string", default: "org_harbor" },
    by: { type: "string" },
    language: { type: "string", default: "en" },
  },
});

function fail(message, { usage = true } = {}) {
  console.error(`invite: ${message}`);
  if (usage) {
    console.error(
      "usage: node scripts/invite.mjs --email x@example.com --role viewer [--org org_harbor] [--by inviter@example.com]",
    );
  }
  process.exit(1);
}

const email = args.email?.trim().toLowerCase() ?? "";
if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) fail("--email must be an email address");
if (!ROLES.includes(args.role ?? "")) fail(`--role must be one of ${ROLES.join(", ")}`);
if (!LANGUAGES.includes(args.language)) fail(`--language must be one of ${LANGUAGES.join(", ")}`);

const BUSY_TRIES = 6;

/**
 * Runs wrangler on the local database only, and returns its standard output. The running
 * server (or another invite) may hold the database's write lock for a moment: then it tries again.
 */
function wrangler(wranglerArgs) {
  const persist = process.env.PERSIST_TO ? ["--persist-to", process.env.PERSIST_TO] : [];
  for (let attempt = 1; ; attempt++) {
    try {
      return execFileSync("npx", ["wrangler", ...wranglerArgs, "--local", ...persist], {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, CI: "true" }, // no interactive confirmation
        encoding: "utf8",
      });
    } catch (error) {
      const output = `${error.stdout ?? ""}${error.stderr ?? ""}`;
      if (attempt < BUSY_TRIES && /SQLITE_BUSY|database is locked/.test(output)) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250 * attempt); // a synchronous pause
        continue;
      }
      process.stderr.write(output);
      fail(`wrangler ${wranglerArgs.slice(0, 2).join(" ")} failed`, { usage: false });
    }
  }
}

function query(sql) {
  const [result] = JSON.parse(wrangler(["d1", "execute", DATABASE, "--json", "--command", sql]));
  return result?.results ?? [];
}

// The organization, the inviter (named, else the organization's first owner or admin) and
// whether the address already has an account.
const [organization] = query(
  `SELECT id, name, (SELECT count(*) FROM users WHERE email = ${sqlValue(email)}) AS taken
   FROM organizations WHERE id = ${sqlValue(args.org)}`,
);
if (!organization) fail(`no organization ${args.org} in the local database (run npm start once to seed it)`, { usage: false });
const [inviter] = query(
  args.by
    ? `SELECT id, name, email FROM users WHERE email = ${sqlValue(args.by.trim().toLowerCase())}`
    : `SELECT id, name, email FROM users WHERE org_id = ${sqlValue(args.org)} AND role IN ('owner', 'admin')
       ORDER BY role = 'owner' DESC, created_at, id LIMIT 1`,
);
if (args.by && !inviter) fail(`no user ${args.by}`, { usage: false });

const code = randomBytes(32).toString("base64url"); // randomToken(32)
const codeHash = createHash("sha256").update(code).digest("hex"); // sha256Hex(code)
const now = new Date();
const at = now.toISOString();
const expiresAt = new Date(now.getTime() + LIFETIME_DAYS * 86_400_000).toISOString();
const id = `inv_${randomBytes(10).toString("hex")}`;
const origin = `http://localhost:${process.env.PORT ?? "8787"}`;
const link = `${origin}/accept/${code}`;

/** The mail in the chosen language, from the same locale strings the Worker uses. */
function text(key, values) {
  const strings = JSON.parse(readFileSync(new URL(`../locales/${args.language}/default.json`, import.meta.url), "utf8"));
  const template = key.split(".").reduce((node, part) => node?.[part], strings);
  if (typeof template !== "string") throw new Error(`missing translation ${key}`);
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name) => String(values[name] ?? whole));
}
const values = {
  inviter: inviter?.name || inviter?.email || organization.name,
  organization: organization.name,
  link,
  days: LIFETIME_DAYS,
};

// Like insertInvitationStatements: an open invitation for the same address is replaced.
const statements = [
  `UPDATE invitations SET revoked_at = ${sqlValue(at)} WHERE org_id = ${sqlValue(args.org)} AND email = ${sqlValue(email)}
   AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ${sqlValue(at)};`,
  `INSERT INTO invitations (id, org_id, email, role, code_hash, invited_by, expires_at, created_at) VALUES (${[
    id,
    args.org,
    email,
    args.role,
    codeHash,
    inviter?.id ?? null,
    expiresAt,
    at,
  ]
    .map(sqlValue)
    .join(", ")});`,
  `INSERT INTO mail_outbox (id, to_address, subject, body, created_at) VALUES (${[
    `mail_${randomBytes(10).toString("hex")}`,
    email,
    text("mail.invitation.subject", values),
    text("mail.invitation.body", values),
    at,
  ]
    .map(sqlValue)
    .join(", ")});`,
];

const dir = mkdtempSync(join(tmpdir(), "invite-"));
try {
  const file = join(dir, "invite.sql");
  writeFileSync(file, `${statements.join("\n")}\n`);
  wrangler(["d1", "execute", DATABASE, "--file", file]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (organization.taken) console.warn(`note: ${email} already has an account; the link will say so and offer sign-in.`);
console.log(`Invited ${email} to ${organization.name} as ${args.role} (expires ${expiresAt}).`);
console.log(link);
