import type { D1PreparedStatement } from "../cloudflare";
import { type Db, statement } from "./db";

/**
 * The per-radio change log (migration 0031): triggers add a row, with a seq that only grows,
 * for every write that changes one radio's check-in answer. Readers keep the seq they saw last.
 */

/** A reader starting cold takes this many newest rows: it knows every change from the oldest of them on. */
export const CHANGES_READ_COLD = 5_000;
/** A warm reader takes at most this many rows since its seq; more, and it starts cold again. */
export const CHANGES_READ_WARM = 5_000;
/** The log keeps this many newest rows (the scheduled trigger trims the rest). */
export const CHANGES_KEPT = 200_000;
const TRIM_PER_RUN = 50_000;

/** The highest seq now, as a scalar subquery: a radio's read takes it with its state (the seq its answer is valid at). */
export const latestChangeSql = "(SELECT ifnull(max(rc.seq), 0) FROM radio_changes rc)";

/**
 * The rows (uid, seq) a reader takes: since `afterParam` (warm; one more than CHANGES_READ_WARM
 * tells it fell behind), or the newest CHANGES_READ_COLD when `cold` (`afterParam` is then -1).
 */
export function radioChangesSql(afterParam: string, cold: boolean): string {
  return cold
    ? `SELECT uid, seq FROM (SELECT uid, seq FROM radio_changes WHERE ${afterParam} < 0 ORDER BY seq DESC LIMIT ${CHANGES_READ_COLD})`
    : `SELECT uid, seq FROM (SELECT uid, seq FROM radio_changes WHERE seq > ${afterParam} ORDER BY seq LIMIT ${CHANGES_READ_WARM + 1})`;
}

/** Deletes the oldest rows past CHANGES_KEPT, a bounded number per run; the newest row always stays. */
export function trimRadioChangesStatement(db: Db, kept = CHANGES_KEPT): D1PreparedStatement {
  return statement(
    db,
    `DELETE FROM radio_changes WHERE seq IN (
       SELECT seq FROM radio_changes WHERE seq < (SELECT max(seq) FROM radio_changes) - ? ORDER BY seq LIMIT ?)`,
    kept,
    TRIM_PER_RUN,
  );
}
