import { all, type Db, first, statement } from "./db";
import { ftsQuery, ftsRowids } from "./fts";
import { type Cursor, keysetWhere, order, type Page, pageOf } from "./keyset";

/** The people who call the desk (issue 15), per account, with the radios they use. */
export type FcCustomer = { id: string; accountId: string; name: string; phone: string; email: string; version: number };

type Row = { id: string; account_id: string; name: string; phone: string; email: string; version: number; rowid: number };

const toCustomer = (r: Row): FcCustomer => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  phone: r.phone,
  email: r.email,
  version: r.version,
});

const byName = order("asc", ["c.name COLLATE NOCASE", "c.id"]);

/** One page of an account's customers by name; a search goes through fc_customers_fts. */
export async function listCustomers(
  db: Db,
  input: { accountId: string; search: string; cursor: Cursor | null; limit: number },
): Promise<Page<FcCustomer>> {
  const page = keysetWhere(byName, input.cursor, input.limit);
  const query = input.search.trim() ? ftsQuery(input.search) : null;
  if (input.search.trim() && !query) return { items: [], next: null, previous: null };
  const fts = query ? ftsRowids("fc_customers", query) : null;
  const rows = await all<Row>(
    db,
    `SELECT c.id, c.account_id, c.name, c.phone, c.email, c.version, c.rowid FROM fc_customers c
     WHERE c.account_id = ? ${fts ? `AND c.rowid IN (${fts.sql})` : ""} AND ${page.where}
     ORDER BY ${page.orderBy} LIMIT ?`,
    input.accountId,
    ...(fts ? fts.params : []),
    ...page.params,
    page.limit,
  );
  return pageOf(rows, page, (r) => [r.name, r.id], toCustomer);
}

export async function findCustomer(db: Db, id: string): Promise<FcCustomer | null> {
  const row = await first<Row>(
    db,
    "SELECT id, account_id, name, phone, email, version, rowid FROM fc_customers WHERE id = ?",
    id,
  );
  return row ? toCustomer(row) : null;
}

export async function customerRadios(db: Db, customerId: string): Promise<string[]> {
  const rows = await all<{ uid: string }>(
    db,
    "SELECT uid FROM fc_customer_radios WHERE customer_id = ? ORDER BY uid",
    customerId,
  );
  return rows.map((r) => r.uid);
}

export function insertCustomerStatements(
  db: Db,
  c: { id: string; accountId: string; name: string; phone: string; email: string; uids: string[] },
) {
  return [
    statement(
      db,
      "INSERT INTO fc_customers (id, account_id, name, phone, email) VALUES (?, ?, ?, ?, ?)",
      c.id,
      c.accountId,
      c.name,
      c.phone,
      c.email,
    ),
    ...c.uids.map((uid) => statement(db, "INSERT OR IGNORE INTO fc_customer_radios (customer_id, uid) VALUES (?, ?)", c.id, uid)),
  ];
}

/** Name, phone, email and radios, version-checked: the first statement changes no row when stale. */
export function updateCustomerStatements(
  db: Db,
  c: { id: string; version: number; name: string; phone: string; email: string; uids: string[] },
) {
  const fresh = "EXISTS (SELECT 1 FROM fc_customers WHERE id = ? AND version = ?)";
  return [
    statement(
      db,
      "UPDATE fc_customers SET name = ?, phone = ?, email = ?, version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
      c.name,
      c.phone,
      c.email,
      new Date().toISOString(),
      c.id,
      c.version,
    ),
    // The radios change only with the row (the version has moved on by one when it did).
    statement(db, `DELETE FROM fc_customer_radios WHERE customer_id = ? AND ${fresh}`, c.id, c.id, c.version + 1),
    ...c.uids.map((uid) =>
      statement(
        db,
        `INSERT OR IGNORE INTO fc_customer_radios (customer_id, uid) SELECT ?, ? WHERE ${fresh}`,
        c.id,
        uid,
        c.id,
        c.version + 1,
      ),
    ),
  ];
}
