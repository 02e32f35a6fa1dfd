// The demo fleets' recent life (issue 14), so the reports show something real: radios placed
// at their account's sites and locations, checking in (most within minutes, a few a day, a
// week or a month ago, some never), and in the transit authority's bus account a finished
// phased deployment with each radio's outcome written as the device protocol writes it.
// Idempotent: placement and the deployment are written once; check-in times only move forward.
import { createHash } from "node:crypto";
import { users } from "./demo-data.mjs";

/** SQL string literal. */
const q = (value) => (value === null || value === undefined ? "NULL" : `'${String(value).replaceAll("'", "''")}'`);

/** The radio's number in its fleet (PREFIX-0042 → 42). */
const NUMBER = "CAST(substr(uid, -4) AS INTEGER)";
const ofFleet = (fleet) => `account_id = ${q(fleet.accountId)} AND uid GLOB ${q(`${fleet.prefix}-[0-9][0-9][0-9][0-9]`)}`;

/**
 * When radio i last checked in, relative to now: one in ten never, one in 47 over a month ago,
 * one in 31 over a week, one in 23 over a day, one in 17 an hour or more (overdue), the rest
 * within the last ten minutes.
 */
export function plannedLastSeen(i = NUMBER) {
  const back = (modifier) => `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${modifier})`;
  return `CASE WHEN ${i} % 10 = 0 THEN NULL
    WHEN ${i} % 47 = 0 THEN ${back(`printf('-%d hours', 24 * 30 + (${i} * 13) % 700)`)}
    WHEN ${i} % 31 = 0 THEN ${back(`printf('-%d hours', 24 * 7 + (${i} * 13) % 500)`)}
    WHEN ${i} % 23 = 0 THEN ${back(`printf('-%d hours', 24 + (${i} * 13) % 140)`)}
    WHEN ${i} % 17 = 0 THEN ${back(`printf('-%d minutes', 60 + (${i} * 13) % 1200)`)}
    ELSE ${back(`printf('-%d seconds', 5 + (${i} * 37) % 595)`)} END`;
}

/** Firmware radio i reports: most the latest, some one or two releases behind, a few very old. */
export function plannedFirmware(i = NUMBER) {
  return `CASE WHEN ${i} % 10 = 0 THEN '' WHEN ${i} % 7 = 0 THEN '1.8.2' WHEN ${i} % 11 = 0 THEN '2.3.0'
    WHEN ${i} % 13 = 0 THEN '2.4.0' ELSE '2.4.1' END`;
}

/** Every seed: radios that check in are seen again (never earlier than they were). */
export function checkInStatement(fleet) {
  return `UPDATE devices SET last_seen_at = max(ifnull(last_seen_at, ''), ${plannedLastSeen()})
WHERE ${ofFleet(fleet)} AND ${NUMBER} % 10 <> 0;`;
}

/**
 * Radios placed at the account's sites and locations (one in nine at none, some at a site
 * without a location), as deployed there already; only while no radio of the account has a place.
 */
export function placementStatement(fleet, workspace) {
  const places = workspace.sites.flatMap((site) => [
    [site.id, null],
    ...site.locations.map((location) => [site.id, location.id]),
  ]);
  const values = places.map(([site, location], k) => `(${k}, ${q(site)}, ${q(location)})`).join(", ");
  const pick = (column) =>
    `CASE WHEN ${NUMBER} % 9 = 0 THEN NULL ELSE (SELECT ${column} FROM places WHERE k = (${NUMBER} * 7) % ${places.length}) END`;
  return `WITH places(k, site, location) AS (VALUES ${values})
UPDATE devices SET site_id = ${pick("site")}, location_id = ${pick("location")},
  deployed_site_id = ${pick("site")}, deployed_location_id = ${pick("location")}
WHERE ${ofFleet(fleet)}
  AND NOT EXISTS (SELECT 1 FROM devices d WHERE d.account_id = ${q(fleet.accountId)} AND d.site_id IS NOT NULL);`;
}

