// Registers the radios of a CSV file in an account, as an ERP export would give them:
//
//   node docs/cookbook/register-radios.mjs --account acc_… --file radios.csv --secrets secrets.csv
//
// Columns by header name, in any order: uid, brand, model, name, tags, account, site, location
// (site and location by name or id). The whole file is checked first (a dry run): any problem is
// printed with its line and nothing is written. Then it is imported at once, all or nothing, and
// the new radios' secrets (what each radio signs in with) are written to --secrets, readable by
// you only. --update also updates radios that exist already.
import { readFile, writeFile } from "node:fs/promises";
import { connect, options } from "./api.mjs";

const { account, file, secrets, update } = options({ account: "", file: "", secrets: "secrets.csv", update: false });
if (!account || !file)
  throw new Error("usage: register-radios.mjs --account <id> --file <radios.csv> [--secrets <out.csv>] [--update]");

const api = connect({ log: console.error });
const csv = await readFile(file, "utf8");
const request = { accountId: account, csv, updateExisting: update };

const check = await api.mutate("devices.importCsv", { ...request, dryRun: true });
if (!check.ok) {
  for (const problem of check.problems)
    console.error(`line ${problem.row}${problem.column ? `, ${problem.column}` : ""}: ${problem.message}`);
  if (check.moreProblems) console.error(`… and ${check.moreProblems} more`);
  process.exit(1);
}

const done = await api.mutate("devices.importCsv", { ...request, dryRun: false });
const lines = ["uid,secret", ...done.secrets.map(({ uid, secret }) => `${uid},${secret}`)];
await writeFile(secrets, `${lines.join("\n")}\n`, { mode: 0o600 });
console.log(`registered ${done.creates} new radios, updated ${done.updates}; secrets of the new ones in ${secrets}`);
