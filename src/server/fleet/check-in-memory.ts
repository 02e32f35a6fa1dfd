import type { Db } from "../data/db";
import { CONTACTS_PER_STATEMENT, contactDue, reportsSomethingNew, type StoredContact } from "../data/device-checkins";
import { radioChangesSql } from "../data/radio-changes";
import { type Contact, writeContacts } from "../data/radio-contact";
import { answerResponse, type CheckInAnswer, type CheckInBody, type Fail, failure, fullCheckIn, sameText } from "./check-in";
import { RadioChangeLog } from "./radio-change-log";

/** More commands than this queued since the last read (a bulk send): every radio takes the full path once. */
const COMMANDS_READ = 2_000;

/**
 * What a DeviceShard remembers of the radios it serves (issue 24), so that a check-in with
 * nothing new costs no D1 statement: per radio its secret hash, the answer last computed and
 * the account fleet version it was computed at, what D1 holds of what it reports, and its
 * latest contact not yet written. The shard learns of changes
 * - at once when told (a deployment changed: `accountChanged`; commands queued, credentials
 *   changed: `forget`), and
 * - within `freshMs` otherwise: one statement reads the fleet versions of every account it
 *   holds, the radios that got commands, and the radios that changed (migration 0031's log)
 *   since the last read: one radio's edit or report sends only that radio to the full path.
 * Last-seen is written for many radios in one statement (`flush`, within `flushMs` of a
 * contact falling due), so stored contact is never more than CONTACT_RESOLUTION_MS behind.
 * An evicted shard forgets all of it: the next check-in of each radio takes the full path, and
 * only the contacts waiting for the flush are lost (the radio's next check-in writes them).
 */
export type CheckInMemoryOptions = {
  db: () => Db;
  now: () => number;
  /** How old the fleet versions may be (the bound on how long an answer may lag a change). */
  freshMs: number;
  /** How long a due contact may wait for the batch; 0 writes it before answering. */
  flushMs: number;
  etagKey: string | undefined;
  /** Signs firmware download URLs (download-url.ts). */
  firmwareSecret?: string | null;
  /** Ask to be flushed at this time (an alarm); called once per waiting batch. */
  scheduleFlush: (at: number) => void;
};

type Entry = {
  secretHash: string;
  accountId: string | null;
  fleetVersion: number;
  /** The radio-change seq the answer was computed at. */
  changeSeq: number;
  answer: CheckInAnswer;
  busy: boolean;
  /** False: the next check-in takes the full path (commands, hand-over, a change it was told of). */
  cacheable: boolean;
  stored: StoredContact;
  /** The latest contact D1 does not have yet. */
  contact: Contact | null;
};

export class CheckInMemory {
  private readonly entries = new Map<string, Entry>();
  /** Account → fleet version as last read. */
  private readonly versions = new Map<string, number>();
  private refreshedAt = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<void> | null = null;
  /** The commands table's highest rowid at the last read (null: not read yet). */
  private commandRowid: number | null = null;
  private readonly changes = new RadioChangeLog();
  private readonly due = new Set<string>();
  private flushScheduled = false;

  constructor(private readonly options: CheckInMemoryOptions) {}

  /** Radios held (for the bench and tests). */
  get size(): number {
    return this.entries.size;
  }

  async checkIn(uid: string, secretHash: string, body: CheckInBody | Fail): Promise<Response> {
    const now = this.options.now();
    await this.refreshIfStale(now);
    const entry = this.entries.get(uid);
    if (entry && this.answersFromMemory(entry, uid, secretHash)) {
      if ("status" in body) return failure(body);
      if (!reportsSomethingNew(entry.stored, body) && !body.redirectAccepted) {
        await this.noteContact(entry, uid, body, now);
        return answerResponse(entry.answer, entry.busy, new Date(now));
      }
    }
    const full = await fullCheckIn(this.options.db(), uid, secretHash, body, new Date(now), {
      batchesContact: true,
      etagKey: this.options.etagKey,
      firmwareSecret: this.options.firmwareSecret ?? null,
    });
    if (!full.ok) {
      if (entry) entry.cacheable = false;
      return full.response;
    }
    const next: Entry = {
      secretHash: full.secretHash,
      accountId: full.accountId,
      fleetVersion: full.fleetVersion,
      changeSeq: full.changeSeq,
      answer: full.answer,
      busy: full.busy,
      // A radio without an account is not covered by any fleet version: always the full path.
      cacheable: full.cacheable && full.accountId !== null,
      stored: full.stored,
      contact: full.contactWritten ? null : (entry?.contact ?? null),
    };
    this.entries.set(uid, next);
    if (full.accountId !== null && (this.versions.get(full.accountId) ?? -1) < full.fleetVersion) {
      this.versions.set(full.accountId, full.fleetVersion);
    }
    if (full.contactWritten) this.due.delete(uid);
    else await this.noteContact(next, uid, body as CheckInBody, now);
    return answerResponse(full.answer, full.busy, new Date(now));
  }

