import type { D1PreparedStatement } from "../cloudflare";
import { activityStatement } from "./activity-logs";
import { type Db, first, statement } from "./db";
import { confirmRedirectStatement } from "./device-checkins";

/**
 * A radio's hand-over to another management server (DESIGN §7): chosen here, told to the radio
 * at its next check-in (the answer's `redirect`), confirmed at the one after
 * (`redirectAccepted`). Cancellable while unconfirmed; a confirmed hand-over is history.
 */
export type DeviceRedirect = { url: string; requestedAt: string; confirmedAt: string | null };

export async function findRedirect(db: Db, uid: string): Promise<DeviceRedirect | null> {
  const row = await first<{
    redirect_url: string | null;
    redirect_requested_at: string | null;
    redirect_confirmed_at: string | null;
  }>(db, "SELECT redirect_url, redirect_requested_at, redirect_confirmed_at FROM devices WHERE uid = ?", uid);
  if (!row?.redirect_url) return null;
  return { url: row.redirect_url, requestedAt: row.redirect_requested_at ?? "", confirmedAt: row.redirect_confirmed_at };
}

/** Sets (or replaces) the address while the radio has not confirmed a hand-over; no row changes once it has. */
export function requestRedirectStatement(db: Db, uid: string, url: string, at: string): D1PreparedStatement {
  return statement(
    db,
    `UPDATE devices SET redirect_url = ?, redirect_requested_at = ?, redirect_confirmed_at = NULL
     WHERE uid = ? AND status = 'active' AND redirect_confirmed_at IS NULL`,
    url,
    at,
    uid,
  );
}

/** Withdraws an unconfirmed hand-over; no row changes when there is none or the radio confirmed it. */
export function cancelRedirectStatement(db: Db, uid: string): D1PreparedStatement {
  return statement(
    db,
    `UPDATE devices SET redirect_url = NULL, redirect_requested_at = NULL
     WHERE uid = ? AND redirect_url IS NOT NULL AND redirect_confirmed_at IS NULL`,
    uid,
  );
}

/**
 * The radio's confirmation (`redirectAccepted` at the check-in after it was told) and its
 * activity entry, written only if the confirmation changed the row (a repeat writes nothing).
 */
export function confirmRedirectStatements(
  db: Db,
  radio: { uid: string; org_id: string; account_id: string | null; redirect_url: string | null },
  at: string,
): D1PreparedStatement[] {
  return [
    confirmRedirectStatement(db, radio.uid, at),
    activityStatement(db, {
      orgId: radio.org_id,
      accountId: radio.account_id,
      // The radio itself confirmed: the entry names it as the actor.
      actor: { id: "system", email: radio.uid },
      action: "update",
      entityType: "device",
      entityId: radio.uid,
      entityLabel: radio.uid,
      diff: { handOverConfirmed: { before: null, after: radio.redirect_url } },
      deployable: false,
    }),
  ];
}
