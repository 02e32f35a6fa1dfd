import type { Language } from "../../schema/languages";
import type { Role } from "../auth/roles";
import { type Db, first, newId, now, statement } from "./db";

export type UserStatus = "invited" | "active" | "disabled";

export type User = {
  id: string;
  orgId: string;
  email: string;
  name: string;
  role: Role;
  status: UserStatus;
  language: Language | null;
  twoFactor: "none" | "email";
  passwordHash: string | null;
  lastSignInAt: string | null;
  isCaseUser: boolean;
  version: number;
};

type Row = {
  id: string;
  org_id: string;
  email: string;
  name: string;
  role: Role;
  status: UserStatus;
  language: Language | null;
  two_factor: "none" | "email";
  password_hash: string | null;
  last_sign_in_at: string | null;
  is_case_user: number;
  version: number;
};

const columns =
  "id, org_id, email, name, role, status, language, two_factor, password_hash, last_sign_in_at, is_case_user, version";

function toUser(row: Row): User {
  return {
    id: row.id,
    orgId: row.org_id,
    email: row.email,
    name: row.name,
    role: row.role,
    status: row.status,
    language: row.language,
    twoFactor: row.two_factor,
    passwordHash: row.password_hash,
    lastSignInAt: row.last_sign_in_at,
    isCaseUser: row.is_case_user === 1,
    version: row.version,
  };
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Db, email: string): Promise<User | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM users WHERE email = ?`, normalizeEmail(email));
  return row ? toUser(row) : null;
}

export async function findUserById(db: Db, id: string): Promise<User | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM users WHERE id = ?`, id);
  return row ? toUser(row) : null;
}

export function insertUserStatement(
  db: Db,
  user: { orgId: string; email: string; name: string; role: Role; passwordHash: string; language: Language | null },
) {
  const id = newId("usr");
  return {
    id,
    statement: statement(
      db,
      "INSERT INTO users (id, org_id, email, name, role, status, language, password_hash) VALUES (?, ?, ?, ?, ?, 'active', ?, ?)",
      id,
      user.orgId,
      normalizeEmail(user.email),
      user.name,
      user.role,
      user.language,
      user.passwordHash,
    ),
  };
}

export function setPasswordStatement(db: Db, userId: string, passwordHash: string) {
  return statement(
    db,
    "UPDATE users SET password_hash = ?, updated_at = ?, version = version + 1 WHERE id = ?",
    passwordHash,
    now(),
    userId,
  );
}

export async function recordSignIn(db: Db, userId: string): Promise<void> {
  await statement(db, "UPDATE users SET last_sign_in_at = ? WHERE id = ?", now(), userId).run();
}

export async function setLanguage(db: Db, userId: string, language: Language): Promise<void> {
  await statement(db, "UPDATE users SET language = ? WHERE id = ?", language, userId).run();
}
