import { all, type Db, newId, statement } from "./db";

export type OutboxMail = { id: string; to: string; subject: string; body: string; createdAt: string };

export async function storeMail(db: Db, mail: { to: string; subject: string; body: string }): Promise<void> {
  await statement(
    db,
    "INSERT INTO mail_outbox (id, to_address, subject, body) VALUES (?, ?, ?, ?)",
    newId("mail"),
    mail.to,
    mail.subject,
    mail.body,
  ).run();
}

/** The newest mail first, optionally for one address. */
export async function listMail(db: Db, { to, limit = 50 }: { to?: string; limit?: number } = {}): Promise<OutboxMail[]> {
  const rows = await all<{ id: string; to_address: string; subject: string; body: string; created_at: string }>(
    db,
    `SELECT id, to_address, subject, body, created_at FROM mail_outbox
     WHERE (?1 IS NULL OR to_address = ?1 COLLATE NOCASE) ORDER BY created_at DESC, rowid DESC LIMIT ?2`,
    to ?? null,
    limit,
  );
  return rows.map((r) => ({ id: r.id, to: r.to_address, subject: r.subject, body: r.body, createdAt: r.created_at }));
}
