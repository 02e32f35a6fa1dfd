import { deviceBrand, deviceModel, deviceName, deviceTags, deviceUid, splitTags } from "@/schema/devices";
import type { ImportRow } from "@/server/data/devices";
import { type FileProblem, type LineRecord, readCsvRecords } from "./csv-records";

/**
 * The CSV import's checks (issue 11): every row read, every problem reported as (line, column,
 * message key), nothing written unless there is none. Columns by header name, in any order:
 * uid, brand, model, name, tags, account, site, location (account, site and location by name
 * or id; tags separated by commas or semicolons). Rows are numbered by the file's lines.
 */
export const importColumns = ["uid", "brand", "model", "name", "tags", "account", "site", "location"] as const;
export type ImportColumn = (typeof importColumns)[number];

/** A problem of one line of the file (0 is the file itself). */
export type ImportProblem =
  | FileProblem
  | {
      row: number;
      column: ImportColumn;
      message: string;
      values?: Record<string, string | number>;
    };

export type Places = {
  accounts: { id: string; name: string }[];
  sites: { id: string; account_id: string; name: string }[];
  locations: { id: string; site_id: string; name: string }[];
};

export type ParsedImport = { rows: (ImportRow & { line: number })[]; problems: ImportProblem[] };

/** Items found by id, else by name without case (one map each, so 10,000 rows stay cheap). */
class ByNameOrId<T extends { id: string; name: string }> {
  private readonly ids = new Map<string, T>();
  private readonly names = new Map<string, T>();
  add(item: T) {
    this.ids.set(item.id, item);
    const name = item.name.toLowerCase();
    if (!this.names.has(name)) this.names.set(name, item);
  }
  find(cell: string): T | undefined {
    return this.ids.get(cell) ?? this.names.get(cell.toLowerCase());
  }
}

function grouped<T extends { id: string; name: string }>(items: T[], key: (item: T) => string) {
  const groups = new Map<string, ByNameOrId<T>>();
  for (const item of items) {
    const group = groups.get(key(item)) ?? new ByNameOrId<T>();
    group.add(item);
    groups.set(key(item), group);
  }
  return groups;
}

/**
 * Checks each record as the file is read: fields, the brand filter, uids repeated in the file,
 * places that exist in the organization. What exists already and seats are checked after,
 * against the database. `defaultAccount` fills an empty account cell (an account's registry).
 */
export function rowChecker(options: { places: Places; brandFilter: string; defaultBrand?: string; defaultAccount?: string }) {
  const { places, brandFilter } = options;
  const defaultBrand = options.defaultBrand ?? brandFilter;
  const accounts = new ByNameOrId<Places["accounts"][number]>();
  for (const account of places.accounts) accounts.add(account);
  const sitesOf = grouped(places.sites, (s) => s.account_id);
  const locationsOf = grouped(places.locations, (l) => l.site_id);
  const problems: ImportProblem[] = [];
  const rows: ParsedImport["rows"] = [];
  const seen = new Map<string, number>();

  function check({ cells, line }: LineRecord) {
    const before = problems.length;
    const problem = (column: ImportColumn, message: string, values?: Record<string, string | number>) =>
      problems.push({ row: line, column, message, ...(values ? { values } : {}) });
    const valid = <T>(
      column: ImportColumn,
      schema: { safeParse: (v: unknown) => { success: boolean; data?: T; error?: { issues: { message: string }[] } } },
      value: unknown,
    ): T | undefined => {
      const result = schema.safeParse(value);
      if (result.success) return result.data;
      problem(column, result.error?.issues[0]?.message ?? "validation.Invalid");
      return undefined;
    };
    const uid = valid<string>("uid", deviceUid, cells.uid ?? "");
    const brand = valid<string>("brand", deviceBrand, cells.brand || defaultBrand || "");
    if (brand && brandFilter && brand.toLowerCase() !== brandFilter.toLowerCase())
      problem("brand", "devices.errors.brandNotAllowed");
    const model = valid<string>("model", deviceModel, cells.model ?? "");
    const name = valid<string>("name", deviceName, cells.name ?? "");
    const tags = valid<string[]>("tags", deviceTags, splitTags(cells.tags ?? ""));
    if (uid) {
      const first = seen.get(uid.toLowerCase());
      if (first) problem("uid", "devices.import.repeatedUid", { row: first });
      else seen.set(uid.toLowerCase(), line);
    }
    let accountId: string | null = null;
    let siteId: string | null = null;
    let locationId: string | null = null;
    const accountCell = cells.account || options.defaultAccount || "";
    const siteCell = cells.site ?? "";
    const locationCell = cells.location ?? "";
    if (accountCell) {
      const account = accounts.find(accountCell);
      if (!account) problem("account", "devices.import.noSuchAccount");
      else accountId = account.id;
    }
    if (siteCell) {
      if (!accountCell) problem("site", "devices.import.siteNeedsAccount");
      else if (accountId) {
        const site = sitesOf.get(accountId)?.find(siteCell);
        if (!site) problem("site", "devices.import.noSuchSite");
        else siteId = site.id;
      }
    }
    if (locationCell) {
      if (!siteCell) problem("location", "devices.import.locationNeedsSite");
      else if (siteId) {
        const location = locationsOf.get(siteId)?.find(locationCell);
        if (!location) problem("location", "devices.import.noSuchLocation");
        else locationId = location.id;
      }
    }
    if (problems.length === before && uid && brand && model && name !== undefined && tags) {
      rows.push({ line, uid, brand, model, name, tags, accountId, siteId, locationId });
    }
  }

  return { check, result: (): ParsedImport => ({ rows, problems }) };
}

