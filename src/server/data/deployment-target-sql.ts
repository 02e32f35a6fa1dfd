import type { DeploymentTarget } from "@/schema/fleet/deployment-target";

/**
 * The SQL twins of schema/fleet/deployment-target.ts `inTarget`: whether the radio row `alias`
 * is in a deployment's target now. Two forms: with the target's values written in as literals
 * (one known deployment: its counts, its radios, syncSqlOf), and over the columns that
 * `deploymentsConcerningRadiosSql` extracts (every deployment of an account in one statement).
 * The model test (tests/worker/deployment-model.ts) holds both equal to the JavaScript.
 */
const literal = (text: string | number) => (typeof text === "number" ? String(text) : `'${text.replaceAll("'", "''")}'`);

const reportedOn = (alias: string, deploymentId: string, failedOnly: boolean) =>
  `EXISTS (SELECT 1 FROM deployment_devices x WHERE x.deployment_id = ${deploymentId} AND x.uid = ${alias}.uid${
    failedOnly ? " AND x.state IN ('failed', 'rejected')" : ""
  })`;

const hasEveryTag = (alias: string, tagsJson: string) =>
  `NOT EXISTS (SELECT 1 FROM json_each(${tagsJson}) j WHERE NOT EXISTS (
     SELECT 1 FROM device_tags t WHERE t.uid = ${alias}.uid AND t.tag = j.value))`;

/** `inTarget` for one known target, as a condition on `alias` ("1": every radio, "0": none). */
export function targetMatchSql(alias: string, target: DeploymentTarget | null): string {
  if (target === null) return "1";
  if (target.none && target.kind === "filter") return "0";
  const conditions = target.none ? ["0"] : ["1"];
  if (target.siteId !== undefined) conditions.push(`${alias}.site_id = ${literal(target.siteId)}`);
  if (target.locationId !== undefined) conditions.push(`${alias}.location_id = ${literal(target.locationId)}`);
  if (target.model !== undefined) conditions.push(`${alias}.model = ${literal(target.model)}`);
  if (target.firmware !== undefined) conditions.push(`${alias}.firmware = ${literal(target.firmware)}`);
  if (target.models !== undefined) conditions.push(`${alias}.model IN (${target.models.map(literal).join(", ") || "NULL"})`);
  if (target.tags && target.tags.length > 0) conditions.push(hasEveryTag(alias, literal(JSON.stringify(target.tags))));
  const meets = `(${conditions.join(" AND ")})`;
  if (target.kind === "filter") return meets;
  const of = literal(target.deploymentId);
  return `(${reportedOn(alias, of, true)} OR (${alias}.rollout_bucket < ${target.timedOutTo} AND NOT ${reportedOn(alias, of, false)} AND ${meets}))`;
}

/** The columns `targetColumnsMatchSql` reads, extracted from deployments `d`'s stored target. */
export const targetColumnsSql = `json_extract(d.target, '$.kind') AS t_kind, json_extract(d.target, '$.none') AS t_none,
  json_extract(d.target, '$.siteId') AS t_site, json_extract(d.target, '$.locationId') AS t_location,
  json_extract(d.target, '$.model') AS t_model, json_extract(d.target, '$.firmware') AS t_firmware,
  json_extract(d.target, '$.tags') AS t_tags, json_extract(d.target, '$.models') AS t_models, json_extract(d.target, '$.deploymentId') AS t_of,
  json_extract(d.target, '$.timedOutTo') AS t_to`;

/** `inTarget` for the deployment row `p` (carrying `targetColumnsSql`) and the radio row `v`. */
export function targetColumnsMatchSql(p: string, v: string): string {
  const meets = `(${p}.t_none IS NULL
      AND (${p}.t_site IS NULL OR ${v}.site_id = ${p}.t_site)
      AND (${p}.t_location IS NULL OR ${v}.location_id = ${p}.t_location)
      AND (${p}.t_model IS NULL OR ${v}.model = ${p}.t_model)
      AND (${p}.t_firmware IS NULL OR ${v}.firmware = ${p}.t_firmware)
      AND (${p}.t_models IS NULL OR ${v}.model IN (SELECT value FROM json_each(${p}.t_models)))
      AND ${hasEveryTag(v, `${p}.t_tags`)})`;
  return `(${p}.t_kind IS NULL
    OR (${p}.t_kind = 'filter' AND ${meets})
    OR (${p}.t_kind = 'failedOf' AND (${reportedOn(v, `${p}.t_of`, true)}
      OR (${v}.rollout_bucket < ${p}.t_to AND NOT ${reportedOn(v, `${p}.t_of`, false)} AND ${meets}))))`;
}
