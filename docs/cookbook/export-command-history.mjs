// Exports an account's command history of last month (or --month YYYY-MM) as CSV: the commands
// sent each day, by outcome, exactly as the Commands report's "Download CSV" gives it.
//
//   node docs/cookbook/export-command-history.mjs --account acc_… > commands-2026-10.csv
//
// Days are the account's calendar days (its time zone). The report needs an advanced account.
import { connect, options } from "./api.mjs";

const args = options({ account: "", month: "", by: "day" });
if (!args.account) throw new Error("usage: export-command-history.mjs --account <id> [--month YYYY-MM] [--by day|type]");

const now = new Date();
const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
const month = args.month || lastMonth.toISOString().slice(0, 7);
if (!/^\d{4}-\d{2}$/.test(month)) throw new Error("--month takes YYYY-MM");
const [year, number] = month.split("-").map(Number);
const lastDay = new Date(Date.UTC(year, number, 0)).getUTCDate();
const from = `${month}-01`;
const to = `${month}-${String(lastDay).padStart(2, "0")}`;

const api = connect({ log: console.error });
const query = new URLSearchParams({ by: args.by, from, to, format: "csv" });
process.stdout.write(await api.download(`/accounts/${encodeURIComponent(args.account)}/reports/commands?${query}`));