/**
 * Reads and checks a whole file, streamed: the rows to write and every problem, or only the
 * file's problem when it cannot be read to its end (too large, too many rows, not CSV).
 */
export async function checkImportFile(
  source: ReadableStream<Uint8Array>,
  options: Parameters<typeof rowChecker>[0],
): Promise<ParsedImport & { fatal: boolean }> {
  const checker = rowChecker(options);
  const read = await readCsvRecords(source, checker.check);
  if (read.fatal) return { rows: [], problems: read.problems, fatal: true };
  const parsed = checker.result();
  return { rows: parsed.rows, problems: [...read.problems, ...parsed.problems], fatal: false };
}

/**
 * What exists decides create or update: a uid of this organization is updated when asked (else
 * refused), a uid anywhere else is refused in the same words (no hint of another tenant).
 */
export function splitExisting(
  parsed: ParsedImport,
  existing: Map<string, { orgId: string; accountId?: string | null }>,
  orgId: string,
  updateExisting: boolean,
): { creates: ParsedImport["rows"]; updates: ParsedImport["rows"]; problems: ImportProblem[] } {
  const creates: ParsedImport["rows"] = [];
  const updates: ParsedImport["rows"] = [];
  const problems: ImportProblem[] = [];
  for (const row of parsed.rows) {
    const found = existing.get(row.uid);
    if (!found) creates.push(row);
    else if (found.orgId === orgId && updateExisting) updates.push(row);
    else problems.push({ row: row.line, column: "uid", message: "devices.import.uidTaken" });
  }
  return { creates, updates, problems };
}

/**
 * Seats: per account, the radios the import brings in (new ones, and existing ones moved in)
 * against its free seats; the first row past them is the problem, saying how many are free.
 */
export function checkSeats(
  rows: { line: number; accountId: string | null; uid: string }[],
  currentAccount: Map<string, string | null>,
  free: Map<string, number>,
): ImportProblem[] {
  const used = new Map<string, number>();
  const problems: ImportProblem[] = [];
  const reported = new Set<string>();
  for (const row of rows) {
    if (!row.accountId || currentAccount.get(row.uid) === row.accountId) continue;
    const count = (used.get(row.accountId) ?? 0) + 1;
    used.set(row.accountId, count);
    // Radios leaving the account in the same import are not counted as freeing seats (the order of writes is not promised).
    const available = free.get(row.accountId) ?? 0;
    if (count > available && !reported.has(row.accountId)) {
      reported.add(row.accountId);
      problems.push({
        row: row.line,
        column: "account",
        message: "devices.import.noSeats",
        values: { count: available, free: available },
      });
    }
  }
  return problems;
}