  private answersFromMemory(entry: Entry, uid: string, secretHash: string): boolean {
    return (
      entry.cacheable &&
      sameText(entry.secretHash, secretHash) &&
      entry.accountId !== null &&
      this.versions.get(entry.accountId) === entry.fleetVersion &&
      !this.changes.changedSince(uid, entry.changeSeq)
    );
  }

  /** Something of the account changed (the shard was told): the next check-in re-reads the versions. */
  accountChanged(): void {
    this.refreshedAt = Number.NEGATIVE_INFINITY;
  }

  /** These radios' next check-in takes the full path (commands queued, credentials changed). */
  forget(uids: string[]): void {
    for (const uid of uids) {
      const entry = this.entries.get(uid);
      if (entry) entry.cacheable = false;
    }
  }

  private async noteContact(entry: Entry, uid: string, body: CheckInBody, now: number): Promise<void> {
    const previous = entry.contact;
    entry.contact = {
      uid,
      at: new Date(now).toISOString(),
      battery: body.battery !== undefined ? body.battery : previous?.battery,
      signal: body.signal !== undefined ? body.signal : previous?.signal,
    };
    if (!contactDue(entry.stored.lastContactAt, now)) return;
    this.due.add(uid);
    if (this.options.flushMs === 0) {
      await this.flush();
      return;
    }
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      this.options.scheduleFlush(now + this.options.flushMs);
    }
  }

  /** Writes every due contact: one statement per CONTACTS_PER_STATEMENT radios (radio-contact.ts `writeContacts`). */
  async flush(): Promise<number> {
    this.flushScheduled = false;
    const batch: { entry: Entry; contact: Contact }[] = [];
    for (const uid of this.due) {
      const entry = this.entries.get(uid);
      if (entry?.contact) batch.push({ entry, contact: entry.contact });
    }
    this.due.clear();
    for (let i = 0; i < batch.length; i += CONTACTS_PER_STATEMENT) {
      const chunk = batch.slice(i, i + CONTACTS_PER_STATEMENT);
      try {
        await writeContacts(
          this.options.db(),
          chunk.map((c) => c.contact),
        );
        for (const { entry, contact } of chunk) {
          entry.stored = { ...entry.stored, lastContactAt: contact.at };
          if (entry.contact === contact) entry.contact = null;
        }
      } catch (error) {
        // Kept for the next batch: a contact is never dropped for a failed write.
        console.error("writing last-seen failed", error);
        for (const { contact } of chunk) this.due.add(contact.uid);
        if (!this.flushScheduled) {
          this.flushScheduled = true;
          this.options.scheduleFlush(this.options.now() + Math.max(this.options.flushMs, 1_000));
        }
      }
    }
    return batch.length;
  }

  private refreshIfStale(now: number): Promise<void> | undefined {
    if (now - this.refreshedAt < this.options.freshMs && this.commandRowid !== null) return;
    if (!this.refreshing) {
      this.refreshedAt = now;
      this.refreshing = this.refresh().finally(() => {
        this.refreshing = null;
      });
    }
    return this.refreshing;
  }

  /**
   * One statement: the versions of the accounts held, the radios given commands, and the radios
   * changed since the last read. Each part is bounded: past its bound every radio takes the
   * full path once instead of the shard reading a bulk change row by row.
   */
  private async refresh(): Promise<void> {
    const accounts = [...this.versions.keys()];
    const since = this.commandRowid ?? -1;
    const { results } = await this.options
      .db()
      .prepare(
        `SELECT 'v' AS kind, account_id AS key, version AS value FROM fleet_versions
           WHERE account_id IN (SELECT value FROM json_each(?1))
         UNION ALL SELECT 'c', uid, id FROM (
           SELECT uid, rowid AS id FROM commands WHERE ?2 >= 0 AND rowid > ?2 ORDER BY rowid LIMIT ${COMMANDS_READ + 1})
         UNION ALL SELECT 'm', '', ifnull(max(rowid), 0) FROM commands
         UNION ALL SELECT 'r', uid, seq FROM (${radioChangesSql("?3", this.changes.cold)})`,
      )
      .bind(JSON.stringify(accounts), since, this.changes.after)
      .all<{ kind: "v" | "c" | "m" | "r"; key: string; value: number }>();
    for (const account of accounts) this.versions.set(account, 0);
    const commanded: string[] = [];
    const changed: { uid: string; seq: number }[] = [];
    for (const row of results) {
      if (row.kind === "v") this.versions.set(row.key, row.value);
      else if (row.kind === "c") commanded.push(row.key);
      else if (row.kind === "r") changed.push({ uid: row.key, seq: row.value });
      else this.commandRowid = row.value;
    }
    if (commanded.length > COMMANDS_READ) this.forget([...this.entries.keys()]);
    else this.forget(commanded);
    this.changes.absorb(changed);
    // Fell behind the log: read its newest rows at the next check-in rather than after freshMs.
    if (this.changes.cold) this.refreshedAt = Number.NEGATIVE_INFINITY;
  }
}
