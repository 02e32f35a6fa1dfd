import type { Language } from "@/schema/languages";
import type { Role } from "../auth/roles";
import { all, type Db, first, newId, statement } from "./db";
import { normalizeEmail } from "./users";

/** An invitation to join an organization with a role; only the SHA-256 of its code is stored. */
export type Invitation = {
  id: string;
  orgId: string;
  organizationName: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  inviterName: string | null;
  expiresAt: string;
  acceptedAt: string | null;
  revokedAt: string | null;
  createdAt: string;
};

type Row = {
  id: string;
  org_id: string;
  organization_name: string;
  email: string;
  role: Role;
  invited_by: string | null;
  inviter_name: string | null;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
  created_at: string;
};

/** The open-invitation condition, for statements that must act only on an invitation still open. */
const isOpen = "accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?";

export async function findInvitationByCodeHash(db: Db, codeHash: string): Promise<Invitation | null> {
  const row = await first<Row>(
    db,
    `SELECT i.id, i.org_id, o.name AS organization_name, i.email, i.role, i.invited_by, u.name AS inviter_name,
            i.expires_at, i.accepted_at, i.revoked_at, i.created_at
     FROM invitations i JOIN organizations o ON o.id = i.org_id LEFT JOIN users u ON u.id = i.invited_by
     WHERE i.code_hash = ?`,
    codeHash,
  );
  return row
    ? {
        id: row.id,
        orgId: row.org_id,
        organizationName: row.organization_name,
        email: row.email,
        role: row.role,
        invitedBy: row.invited_by,
        inviterName: row.inviter_name,
        expiresAt: row.expires_at,
        acceptedAt: row.accepted_at,
        revokedAt: row.revoked_at,
        createdAt: row.created_at,
      }
    : null;
}

/**
 * A new invitation, replacing (revoking) any open one for the same address in the same
 * organization, so only the newest link works.
 */
export function insertInvitationStatements(
  db: Db,
  input: { orgId: string; email: string; role: Role; codeHash: string; invitedBy: string | null; expiresAt: string; at: string },
) {
  const id = newId("inv");
  const email = normalizeEmail(input.email);
  return {
    id,
    statements: [
      statement(
        db,
        `UPDATE invitations SET revoked_at = ? WHERE org_id = ? AND email = ? AND ${isOpen}`,
        input.at,
        input.orgId,
        email,
        input.at,
      ),
      statement(
        db,
        "INSERT INTO invitations (id, org_id, email, role, code_hash, invited_by, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        id,
        input.orgId,
        email,
        input.role,
        input.codeHash,
        input.invitedBy,
        input.expiresAt,
        input.at,
      ),
    ],
  };
}

/**
 * Accepting: the user is created from the invitation's own organization, address and role,
 * and the invitation marked accepted, both only while it is still open. Run as one batch;
 * the first statement's `changes` is 1 when the invitation was accepted.
 */
export function acceptInvitationStatements(
  db: Db,
  input: { codeHash: string; name: string; passwordHash: string; language: Language | null; at: string },
) {
  const userId = newId("usr");
  return {
    userId,
    statements: [
      statement(
        db,
        `INSERT INTO users (id, org_id, email, name, role, status, language, password_hash, created_at, updated_at, is_case_user)
         SELECT ?, org_id, email, ?, role, 'active', ?, ?, ?, ?, role = 'case-agent' FROM invitations WHERE code_hash = ? AND ${isOpen}`,
        userId,
        input.name,
        input.language,
        input.passwordHash,
        input.at,
        input.at,
        input.codeHash,
        input.at,
      ),
      statement(
        db,
        `UPDATE invitations SET accepted_at = ? WHERE code_hash = ? AND ${isOpen}`,
        input.at,
        input.codeHash,
        input.at,
      ),
    ],
  };
}

/**
 * The newest open invitation for an address in an organization and its descendants (any
 * organization when `rootOrgId` is null): what single sign-on accepts for a person the
 * provider vouches for.
 */