/** The revision content as snapshotAccountConfig (src/server/data/revisions.ts) freezes it. */
function revisionContent(workspace) {
  const byId = (items) => [...items].sort((a, b) => a.id.localeCompare(b.id));
  const locations = workspace.sites.flatMap((site) => site.locations);
  return {
    network: {
      account: workspace.network ?? {},
      sites: Object.fromEntries(byId(workspace.sites).map((site) => [site.id, site.network ?? {}])),
      locations: Object.fromEntries(byId(locations).map((location) => [location.id, location.network ?? {}])),
    },
    profiles: Object.fromEntries(
      byId(workspace.profiles).map((p) => [p.id, { type: p.type, name: p.name, settings: p.settings }]),
    ),
    rules: workspace.rules.map((rule) => ({
      id: rule.id,
      name: rule.name,
      enabled: true,
      conditions: rule.conditions,
      profileIds: rule.profileIds,
    })),
  };
}

// Three phases (10 %, 50 %, 100 % of the radios by rollout bucket), each opening three hours
// after the one before; radios report within 90 minutes of their phase opening.
const PHASES = [10, 50, 100];
const PHASE_HOURS = 3;

/**
 * A finished phased deployment three days old, as the deployment engine leaves one: its
 * revision, the deployment (all phases done, its silent radios timed out), the log entries of
 * confirming and finishing it, the changes it deployed linked to it, and one report per radio
 * that answered: most applied, one failed (flash write), one rejected (firmware too old).
 * Radios not seen since before it started, those never seen and one seen radio (number 21) never
 * answered: they read "timed out".
 * The radios that applied report its revision; two report one programmed locally (drifted).
 * Written only into an account without deployments.
 */
