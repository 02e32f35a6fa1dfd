import { all, type Db, first, newId, now, statement } from "./db";

export type PasskeyDeviceType = "singleDevice" | "multiDevice";

/** A user's WebAuthn credential. credentialId and publicKey are base64url. */
export type Passkey = {
  id: string;
  userId: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  deviceType: PasskeyDeviceType;
  backedUp: boolean;
  createdAt: string;
  lastUsedAt: string | null;
};

type Row = {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  counter: number;
  transports: string;
  name: string;
  device_type: PasskeyDeviceType;
  backed_up: number;
  created_at: string;
  last_used_at: string | null;
};

const columns =
  "id, user_id, credential_id, public_key, counter, transports, name, device_type, backed_up, created_at, last_used_at";

function transportsOf(json: string): string[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === "string") : [];
  } catch {
    return [];
  }
}

function toPasskey(row: Row): Passkey {
  return {
    id: row.id,
    userId: row.user_id,
    credentialId: row.credential_id,
    publicKey: row.public_key,
    counter: row.counter,
    transports: transportsOf(row.transports),
    name: row.name,
    deviceType: row.device_type,
    backedUp: row.backed_up === 1,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

/** A user's passkeys, oldest first (the order they were added in). */
export async function listUserPasskeys(db: Db, userId: string): Promise<Passkey[]> {
  const rows = await all<Row>(db, `SELECT ${columns} FROM passkeys WHERE user_id = ? ORDER BY created_at, id`, userId);
  return rows.map(toPasskey);
}

/** One passkey of one user: another user's id finds nothing. */
export async function findUserPasskey(db: Db, userId: string, id: string): Promise<Passkey | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM passkeys WHERE id = ? AND user_id = ?`, id, userId);
  return row ? toPasskey(row) : null;
}

export async function findPasskeyByCredentialId(db: Db, credentialId: string): Promise<Passkey | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM passkeys WHERE credential_id = ?`, credentialId);
  return row ? toPasskey(row) : null;
}

export async function countUserPasskeys(db: Db, userId: string): Promise<number> {
  const row = await first<{ n: number }>(db, "SELECT COUNT(*) AS n FROM passkeys WHERE user_id = ?", userId);
  return row?.n ?? 0;
}

export type NewPasskey = Omit<Passkey, "id" | "createdAt" | "lastUsedAt">;

export function insertPasskeyStatement(db: Db, passkey: NewPasskey) {
  const id = newId("pk");
  return {
    id,
    statement: statement(
      db,
      `INSERT INTO passkeys (id, user_id, credential_id, public_key, counter, transports, name, device_type, backed_up, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      id,
      passkey.userId,
      passkey.credentialId,
      passkey.publicKey,
      passkey.counter,
      JSON.stringify(passkey.transports),
      passkey.name,
      passkey.deviceType,
      passkey.backedUp ? 1 : 0,
      now(),
    ),
  };
}

/**
 * Records a successful use. The counter moves only forward: the WHERE repeats the check, so
 * of two sign-ins racing with the same counter value only one is written (0 rows = refused).
 * Authenticators without a counter always report 0, which stays allowed.
 */
export async function recordPasskeyUse(
  db: Db,
  use: { id: string; previousCounter: number; newCounter: number; backedUp: boolean; deviceType: PasskeyDeviceType },
): Promise<boolean> {
  const result = await statement(
    db,
    `UPDATE passkeys SET counter = ?, last_used_at = ?, backed_up = ?, device_type = ?
     WHERE id = ? AND counter = ? AND (? > counter OR (? = 0 AND counter = 0))`,
    use.newCounter,
    now(),
    use.backedUp ? 1 : 0,
    use.deviceType,
    use.id,
    use.previousCounter,
    use.newCounter,
    use.newCounter,
  ).run();
  return result.meta.changes === 1;
}

export function renamePasskeyStatement(db: Db, userId: string, id: string, name: string) {
  return statement(db, "UPDATE passkeys SET name = ? WHERE id = ? AND user_id = ?", name, id, userId);
}

export function deletePasskeyStatement(db: Db, userId: string, id: string) {
  return statement(db, "DELETE FROM passkeys WHERE id = ? AND user_id = ?", id, userId);
}