export async function findOpenInvitationForEmail(db: Db, email: string, rootOrgId: string | null, at: string) {
  const scope = rootOrgId
    ? `i.org_id IN (WITH RECURSIVE tree(id) AS (SELECT id FROM organizations WHERE id = ?
         UNION ALL SELECT o.id FROM organizations o JOIN tree ON o.parent_id = tree.id) SELECT id FROM tree)`
    : "? IS NULL";
  return first<{ id: string; org_id: string; role: Role }>(
    db,
    `SELECT i.id, i.org_id, i.role FROM invitations i
     WHERE i.email = ? AND ${scope} AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > ?
     ORDER BY i.created_at DESC LIMIT 1`,
    normalizeEmail(email),
    rootOrgId,
    at,
  );
}

/**
 * Accepting an invitation through single sign-on: like acceptInvitationStatements, by the
 * invitation's id, and the user gets no password (the provider signs them in). One batch;
 * the first statement's `changes` is 1 when the invitation was accepted.
 */
export function acceptInvitationWithoutPasswordStatements(
  db: Db,
  input: { invitationId: string; name: string; language: Language | null; at: string },
) {
  const userId = newId("usr");
  return {
    userId,
    statements: [
      statement(
        db,
        `INSERT INTO users (id, org_id, email, name, role, status, language, password_hash, created_at, updated_at, is_case_user)
         SELECT ?, org_id, email, ?, role, 'active', ?, NULL, ?, ?, role = 'case-agent' FROM invitations WHERE id = ? AND ${isOpen}`,
        userId,
        input.name,
        input.language,
        input.at,
        input.at,
        input.invitationId,
        input.at,
      ),
      statement(db, `UPDATE invitations SET accepted_at = ? WHERE id = ? AND ${isOpen}`, input.at, input.invitationId, input.at),
    ],
  };
}

/** An invitation still waiting for its answer, as the users screen lists it. */
export type OpenInvitation = Pick<
  Invitation,
  "id" | "orgId" | "organizationName" | "email" | "role" | "expiresAt" | "createdAt"
> & {
  inviterName: string | null;
};

type OpenRow = Pick<Row, "id" | "org_id" | "organization_name" | "email" | "role" | "inviter_name" | "expires_at" | "created_at">;

function toOpenInvitation(row: OpenRow): OpenInvitation {
  return {
    id: row.id,
    orgId: row.org_id,
    organizationName: row.organization_name,
    email: row.email,
    role: row.role,
    inviterName: row.inviter_name,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
  };
}

const openColumns = `i.id, i.org_id, o.name AS organization_name, i.email, i.role, COALESCE(NULLIF(u.name, ''), u.email) AS inviter_name,
  i.expires_at, i.created_at`;

/** The open invitations of an organization (`orgId`) or of a whole tree (`rootOrgId` and below), newest first. */
export async function listOpenInvitations(
  db: Db,
  input: { rootOrgId: string; orgId: string | null; at: string; limit: number },
): Promise<OpenInvitation[]> {
  const scope = input.orgId
    ? "i.org_id = ?"
    : `i.org_id IN (WITH RECURSIVE tree(id) AS (SELECT id FROM organizations WHERE id = ?
         UNION ALL SELECT o.id FROM organizations o JOIN tree ON o.parent_id = tree.id) SELECT id FROM tree)`;
  const rows = await all<OpenRow>(
    db,
    `SELECT ${openColumns}
     FROM invitations i JOIN organizations o ON o.id = i.org_id LEFT JOIN users u ON u.id = i.invited_by
     WHERE ${scope} AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > ?
     ORDER BY i.created_at DESC, i.id LIMIT ?`,
    input.orgId ?? input.rootOrgId,
    input.at,
    input.limit,
  );
  return rows.map(toOpenInvitation);
}

/** An invitation by id if it is still open (not accepted, revoked or expired), else null. */
export async function findOpenInvitationById(db: Db, id: string, at: string): Promise<OpenInvitation | null> {
  const row = await first<OpenRow>(
    db,
    `SELECT ${openColumns}
     FROM invitations i JOIN organizations o ON o.id = i.org_id LEFT JOIN users u ON u.id = i.invited_by
     WHERE i.id = ? AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > ?`,
    id,
    at,
  );
  return row ? toOpenInvitation(row) : null;
}

/** Withdraws an invitation while it is open: its link stops working (0 changes when it was no longer open). */
export function revokeInvitationStatement(db: Db, id: string, at: string) {
  return statement(db, `UPDATE invitations SET revoked_at = ? WHERE id = ? AND ${isOpen}`, at, id, at);
}
