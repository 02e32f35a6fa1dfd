import type { ContactState, SyncState } from "@/schema/fleet/sync-state";
import type { D1PreparedStatement } from "../cloudflare";
import { all, type Bindable, type Db, first, now, statement } from "./db";
import { type SyncSql, syncSqlOf } from "./fleet-sync";
import { ftsQuery } from "./fts";
import { IN_CONTACT, lastContactSql } from "./radio-contact";

/**
 * Devices (DESIGN.md §7): the organization's inventory of radios, optionally assigned to one
 * of its accounts (taking a seat) and there to a site and a location. Lists page by keyset on
 * the indexes of migration 0012, search goes through the devices_fts word-prefix index (0019), and every
 * seat-taking write is a single conditional statement (the accounts trigger is the last line).
 */
export type DeviceStatus = "active" | "retired";

export type Device = {
  uid: string;
  orgId: string;
  accountId: string | null;
  accountName: string | null;
  siteId: string | null;
  siteName: string | null;
  locationId: string | null;
  locationName: string | null;
  brand: string;
  model: string;
  name: string;
  tags: string[];
  notes: string;
  status: DeviceStatus;
  retiredAt: string | null;
  firmware: string;
  battery: number | null;
  signal: number | null;
  reportedRevision: string | null;
  /** The last contact (15-minute resolution); null: never seen. */
  lastSeenAt: string | null;
  /** In contact within about the last hour (radio-contact.ts): sorted by last seen, these come first, by uid. */
  inContact: boolean;
  redirectUrl: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
};

type Row = {
  uid: string;
  org_id: string;
  account_id: string | null;
  account_name: string | null;
  site_id: string | null;
  site_name: string | null;
  location_id: string | null;
  location_name: string | null;
  brand: string;
  model: string;
  name: string;
  tags: string;
  notes: string;
  status: DeviceStatus;
  retired_at: string | null;
  firmware: string;
  battery: number | null;
  signal: number | null;
  reported_revision: string | null;
  last_contact_at: string | null;
  in_contact: number;
  redirect_url: string | null;
  created_at: string;
  updated_at: string;
  version: number;
};

const columns = `d.uid, d.org_id, d.account_id, a.name AS account_name, d.site_id, s.name AS site_name,
  d.location_id, l.name AS location_name, d.brand, d.model, d.name, d.tags, d.notes, d.status, d.retired_at,
  d.firmware, d.battery, d.signal, d.reported_revision, ${lastContactSql("d")} AS last_contact_at,
  d.last_seen_at IS '${IN_CONTACT}' AS in_contact, d.redirect_url, d.created_at, d.updated_at, d.version`;

const joins = `LEFT JOIN accounts a ON a.id = d.account_id LEFT JOIN sites s ON s.id = d.site_id
  LEFT JOIN locations l ON l.id = d.location_id`;

export function parseTags(json: string): string[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((tag): tag is string => typeof tag === "string") : [];
  } catch {
    return [];
  }
}

function toDevice(row: Row): Device {
  return {
    uid: row.uid,
    orgId: row.org_id,
    accountId: row.account_id,
    accountName: row.account_name,
    siteId: row.site_id,
    siteName: row.site_name,
    locationId: row.location_id,
    locationName: row.location_name,
    brand: row.brand,
    model: row.model,
    name: row.name,
    tags: parseTags(row.tags),
    notes: row.notes,
    status: row.status,
    retiredAt: row.retired_at,
    firmware: row.firmware,
    battery: row.battery,
    signal: row.signal,
    reportedRevision: row.reported_revision,
    lastSeenAt: row.last_contact_at,
    inContact: row.in_contact === 1,
    redirectUrl: row.redirect_url,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
  };
}

