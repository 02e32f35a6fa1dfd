import { CHANGES_READ_WARM } from "../data/radio-changes";

/**
 * What a reader (a DeviceShard, or an isolate's config 304 path) knows of the per-radio change
 * log (migration 0031): for each radio named since `floor`, its latest seq. An answer computed
 * at seq S for a radio is still good while S ≥ floor (the log is known from there on) and no
 * change of that radio has a seq above S. Knowing nothing (cold, or fallen behind) makes every
 * answer suspect: each radio takes the full path once, as after a restart.
 */
const MAX_REMEMBERED = 50_000;

export class RadioChangeLog {
  /** Every change with a seq above this is known (Infinity: nothing is known yet). */
  private floor = Number.POSITIVE_INFINITY;
  /** The highest seq read (-1: cold, the next read takes the newest rows). */
  private last = -1;
  private readonly latest = new Map<string, number>();

  /** Whether the next read starts cold (the newest rows) or continues after `after`. */
  get cold(): boolean {
    return this.last < 0;
  }

  get after(): number {
    return this.last;
  }

  /** The rows a read returned (uid, seq), in any order. */
  absorb(rows: readonly { uid: string; seq: number }[]): void {
    if (this.cold) {
      this.latest.clear();
      if (rows.length === 0) return; // The log is never empty: an empty read is a failed one.
      let lowest = Number.POSITIVE_INFINITY;
      for (const row of rows) lowest = Math.min(lowest, row.seq);
      this.floor = lowest - 1;
    } else if (rows.length > CHANGES_READ_WARM || this.latest.size > MAX_REMEMBERED) {
      // Fell behind (a bulk change of many radios): start again from the newest rows.
      this.reset();
      return;
    }
    for (const row of rows) {
      if ((this.latest.get(row.uid) ?? -1) < row.seq) this.latest.set(row.uid, row.seq);
      if (row.seq > this.last) this.last = row.seq;
    }
  }

  /** Forget everything: the next read starts cold and, until then, every answer is suspect. */
  reset(): void {
    this.floor = Number.POSITIVE_INFINITY;
    this.last = -1;
    this.latest.clear();
  }

  /** The radio's answer computed at `seq` may be stale (or nothing is known to say it is not). */
  changedSince(uid: string, seq: number): boolean {
    return seq < this.floor || (this.latest.get(uid) ?? -1) > seq;
  }
}