export function deploymentStatements(fleet, workspace) {
  const account = q(fleet.accountId);
  const org = q(fleet.orgId);
  const revision = `rev_demo_${fleet.prefix.toLowerCase().replaceAll("-", "_")}`;
  const deployment = `dep_demo_${fleet.prefix.toLowerCase().replaceAll("-", "_")}`;
  const content = JSON.stringify(revisionContent(workspace));
  const hash = createHash("sha256").update(content).digest("hex");
  const configurator = users.find((u) => u.id === "usr_configurator");
  const plan = {
    phases: PHASES.map((share) => ({
      share,
      successPercent: 90,
      successAction: "next",
      errorKind: "percent",
      errorValue: 10,
      errorMinimum: 5,
      waitMinutes: 0,
    })),
    timeoutMinutes: 12 * 60,
  };
  const start = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-3 days')";
  const at = (hours) =>
    `strftime('%Y-%m-%dT%H:%M:%fZ', (SELECT started_at FROM deployments WHERE id = ${q(deployment)}), '+${hours} hours')`;
  const fresh = `NOT EXISTS (SELECT 1 FROM deployments WHERE account_id = ${account})`;
  const ours = `EXISTS (SELECT 1 FROM deployments WHERE id = ${q(deployment)})`;
  const phaseOf = `CASE WHEN v.rollout_bucket < ${PHASES[0] * 100} THEN 0 WHEN v.rollout_bucket < ${PHASES[1] * 100} THEN 1 ELSE 2 END`;
  const number = `CAST(substr(v.uid, -4) AS INTEGER)`;
  const logEntry = (id, actor, action, diff, when) =>
    `INSERT INTO activity_logs (id, org_id, account_id, actor_id, actor_email, action, entity_type, entity_id, entity_label, diff, deployable, created_at)
SELECT ${q(id)}, ${org}, ${account}, ${q(actor.id)}, ${q(actor.email)}, ${q(action)}, 'deployment', ${q(deployment)},
  '#' || (SELECT number FROM deployments WHERE id = ${q(deployment)}), ${q(JSON.stringify(diff))}, 0, ${when}
WHERE ${ours} ON CONFLICT DO NOTHING;`;
  return [
    `INSERT INTO revisions (id, account_id, number, content_hash, content, created_at)
SELECT ${q(revision)}, ${account}, n, ${q(hash)}, ${q(content)}, ${start}
FROM (SELECT COALESCE(MAX(number), 0) + 1 AS n FROM revisions WHERE account_id = ${account}) WHERE ${fresh}
ON CONFLICT DO NOTHING;`,
    `INSERT INTO deployments (id, account_id, org_id, number, revision_id, state, plan, switchover, phase_index, phase_started_at,
  targeted, note, created_by, created_at, started_at, ended_at, updated_at, version, timed_out_phase)
SELECT ${q(deployment)}, ${account}, ${org}, 1, ${q(revision)}, 'finished', ${q(JSON.stringify(plan))}, '{"mode":"delivery"}',
  ${PHASES.length - 1}, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-3 days', '+${PHASE_HOURS * (PHASES.length - 1)} hours'),
  a.devices_in_use, 'Spring channel plan and garage rules', ${q(configurator.email)}, ${start}, ${start},
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-3 days', '+${PHASE_HOURS * PHASES.length} hours'),
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-2 days'), ${PHASES.length + 1}, 99
FROM accounts a WHERE a.id = ${account} AND ${fresh} AND EXISTS (SELECT 1 FROM revisions WHERE id = ${q(revision)});`,
    logEntry(`log_${deployment}_create`, configurator, "create", { state: { after: "running" } }, at(0)),
    ...PHASES.slice(1).map((_, p) =>
      logEntry(
        `log_${deployment}_phase_${p + 2}`,
        { id: "system", email: "system" },
        "update",
        { state: { before: "running", after: "running" }, phase: { before: p + 1, after: p + 2 } },
        at(PHASE_HOURS * (p + 1)),
      ),
    ),
    logEntry(
      `log_${deployment}_finish`,
      { id: "system", email: "system" },
      "update",
      { state: { before: "running", after: "finished" } },
      at(PHASE_HOURS * PHASES.length),
    ),
    `UPDATE activity_logs SET deployment_id = ${q(deployment)}
WHERE account_id = ${account} AND deployable = 1 AND deployment_id IS NULL AND created_at < (SELECT created_at FROM deployments WHERE id = ${q(deployment)});`,
    `INSERT OR IGNORE INTO deployment_devices (deployment_id, uid, phase, state, code, detail, updated_at)
SELECT ${q(deployment)}, v.uid, ${phaseOf},
  CASE ${number} WHEN 7 THEN 'failed' WHEN 14 THEN 'rejected' ELSE 'applied' END,
  CASE ${number} WHEN 7 THEN 'flash-write' WHEN 14 THEN 'firmware-too-old' ELSE '' END,
  CASE ${number} WHEN 7 THEN 'Flash write failed at 62 %' WHEN 14 THEN 'Needs firmware 2.0 or later' ELSE '' END,
  strftime('%Y-%m-%dT%H:%M:%fZ', (SELECT started_at FROM deployments WHERE id = ${q(deployment)}),
    printf('+%d seconds', ${phaseOf} * ${PHASE_HOURS * 3600} + 20 + (${number} * 131) % 5400))
FROM devices v WHERE v.${ofFleet(fleet)} AND ${ours} AND ${number} <> 21
  AND ${number} % 10 <> 0 AND ${number} % 23 <> 0 AND ${number} % 31 <> 0 AND ${number} % 47 <> 0
  AND NOT EXISTS (SELECT 1 FROM deployment_devices x WHERE x.deployment_id = ${q(deployment)});`,
    `UPDATE devices SET reported_revision = CASE WHEN ${NUMBER} IN (33, 66) THEN 'rev_programmed_locally' ELSE ${q(revision)} END
WHERE reported_revision IS NULL AND uid IN (
  SELECT uid FROM deployment_devices WHERE deployment_id = ${q(deployment)} AND state = 'applied'
);`,
  ];
}