export async function findDevice(db: Db, uid: string): Promise<Device | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM devices d ${joins} WHERE d.uid = ?`, uid);
  return row ? toDevice(row) : null;
}

// ── Lists ──────────────────────────────────────────────────────────────────────────────

export const deviceSorts = ["uid", "-uid", "name", "-name", "seen", "-seen"] as const;
export type DeviceSort = (typeof deviceSorts)[number];
export const seenFilters = ["never", "day", "week", "older"] as const;
export type SeenFilter = (typeof seenFilters)[number];

export type DeviceFilter = {
  /** The inventory's owner. */
  orgId: string;
  /** An account's registry: only its radios (uses the account indexes). */
  scopeAccountId?: string | null;
  status?: DeviceStatus;
  /** Filter by account id, or "none" for unassigned radios. */
  account?: string;
  siteId?: string;
  model?: string;
  firmware?: string;
  assignment?: "assigned" | "unassigned";
  seen?: SeenFilter;
  search?: string;
  /** The build-time brand filter (spec §1); empty shows every brand. */
  brand?: string;
  /** A chosen set of radios (bulk actions on a selection). */
  uids?: string[];
  /** Radios in this sync state: needs `states` (sync is defined per account). */
  sync?: SyncState;
  /** Radios in this contact state (seen recently, overdue, never seen). */
  contact?: ContactState;
  /** One account's sync and contact expressions over `d` (fleet-sync.ts), when the list is one account's. */
  states?: SyncSql | null;
};

/** The contact expression over `d` (the same as fleet-sync.ts gives every screen). */
const contactOver = (filter: DeviceFilter, at: Date) => filter.states?.contact ?? syncSqlOf([], "d", at).contact;

/** The WHERE clause of a filter over `devices d`, and its parameters; the time is passed in for tests. */
export function filterSql(
  filter: DeviceFilter,
  at = new Date(),
  { probeStored = false }: { probeStored?: boolean } = {},
): { where: string; params: Bindable[] } {
  const where: string[] = [];
  const params: Bindable[] = [];
  const add = (sql: string, ...values: Bindable[]) => {
    where.push(sql);
    params.push(...values);
  };
  if (filter.scopeAccountId) add("d.account_id = ? AND d.org_id = ?", filter.scopeAccountId, filter.orgId);
  else add("d.org_id = ?", filter.orgId);
  add("d.status = ?", filter.status ?? "active");
  if (filter.brand) add("d.brand = ? COLLATE NOCASE", filter.brand);
  if (filter.account === "none") add("d.account_id IS NULL");
  else if (filter.account) add("d.account_id = ?", filter.account);
  if (filter.assignment === "assigned") add("d.account_id IS NOT NULL");
  if (filter.assignment === "unassigned") add("d.account_id IS NULL");
  if (filter.siteId) add("d.site_id = ?", filter.siteId);
  if (filter.model) add("d.model = ?", filter.model);
  if (filter.firmware) add("d.firmware = ?", filter.firmware);
  if (filter.seen) {
    const day = new Date(at.getTime() - 86_400_000).toISOString();
    const week = new Date(at.getTime() - 7 * 86_400_000).toISOString();
    // On the contact state (radio-contact.ts): a radio in contact holds IN_CONTACT, later than any
    // cutoff; one quiet for over an hour its real last contact. The expression of the *_seen
    // indexes: equality on it keeps the uid order of the index.
    if (filter.seen === "never") add("ifnull(d.last_seen_at, '') = ''");
    if (filter.seen === "day") add("d.last_seen_at >= ?", day);
    if (filter.seen === "week") add("d.last_seen_at >= ?", week);
    if (filter.seen === "older") add("d.last_seen_at < ?", week);
  }
  if (filter.uids) add("d.uid IN (SELECT value FROM json_each(?))", JSON.stringify(filter.uids));
  // The same expressions as every count (fleet-sync.ts), so a filtered list holds what its count says.
  if (filter.contact) add(`(${contactOver(filter, at)}) = ?`, filter.contact);
  if (filter.sync) {
    const stored = filter.states?.stored;
    // A large account's snapshot: its radios in that state by index, either driving the page
    // from them (few) or tested as the page's index walk meets them (many: a page comes soon).
    if (stored && !probeStored && drivesFromStored(filter))
      add(
        "d.rowid IN (SELECT v.rowid FROM radio_sync_states r JOIN devices v ON v.uid = r.uid WHERE r.account_id = ? AND r.sync = ?)",
        stored.accountId,
        filter.sync,
      );
    else if (stored)
      add(
        "EXISTS (SELECT 1 FROM radio_sync_states r WHERE r.uid = d.uid AND r.account_id = ? AND r.sync = ?)",
        stored.accountId,
        filter.sync,
      );
    else if (filter.states) add(`(${filter.states.sync}) = ?`, filter.sync);
    else add("0"); // no single account: the sync state is undefined (resolveFilter refuses it first)
  }
  const search = filter.search?.trim() ?? "";
  if (search.length >= 3) {
    // Word prefixes over uid (and its parts), name, model, firmware and tags (migration 0019);
    // a search of punctuation only has no word to look for and matches nothing.
    const query = ftsQuery(search);
    if (query) add("d.rowid IN (SELECT rowid FROM devices_fts WHERE devices_fts MATCH ?)", query);
    else add("0");
  } else if (search) {
    // Too short for a useful word prefix: a uid prefix, a range on the uid index.
    add("d.uid >= ? AND d.uid < ?", search, `${search}\uffff`);
  }
  return { where: where.join(" AND "), params };
}

/** Whether the page is driven from a filter's matches (a word search, or few radios in a stored sync state). */
function searches(filter: DeviceFilter): boolean {
  const search = filter.search?.trim() ?? "";
  return search.length >= 3 && ftsQuery(search) !== null;
}

/**
 * Up to this many radios in a sync state, a page is made from them (lookups, then a sort); past
 * it, a page's walk down an index meets one every few rows and stops after a page.
 */
const FEW_IN_STATE = 10_000;

function drivesFromStored(filter: DeviceFilter): boolean {
  const stored = filter.states?.stored;
  return Boolean(filter.sync && stored && (stored.radios[filter.sync] ?? 0) <= FEW_IN_STATE);
}

/** The sort key of a row, as the keyset cursor carries it. */
const sortKey: Record<"uid" | "name" | "seen", string> = {
  uid: "d.uid",
  name: "d.name COLLATE NOCASE",
  seen: "ifnull(d.last_seen_at, '')",
};

function sortParts(sort: DeviceSort) {
  const descending = sort.startsWith("-");
  const field = (descending ? sort.slice(1) : sort) as keyof typeof sortKey;
  const direction = descending ? "DESC" : "ASC";
  const order = field === "uid" ? `d.uid ${direction}` : `${sortKey[field]} ${direction}, d.uid ${direction}`;
  return { field, descending, order };
}

/** Where a page ends: the sort value of its last row and its uid. */
export type DeviceCursor = { value: string; uid: string };

export function cursorOf(device: Device, sort: DeviceSort): DeviceCursor {
  const { field } = sortParts(sort);
  const seen = device.inContact ? IN_CONTACT : (device.lastSeenAt ?? "");
  const value = field === "name" ? device.name : field === "seen" ? seen : device.uid;
  return { value, uid: device.uid };
}

/**
 * One page of radios after a cursor (keyset: no OFFSET; the page's rows are chosen on the
 * indexes first, then joined with their account, site and location names). Asks for one row
 * more than the page to know whether there is a next page without counting.
 */
/** A radio as the inventory lists it: with its contact state, and its sync state when the list is one account's. */
export type ListedDevice = Device & { sync: SyncState | null; contact: ContactState };

export async function listDevices(
  db: Db,
  filter: DeviceFilter,
  { sort = "uid", after = null, limit = 50 }: { sort?: DeviceSort; after?: DeviceCursor | null; limit?: number },
  at = new Date(),
): Promise<{ items: ListedDevice[]; next: DeviceCursor | null }> {
  const { field, descending, order } = sortParts(sort);
  // A sync filter of a large account's snapshot in uid order walks its stored states' index (account,
  // state, uid): a page reads a page of them, however rare the state.
  const stored = filter.sync ? filter.states?.stored : undefined;
  const walk = stored && field === "uid" && !searches(filter) ? { accountId: stored.accountId, sync: filter.sync } : null;
  const { where, params } = filterSql(filter, at, { probeStored: Boolean(walk) });
  const states = `${filter.states ? filter.states.sync : "NULL"} AS sync_state, ${contactOver(filter, at)} AS contact_state`;
  const clauses = [where];
  const values: Bindable[] = walk ? [walk.accountId, walk.sync ?? null, ...params] : [...params];
  if (after) {
    const op = descending ? "<" : ">";
    if (field === "uid") {
      clauses.push(`${walk ? "r" : "d"}.uid ${op} ?`);
      values.push(after.uid);
    } else {
      clauses.push(`(${sortKey[field]}, d.uid) ${op} (?, ?)`);
      values.push(after.value, after.uid);
    }
  }
  const rows = await all<Row & { sync_state: SyncState | null; contact_state: ContactState }>(
    db,
    // A search drives the page from its matches (rowid lookups, then a sort of the matches): left to
    // itself the planner walks the whole fleet in uid order, testing each radio against the matches.
    `WITH page AS (${
      walk
        ? `SELECT d.rowid AS row FROM radio_sync_states r CROSS JOIN devices d ON d.uid = r.uid
           WHERE r.account_id = ? AND r.sync = ? AND ${clauses.join(" AND ")} ORDER BY r.uid ${descending ? "DESC" : "ASC"} LIMIT ?`
        : `SELECT d.rowid AS row FROM devices d ${searches(filter) || drivesFromStored(filter) ? "NOT INDEXED" : ""}
           WHERE ${clauses.join(" AND ")} ORDER BY ${order} LIMIT ?`
    })
     SELECT ${columns}, ${states} FROM devices d ${joins} WHERE d.rowid IN (SELECT row FROM page) ORDER BY ${order}`,
    ...values,
    limit + 1,
  );
  const items = rows.slice(0, limit).map((row) => ({ ...toDevice(row), sync: row.sync_state, contact: row.contact_state }));
  const last = items[items.length - 1];
  return { items, next: rows.length > limit && last ? cursorOf(last, sort) : null };
}

/** Every radio matching a filter, a page at a time (for streamed exports); never all in memory. */
export async function* eachDevice(db: Db, filter: DeviceFilter, pageSize = 1000): AsyncGenerator<ListedDevice> {
  let after: DeviceCursor | null = null;
  do {
    const page: { items: ListedDevice[]; next: DeviceCursor | null } = await listDevices(db, filter, { after, limit: pageSize });
    for (const device of page.items) yield device;
    after = page.next;
  } while (after);
}

/** Distinct models and firmware of an inventory (the filter choices), read from the model index. */
export async function deviceFacets(
  db: Db,
  filter: Pick<DeviceFilter, "orgId" | "scopeAccountId">,
  limit = 100,
): Promise<{ models: string[]; firmware: string[] }> {
  const scope = filter.scopeAccountId ? "account_id = ? AND org_id = ?" : "org_id = ?";
  const params: Bindable[] = filter.scopeAccountId ? [filter.scopeAccountId, filter.orgId] : [filter.orgId];
  // A skip-scan over (scope, status, model, firmware): one probe per distinct value, not a row scan.
  const [models, firmware] = await Promise.all([
    all<{ v: string }>(
      db,
      `SELECT DISTINCT model AS v FROM devices WHERE ${scope} AND status = 'active' ORDER BY model LIMIT ?`,
      ...params,
      limit,
    ),
    all<{ v: string }>(
      db,
      `SELECT DISTINCT firmware AS v FROM devices WHERE ${scope} AND status = 'active' AND firmware <> '' ORDER BY firmware LIMIT ?`,
      ...params,
      limit,
    ),
  ]);
  return { models: models.map((r) => r.v), firmware: firmware.map((r) => r.v) };
}

// ── Counts ─────────────────────────────────────────────────────────────────────────────

/** Seats of an account: allocated, in use and free. */
export async function accountSeats(db: Db, accountId: string): Promise<{ allocated: number; inUse: number; free: number }> {
  const row = await first<{ allocated: number; in_use: number }>(
    db,
    `SELECT (SELECT COALESCE(SUM(quantity), 0) FROM allocations WHERE account_id = ?1) AS allocated,
       (SELECT devices_in_use FROM accounts WHERE id = ?1) AS in_use`,
    accountId,
  );
  const allocated = row?.allocated ?? 0;
  const inUse = row?.in_use ?? 0;
  return { allocated, inUse, free: Math.max(0, allocated - inUse) };
}

// ── Writes ─────────────────────────────────────────────────────────────────────────────

/**
 * The seat condition as SQL for `n` more radios in account `?`: the account's counter plus n
 * stays within its allocations. Bound as (accountId, n, accountId).
 */
const seatsFor = `(SELECT devices_in_use + ? FROM accounts WHERE id = ?) <= (SELECT COALESCE(SUM(quantity), 0) FROM allocations WHERE account_id = ?)`;

export type NewDevice = {
  uid: string;
  orgId: string;
  accountId: string | null;
  siteId: string | null;
  locationId: string | null;
  brand: string;
  model: string;
  name: string;
  tags: string[];
  notes: string;
  secretHash: string;
};

/**
 * Registers a radio: one conditional INSERT (no row when its account has no free seat) and
 * its tag rows. A uid that exists anywhere fails the batch on the primary key.
 */
export function insertDeviceStatements(db: Db, device: NewDevice): D1PreparedStatement[] {
  const at = now();
  return [
    statement(
      db,
      `INSERT INTO devices (uid, org_id, account_id, site_id, location_id, brand, model, name, tags, notes, secret_hash,
         deployed_site_id, deployed_location_id, deployed_model, deployed_tags, attributes_changed_at, created_at, updated_at)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL, '[]', ?, ?, ?
       WHERE ? IS NULL OR ${seatsFor}`,
      device.uid,
      device.orgId,
      device.accountId,
      device.siteId,
      device.locationId,
      device.brand,
      device.model,
      device.name,
      JSON.stringify(device.tags),
      device.notes,
      device.secretHash,
      device.accountId ? at : null,
      at,
      at,
      device.accountId,
      1,
      device.accountId,
      device.accountId,
    ),
    ...tagRows(db, device.uid, device.tags),
  ];
}

function tagRows(db: Db, uid: string, tags: string[]): D1PreparedStatement[] {
  if (tags.length === 0) return [];
  return [
    statement(
      db,
      "INSERT OR IGNORE INTO device_tags (uid, tag) SELECT ?, lower(value) FROM json_each(?) WHERE EXISTS (SELECT 1 FROM devices WHERE uid = ?)",
      uid,
      JSON.stringify(tags),
      uid,
    ),
  ];
}

/** Replaces a radio's name, model, tags and notes at `version`; a model or tag change is a change to deploy. */
export function updateDeviceStatements(
  db: Db,
  input: { uid: string; orgId: string; version: number; name: string; model: string; tags: string[]; notes: string },
): D1PreparedStatement[] {
  const at = now();
  const tags = JSON.stringify(input.tags);
  return [
    statement(
      db,
      `UPDATE devices SET name = ?, model = ?, tags = ?, notes = ?, updated_at = ?, version = version + 1,
         attributes_changed_at = CASE WHEN account_id IS NOT NULL AND (model IS NOT ? OR tags IS NOT ?) THEN ? ELSE attributes_changed_at END
       WHERE uid = ? AND org_id = ? AND version = ?`,
      input.name,
      input.model,
      tags,
      input.notes,
      at,
      input.model,
      tags,
      at,
      input.uid,
      input.orgId,
      input.version,
    ),
    statement(
      db,
      "DELETE FROM device_tags WHERE uid = ? AND tag NOT IN (SELECT lower(value) FROM json_each(?))",
      input.uid,
      tags,
    ),
    ...tagRows(db, input.uid, input.tags),
  ];
}

export type Assignment = { accountId: string | null; siteId: string | null; locationId: string | null };

/**
 * The place of an assignment still holds when the statement runs: the site is the account's,
 * the location that site's (the procedures check it first, with a field message; this keeps a
 * site or location moved meanwhile out). Parameters as SQL expressions.
 */
function placeHolds(account: string, site: string, location: string): string {
  return `(${site} IS NULL OR EXISTS (SELECT 1 FROM sites WHERE id = ${site} AND account_id = ${account}))
       AND (${location} IS NULL OR EXISTS (SELECT 1 FROM locations WHERE id = ${location} AND site_id = ${site}))`;
}

/**
 * Moves one radio to an account (and site, location) or back to the inventory, at `version`:
 * ONE conditional UPDATE that takes a seat only while the target account has one free (staying
 * in the same account takes none). No row changed means stale, no seat or a place that no
 * longer holds; the caller tells which. The accounts trigger aborts anything that slips past
 * (never expected).
 */
export function assignStatement(db: Db, input: Assignment & { uid: string; orgId: string; version: number }) {
  const at = now();
  return statement(
    db,
    `UPDATE devices SET account_id = ?1, site_id = ?2, location_id = ?3, updated_at = ?4, version = version + 1,
       attributes_changed_at = CASE WHEN site_id IS NOT ?2 OR location_id IS NOT ?3 OR account_id IS NOT ?1 THEN ?4 ELSE attributes_changed_at END
     WHERE uid = ?5 AND org_id = ?6 AND version = ?7 AND ${placeHolds("?1", "?2", "?3")}
       AND (?1 IS NULL OR account_id IS ?1 OR status = 'retired'
            OR (SELECT devices_in_use + 1 FROM accounts WHERE id = ?1) <= (SELECT COALESCE(SUM(quantity), 0) FROM allocations WHERE account_id = ?1))`,
    input.accountId,
    input.siteId,
    input.locationId,
    at,
    input.uid,
    input.orgId,
    input.version,
  );
}

/**
 * Bulk assignment of every radio matching a filter to one account (and site, location), with an
 * activity entry per radio: the entries first (they name the radios while the filter still
 * matches), then one UPDATE. Both are guarded by the seats the moving radios need, counted in
 * the same statement (radios already in that account take none); the trigger is the last line.
 */
export function bulkAssignStatements(
  db: Db,
  filter: DeviceFilter,
  target: Assignment,
  entry: { actor: { id: string; email: string }; diff: unknown },
): D1PreparedStatement[] {
  const { where, params } = filterSql(filter);
  const at = now();
  const guard = target.accountId
    ? `(SELECT devices_in_use FROM accounts WHERE id = ?) + (SELECT count(*) FROM devices d WHERE ${where} AND d.status = 'active' AND d.account_id IS NOT ?)
         <= (SELECT COALESCE(SUM(quantity), 0) FROM allocations WHERE account_id = ?) AND ${placeHolds("?", "?", "?")}`
    : "1";
  const guardParams: Bindable[] = target.accountId
    ? [
        target.accountId,
        ...params,
        target.accountId,
        target.accountId,
        // placeHolds, in the order its placeholders appear: site, site, account, location, location, site.
        target.siteId,
        target.siteId,
        target.accountId,
        target.locationId,
        target.locationId,
        target.siteId,
      ]
    : [];
  return [
    statement(
      db,
      `INSERT INTO activity_logs (id, org_id, account_id, actor_id, actor_email, action, entity_type, entity_id, entity_label, diff, deployable, created_at)
       SELECT 'log_' || lower(hex(randomblob(10))), d.org_id, COALESCE(?, d.account_id), ?, ?, 'update', 'device', d.uid,
         CASE WHEN d.name = '' THEN d.uid ELSE d.name END, ?, 1, ?
       FROM devices d WHERE ${where} AND ${guard}`,
      target.accountId,
      entry.actor.id,
      entry.actor.email,
      JSON.stringify(entry.diff),
      at,
      ...params,
      ...guardParams,
    ),
    statement(
      db,
      `UPDATE devices SET account_id = ?, site_id = ?, location_id = ?, updated_at = ?, version = version + 1,
         attributes_changed_at = ?
       WHERE rowid IN (SELECT d.rowid FROM devices d WHERE ${where}) AND ${guard}`,
      target.accountId,
      target.siteId,
      target.locationId,
      at,
      at,
      ...params,
      ...guardParams,
    ),
  ];
}

/** Adds or removes one tag on every radio matching a filter (and its device_tags rows), in order for one batch. */
export function bulkTagStatements(db: Db, filter: DeviceFilter, tag: string, add: boolean): D1PreparedStatement[] {
  const { where, params } = filterSql(filter);
  const at = now();
  const has = "EXISTS (SELECT 1 FROM json_each(d.tags) WHERE lower(value) = lower(?))";
  if (add) {
    return [
      statement(
        db,
        `UPDATE devices SET tags = json_insert(tags, '$[#]', ?), updated_at = ?, version = version + 1,
           attributes_changed_at = CASE WHEN account_id IS NOT NULL THEN ? ELSE attributes_changed_at END
         WHERE rowid IN (SELECT d.rowid FROM devices d WHERE ${where} AND NOT ${has} AND json_array_length(d.tags) < 20)`,
        tag,
        at,
        at,
        ...params,
        tag,
      ),
      statement(
        db,
        `INSERT OR IGNORE INTO device_tags (uid, tag) SELECT d.uid, lower(?) FROM devices d WHERE ${where} AND ${has}`,
        tag,
        ...params,
        tag,
      ),
    ];
  }
  return [
    statement(
      db,
      `UPDATE devices SET tags = (SELECT json_group_array(value) FROM json_each(devices.tags) WHERE lower(value) <> lower(?)),
         updated_at = ?, version = version + 1,
         attributes_changed_at = CASE WHEN account_id IS NOT NULL THEN ? ELSE attributes_changed_at END
       WHERE rowid IN (SELECT d.rowid FROM devices d WHERE ${where} AND ${has})`,
      tag,
      at,
      at,
      ...params,
      tag,
    ),
    statement(
      db,
      `DELETE FROM device_tags WHERE tag = lower(?) AND uid IN (SELECT d.uid FROM devices d WHERE ${where})`,
      tag,
      ...params,
    ),
  ];
}

/** One activity entry per radio matching a filter (before the change that may unmatch them), in one statement. */
export function bulkActivityStatement(
  db: Db,
  filter: DeviceFilter,
  entry: {
    actor: { id: string; email: string };
    diff: unknown;
    deployable: boolean;
    extraWhere?: string;
    extraParams?: Bindable[];
  },
) {
  const { where, params } = filterSql(filter);
  return statement(
    db,
    `INSERT INTO activity_logs (id, org_id, account_id, actor_id, actor_email, action, entity_type, entity_id, entity_label, diff, deployable, created_at)
     SELECT 'log_' || lower(hex(randomblob(10))), d.org_id, d.account_id, ?, ?, 'update', 'device', d.uid,
       CASE WHEN d.name = '' THEN d.uid ELSE d.name END, ?, CASE WHEN ? = 1 AND d.account_id IS NOT NULL THEN 1 ELSE 0 END, ?
     FROM devices d WHERE ${where} ${entry.extraWhere ?? ""}`,
    entry.actor.id,
    entry.actor.email,
    JSON.stringify(entry.diff),
    entry.deployable ? 1 : 0,
    now(),
    ...params,
    ...(entry.extraParams ?? []),
  );
}

/** The tag condition of bulk tagging, for its activity entries: radios the change will touch. */
export function tagChangeWhere(add: boolean): string {
  const has = "EXISTS (SELECT 1 FROM json_each(d.tags) WHERE lower(value) = lower(?))";
  return add ? `AND NOT ${has} AND json_array_length(d.tags) < 20` : `AND ${has}`;
}

/** How many radios match a filter, capped (bulk confirmations say "1,000 or more", never a full count). */
export async function countDevices(
  db: Db,
  filter: DeviceFilter,
  cap = 10_000,
  extra: { where: string; params: Bindable[] } = { where: "", params: [] },
): Promise<number> {
  const { where, params } = filterSql(filter);
  const row = await first<{ n: number }>(
    db,
    `SELECT count(*) AS n FROM (SELECT 1 FROM devices d WHERE ${where} ${extra.where} LIMIT ?)`,
    ...params,
    ...extra.params,
    cap,
  );
  return row?.n ?? 0;
}

/** The uids of the radios matching a filter whose account is not `accountId` (those a bulk move takes out of their account). */
export async function uidsLeavingAccount(db: Db, filter: DeviceFilter, accountId: string | null): Promise<string[]> {
  const { where, params } = filterSql(filter);
  const rows = await all<{ uid: string }>(
    db,
    `SELECT d.uid FROM devices d WHERE ${where} AND d.account_id IS NOT ?`,
    ...params,
    accountId,
  );
  return rows.map((row) => row.uid);
}

export function rotateSecretStatement(db: Db, input: { uid: string; orgId: string; version: number; secretHash: string }) {
  return statement(
    db,
    "UPDATE devices SET secret_hash = ?, updated_at = ?, version = version + 1 WHERE uid = ? AND org_id = ? AND version = ?",
    input.secretHash,
    now(),
    input.uid,
    input.orgId,
    input.version,
  );
}

/** Retires a radio: its seat is freed (the trigger), its place cleared, its history kept. */
export function retireStatement(db: Db, input: { uid: string; orgId: string; version: number }) {
  const at = now();
  return statement(
    db,
    `UPDATE devices SET status = 'retired', retired_at = ?, account_id = NULL, site_id = NULL, location_id = NULL,
       updated_at = ?, version = version + 1
     WHERE uid = ? AND org_id = ? AND version = ? AND status = 'active'`,
    at,
    at,
    input.uid,
    input.orgId,
    input.version,
  );
}

/** Unassigns every radio of an account still at `version` (before it is deleted, in the same batch). */
export function unassignAccountDevicesStatement(db: Db, accountId: string, accountVersion: number) {
  return statement(
    db,
    `UPDATE devices SET account_id = NULL, site_id = NULL, location_id = NULL, updated_at = ?, version = version + 1
     WHERE account_id = ? AND EXISTS (SELECT 1 FROM accounts WHERE id = ? AND version = ?)`,
    now(),
    accountId,
    accountId,
    accountVersion,
  );
}

/** A site's id of this account and, when given, a location of that site; false when either is not. */
export async function placeBelongs(
  db: Db,
  accountId: string,
  siteId: string | null,
  locationId: string | null,
): Promise<boolean> {
  if (!siteId) return locationId === null;
  const row = await first<{ ok: number }>(
    db,
    `SELECT 1 AS ok FROM sites s WHERE s.id = ? AND s.account_id = ?
       AND (? IS NULL OR EXISTS (SELECT 1 FROM locations l WHERE l.id = ? AND l.site_id = s.id))`,
    siteId,
    accountId,
    locationId,
    locationId,
  );
  return row !== null;
}

/** The uids of a list that exist already (anywhere), for imports. */
export async function existingUids(db: Db, uids: string[]): Promise<Map<string, { orgId: string; accountId: string | null }>> {
  const found = new Map<string, { orgId: string; accountId: string | null }>();
  for (let i = 0; i < uids.length; i += 5000) {
    const rows = await all<{ uid: string; org_id: string; account_id: string | null }>(
      db,
      "SELECT uid, org_id, account_id FROM devices WHERE uid IN (SELECT value FROM json_each(?))",
      JSON.stringify(uids.slice(i, i + 5000)),
    );
    for (const row of rows) found.set(row.uid, { orgId: row.org_id, accountId: row.account_id });
  }
  return found;
}

// ── Import ─────────────────────────────────────────────────────────────────────────────

/** A checked CSV row, ready to write (ids resolved). */
export type ImportRow = {
  uid: string;
  brand: string;
  model: string;
  name: string;
  tags: string[];
  accountId: string | null;
  siteId: string | null;
  locationId: string | null;
  /** New radios only. */
  secretHash?: string;
};

/**
 * Rows per statement of an import, and the most bytes of JSON one statement binds: D1 allows a
 * bound string of 2 MB and 100 KB of SQL (which stays a few hundred bytes here, with at most 5
 * parameters), and a row of the longest fields is about 2 KB of JSON.
 */
const IMPORT_CHUNK_ROWS = 1000;
const IMPORT_CHUNK_BYTES = 512 * 1024;

/** Rows as JSON texts for json_each, each at most IMPORT_CHUNK_ROWS rows and about IMPORT_CHUNK_BYTES. */
export function importChunks(rows: ImportRow[]): string[] {
  const chunks: string[] = [];
  let items: string[] = [];
  let bytes = 0;
  const flush = () => {
    if (items.length) chunks.push(`[${items.join(",")}]`);
    items = [];
    bytes = 0;
  };
  const encoder = new TextEncoder();
  for (const row of rows) {
    const item = JSON.stringify({ ...row, tags: JSON.stringify(row.tags) });
    const size = encoder.encode(item).byteLength + 1;
    if (items.length === IMPORT_CHUNK_ROWS || (items.length > 0 && bytes + size > IMPORT_CHUNK_BYTES)) flush();
    items.push(item);
    bytes += size;
  }
  flush();
  return chunks;
}

const field = (name: string) => `json_extract(value, '$.${name}')`;

/**
 * The statements of an import, for ONE batch (all or nothing): rows go in chunks through
 * json_each (importChunks), so 10,000 radios are a few dozen statements, not tens of thousands. Seats are the
 * accounts trigger's to guard here: the dry run has checked them, and a race fails the batch.
 */
export function importStatements(
  db: Db,
  input: { orgId: string; actor: { id: string; email: string }; creates: ImportRow[]; updates: ImportRow[] },
): D1PreparedStatement[] {
  const at = now();
  const statements: D1PreparedStatement[] = [];
  const activity = (chunk: string, action: "create" | "update") =>
    statement(
      db,
      `INSERT INTO activity_logs (id, org_id, account_id, actor_id, actor_email, action, entity_type, entity_id, entity_label, diff, deployable, created_at)
       SELECT 'log_' || lower(hex(randomblob(10))), ?, ${field("accountId")}, ?, ?, ?, 'device', ${field("uid")},
         CASE WHEN ${field("name")} = '' THEN ${field("uid")} ELSE ${field("name")} END,
         json_object('import', json_object('after', json_object('model', ${field("model")}, 'tags', json(${field("tags")}),
           'account', ${field("accountId")}, 'site', ${field("siteId")}, 'location', ${field("locationId")}))),
         CASE WHEN ${field("accountId")} IS NULL THEN 0 ELSE 1 END, ?
       FROM json_each(?)`,
      input.orgId,
      input.actor.id,
      input.actor.email,
      action,
      at,
      chunk,
    );
  const tags = (chunk: string) =>
    statement(
      db,
      `INSERT OR IGNORE INTO device_tags (uid, tag)
       SELECT json_extract(j.value, '$.uid'), lower(t.value) FROM json_each(?) j, json_each(json_extract(j.value, '$.tags')) t`,
      chunk,
    );
  for (const chunk of importChunks(input.creates)) {
    statements.push(
      statement(
        db,
        `INSERT INTO devices (uid, org_id, account_id, site_id, location_id, brand, model, name, tags, secret_hash,
           attributes_changed_at, created_at, updated_at)
         SELECT ${field("uid")}, ?, ${field("accountId")}, ${field("siteId")}, ${field("locationId")}, ${field("brand")},
           ${field("model")}, ${field("name")}, ${field("tags")}, ${field("secretHash")},
           CASE WHEN ${field("accountId")} IS NULL THEN NULL ELSE ? END, ?, ?
         FROM json_each(?)`,
        input.orgId,
        at,
        at,
        at,
        chunk,
      ),
      tags(chunk),
      activity(chunk, "create"),
    );
  }
  for (const chunk of importChunks(input.updates)) {
    statements.push(
      statement(
        db,
        `UPDATE devices SET brand = j.brand, model = j.model, name = j.name, tags = j.tags, account_id = j.account_id,
           site_id = j.site_id, location_id = j.location_id, updated_at = ?, version = devices.version + 1,
           attributes_changed_at = CASE
             WHEN j.account_id IS NOT devices.account_id OR j.site_id IS NOT devices.site_id OR j.location_id IS NOT devices.location_id
               OR j.model IS NOT devices.model OR j.tags IS NOT devices.tags THEN ? ELSE devices.attributes_changed_at END
         FROM (SELECT ${field("uid")} AS uid, ${field("brand")} AS brand, ${field("model")} AS model, ${field("name")} AS name,
                 ${field("tags")} AS tags, ${field("accountId")} AS account_id, ${field("siteId")} AS site_id,
                 ${field("locationId")} AS location_id FROM json_each(?)) AS j
         WHERE devices.uid = j.uid AND devices.org_id = ? AND devices.status = 'active'`,
        at,
        at,
        chunk,
        input.orgId,
      ),
      statement(db, `DELETE FROM device_tags WHERE uid IN (SELECT ${field("uid")} FROM json_each(?))`, chunk),
      tags(chunk),
      activity(chunk, "update"),
    );
  }
  return statements;
}

/** An organization's accounts and their sites and locations by name (lower case) and id, for resolving CSV cells. */
export async function importPlaces(db: Db, orgId: string) {
  const [accounts, sites, locations] = await Promise.all([
    all<{ id: string; name: string }>(db, "SELECT id, name FROM accounts WHERE org_id = ?", orgId),
    all<{ id: string; account_id: string; name: string }>(
      db,
      "SELECT s.id, s.account_id, s.name FROM sites s JOIN accounts a ON a.id = s.account_id WHERE a.org_id = ?",
      orgId,
    ),
    all<{ id: string; site_id: string; name: string }>(
      db,
      "SELECT l.id, l.site_id, l.name FROM locations l JOIN accounts a ON a.id = l.account_id WHERE a.org_id = ?",
      orgId,
    ),
  ]);
  return { accounts, sites, locations };
}

/** An account's places as choices: each site, and each location under its site (by name). */
export async function placeOptions(
  db: Db,
  accountId: string,
): Promise<{ siteId: string; locationId: string | null; label: string }[]> {
  const rows = await all<{ site_id: string; site_name: string; location_id: string | null; location_name: string | null }>(
    db,
    `SELECT s.id AS site_id, s.name AS site_name, l.id AS location_id, l.name AS location_name
     FROM sites s LEFT JOIN locations l ON l.site_id = s.id
     WHERE s.account_id = ? ORDER BY s.name COLLATE NOCASE, s.id, l.name COLLATE NOCASE LIMIT 500`,
    accountId,
  );
  const options: { siteId: string; locationId: string | null; label: string }[] = [];
  let lastSite = "";
  for (const row of rows) {
    if (row.site_id !== lastSite) options.push({ siteId: row.site_id, locationId: null, label: row.site_name });
    lastSite = row.site_id;
    if (row.location_id)
      options.push({ siteId: row.site_id, locationId: row.location_id, label: `${row.site_name} › ${row.location_name}` });
  }
  return options;
}

// ── Places going away ──────────────────────────────────────────────────────────────────

/**
 * Radios at a site being deleted lose their place (site and location), in the deletion's own
 * batch and only while the site is still at the version the deletion was asked on: a stale
 * deletion moves no radio. Their attributes changed, so the protocol recomputes their config.
 */
export function unplaceFromSiteStatement(db: Db, input: { accountId: string; siteId: string; siteVersion: number }) {
  return statement(
    db,
    `UPDATE devices SET site_id = NULL, location_id = NULL, updated_at = ?1, version = version + 1, attributes_changed_at = ?1
     WHERE account_id = ?2 AND site_id = ?3
       AND EXISTS (SELECT 1 FROM sites WHERE id = ?3 AND account_id = ?2 AND version = ?4)`,
    now(),
    input.accountId,
    input.siteId,
    input.siteVersion,
  );
}

/** The same for a location being deleted: its radios stay at the site, without a location. */
export function unplaceFromLocationStatement(db: Db, input: { accountId: string; locationId: string; locationVersion: number }) {
  return statement(
    db,
    `UPDATE devices SET location_id = NULL, updated_at = ?1, version = version + 1, attributes_changed_at = ?1
     WHERE account_id = ?2 AND location_id = ?3
       AND EXISTS (SELECT 1 FROM locations WHERE id = ?3 AND account_id = ?2 AND version = ?4)`,
    now(),
    input.accountId,
    input.locationId,
    input.locationVersion,
  );
}

/**
 * Radios at a location that moves to another site of its account move with it (a radio's
 * location is always of its site), as a change to deploy; before the location's own update in
 * the batch, guarded by its version, so a stale move moves nothing.
 */
export function followLocationStatement(
  db: Db,
  input: { accountId: string; locationId: string; locationVersion: number; siteId: string },
) {
  return statement(
    db,
    `UPDATE devices SET site_id = ?5, updated_at = ?1, version = version + 1, attributes_changed_at = ?1
     WHERE account_id = ?2 AND location_id = ?3 AND site_id IS NOT ?5
       AND EXISTS (SELECT 1 FROM locations WHERE id = ?3 AND account_id = ?2 AND version = ?4)`,
    now(),
    input.accountId,
    input.locationId,
    input.locationVersion,
    input.siteId,
  );
}

/**
 * One activity entry per radio a deleted site or location unplaces (spec: place changes are
 * activity), in one statement, put in the batch before the unplacing: same conditions, so a
 * stale deletion logs nothing. Not deployable: the place's own deletion entry is the change.
 */
export function unplaceActivityStatement(
  db: Db,
  input: {
    accountId: string;
    place: { kind: "site" | "location"; id: string; name: string; version: number };
    actor: { id: string; email: string };
  },
) {
  const { kind } = input.place;
  const table = kind === "site" ? "sites" : "locations";
  const column = kind === "site" ? "site_id" : "location_id";
  // The site change also takes the location; the entry says the place the radio left.
  const diff =
    kind === "site"
      ? { site: { before: input.place.name, after: null } }
      : { location: { before: input.place.name, after: null } };
  return statement(
    db,
    `INSERT INTO activity_logs (id, org_id, account_id, actor_id, actor_email, action, entity_type, entity_id, entity_label, diff, deployable, created_at)
     SELECT 'log_' || lower(hex(randomblob(10))), d.org_id, d.account_id, ?1, ?2, 'update', 'device', d.uid,
       CASE WHEN d.name = '' THEN d.uid ELSE d.name END, ?3, 0, ?4
     FROM devices d
     WHERE d.account_id = ?5 AND d.${column} = ?6
       AND EXISTS (SELECT 1 FROM ${table} WHERE id = ?6 AND account_id = ?5 AND version = ?7)`,
    input.actor.id,
    input.actor.email,
    JSON.stringify(diff),
    now(),
    input.accountId,
    input.place.id,
    input.place.version,
  );
}
