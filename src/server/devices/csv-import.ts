import { parse } from "csv-parse/sync";
import { deviceBrand, deviceModel, deviceName, deviceTags, deviceUid, splitTags } from "@/schema/devices";
import type { ImportRow } from "@/server/data/devices";

/**
 * The CSV import's checks (issue 11): every row read, every problem reported as (row, column,
 * message key), nothing written unless there is none. Columns by header name, in any order:
 * uid, brand, model, name, tags, account, site, location (account, site and location by name
 * or id; tags separated by commas or semicolons).
 */
export const importColumns = ["uid", "brand", "model", "name", "tags", "account", "site", "location"] as const;
export type ImportColumn = (typeof importColumns)[number];

export const IMPORT_MAX_ROWS = 10_000;

/** A problem of one row (1 is the first data row; 0 is the file itself). */
export type ImportProblem = {
  row: number;
  column: ImportColumn | "file";
  message: string;
  values?: Record<string, string | number>;
};

export type Places = {
  accounts: { id: string; name: string }[];
  sites: { id: string; account_id: string; name: string }[];
  locations: { id: string; site_id: string; name: string }[];
};

export type ParsedImport = { rows: (ImportRow & { line: number })[]; problems: ImportProblem[] };

/** Reads the file; an unreadable one is a single problem. */
export function readCsv(text: string): { records: Record<string, string>[]; problems: ImportProblem[] } {
  try {
    const records = parse(text, {
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      skip_empty_lines: true,
      trim: true,
      bom: true,
      relax_column_count: false,
    }) as Record<string, string>[];
    if (records.length === 0) return { records, problems: [{ row: 0, column: "file", message: "devices.import.empty" }] };
    const header = Object.keys(records[0] ?? {});
    if (!header.includes("uid"))
      return { records: [], problems: [{ row: 0, column: "file", message: "devices.import.noUidColumn" }] };
    if (records.length > IMPORT_MAX_ROWS)
      return {
        records: [],
        problems: [{ row: 0, column: "file", message: "devices.import.tooManyRows", values: { max: IMPORT_MAX_ROWS } }],
      };
    return { records, problems: [] };
  } catch {
    return { records: [], problems: [{ row: 0, column: "file", message: "devices.import.unreadable" }] };
  }
}

function byNameOrId<T extends { id: string; name: string }>(items: T[], cell: string): T | undefined {
  const lower = cell.toLowerCase();
  return items.find((item) => item.id === cell) ?? items.find((item) => item.name.toLowerCase() === lower);
}

/**
 * Checks every record: fields, the brand filter, uids repeated in the file, places that exist
 * in the organization. What exists already and seats are checked after, against the database.
 */
export function checkRecords(
  records: Record<string, string>[],
  places: Places,
  brandFilter: string,
  defaultBrand = brandFilter,
): ParsedImport {
  const problems: ImportProblem[] = [];
  const rows: ParsedImport["rows"] = [];
  const seen = new Map<string, number>();
  records.forEach((record, index) => {
    const line = index + 1;
    const before = problems.length;
    const problem = (column: ImportColumn, message: string, values?: Record<string, string | number>) =>
      problems.push({ row: line, column, message, ...(values ? { values } : {}) });
    const check = <T>(
      column: ImportColumn,
      schema: { safeParse: (v: unknown) => { success: boolean; data?: T; error?: { issues: { message: string }[] } } },
      value: unknown,
    ): T | undefined => {
      const result = schema.safeParse(value);
      if (result.success) return result.data;
      problem(column, result.error?.issues[0]?.message ?? "validation.Invalid");
      return undefined;
    };
    const uid = check<string>("uid", deviceUid, record.uid ?? "");
    const brand = check<string>("brand", deviceBrand, record.brand || defaultBrand || "");
    if (brand && brandFilter && brand.toLowerCase() !== brandFilter.toLowerCase())
      problem("brand", "devices.errors.brandNotAllowed");
    const model = check<string>("model", deviceModel, record.model ?? "");
    const name = check<string>("name", deviceName, record.name ?? "");
    const tags = check<string[]>("tags", deviceTags, splitTags(record.tags ?? ""));
    if (uid) {
      const first = seen.get(uid.toLowerCase());
      if (first) problem("uid", "devices.import.repeatedUid", { row: first });
      else seen.set(uid.toLowerCase(), line);
    }
    let accountId: string | null = null;
    let siteId: string | null = null;
    let locationId: string | null = null;
    const accountCell = record.account ?? "";
    const siteCell = record.site ?? "";
    const locationCell = record.location ?? "";
    if (accountCell) {
      const account = byNameOrId(places.accounts, accountCell);
      if (!account) problem("account", "devices.import.noSuchAccount");
      else accountId = account.id;
    }
    if (siteCell) {
      if (!accountCell) problem("site", "devices.import.siteNeedsAccount");
      else if (accountId) {
        const site = byNameOrId(
          places.sites.filter((s) => s.account_id === accountId),
          siteCell,
        );
        if (!site) problem("site", "devices.import.noSuchSite");
        else siteId = site.id;
      }
    }
    if (locationCell) {
      if (!siteCell) problem("location", "devices.import.locationNeedsSite");
      else if (siteId) {
        const location = byNameOrId(
          places.locations.filter((l) => l.site_id === siteId),
          locationCell,
        );
        if (!location) problem("location", "devices.import.noSuchLocation");
        else locationId = location.id;
      }
    }
    if (problems.length === before && uid && brand && model && name !== undefined && tags) {
      rows.push({ line, uid, brand, model, name, tags, accountId, siteId, locationId });
    }
  });
  return { rows, problems };
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
