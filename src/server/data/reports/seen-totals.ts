// Radios by site from the running totals of migrations 0023 and 0026: report_device_places (how
// many radios each site has, and how many never checked in) and report_device_seen_upto (how
// many of the others were last seen in or before an hour).

/**
 * SQL for the radios of the group `p` (a report_device_places row) last seen before the hour
 * `hour` (a 'YYYY-MM-DDTHH' parameter), never-seen included: one index seek.
 */
export function seenBefore(hour: string): string {
  return `p.never + ifnull((SELECT u.radios FROM report_device_seen_upto u
    WHERE u.account_id = p.account_id AND u.site_id = p.site_id AND u.hour < ${hour}
    ORDER BY u.hour DESC LIMIT 1), 0)`;
}

/** SQL for the radios of each group that never checked in. */
export const neverSeen = "p.never";

/**
 * SQL `FROM … WHERE …` for the radios of the account (?1) seen in a cutoff's own hour before the
 * cutoff (an index range of devices_account_seen_place): `hour` and `cutoff` are parameters.
 */
export function seenInHourBefore(hour: string, cutoff: string): string {
  return `FROM devices WHERE account_id = ?1 AND status = 'active' AND last_seen_at >= ${hour} AND last_seen_at < ${cutoff}`;
}

/** The UTC hour key ('YYYY-MM-DDTHH') an instant falls in. */
export const hourOfInstant = (instant: string) => instant.slice(0, 13);
