import { env } from "cloudflare:test";
import type { Role } from "@/server/auth/roles";
import { roles } from "@/server/auth/roles";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import type { Tenant } from "./procedure-samples";

/**
 * A tenant with one of everything the procedure samples name (a dealer, its customer, an
 * account with a site, location, profile, rule, subscription and allocation, a template) and
 * a signed-in user of every role. The matrices and the fuzz test call procedures with it.
 */
export async function makeTenant(
  label: string,
  /** Another account of an existing tenant's organizations (a sibling), instead of new organizations. */
  within?: { orgId: string; childOrgId: string },
): Promise<Tenant & { cookies: Record<Role, string> }> {
  const orgId = within?.orgId ?? (await createOrganization(`${label} dealer`));
  const childOrgId = within?.childOrgId ?? (await createOrganization(`${label} customer`, orgId));
  const accountId = await createAccount(childOrgId, "Matrix fleet");
  const subscriptionId = `sub_${label}_${crypto.randomUUID().slice(0, 8)}`;
  const allocationId = `alc_${label}_${crypto.randomUUID().slice(0, 8)}`;
  const siteId = `site_${label}_${crypto.randomUUID().slice(0, 8)}`;
  const locationId = `loc_${label}_${crypto.randomUUID().slice(0, 8)}`;
  const profileId = `prf_${label}_${crypto.randomUUID().slice(0, 8)}`;
  const ruleId = `rule_${label}_${crypto.randomUUID().slice(0, 8)}`;
  const templateId = `prf_tpl_${label}_${crypto.randomUUID().slice(0, 8)}`;
  const revisionId = `rev_${label}_${crypto.randomUUID().slice(0, 8)}`;
  const deploymentId = `dep_${label}_${crypto.randomUUID().slice(0, 8)}`;
  const deviceUid = `MTX-${label}-${crypto.randomUUID().slice(0, 8)}`;
  const buttons = JSON.stringify({ side1: "monitor", side2: "scan", top: "none", emergency: "emergency-alarm" });
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO subscriptions (id, org_id, plan, quantity, starts_at) VALUES (?, ?, 'Matrix plan', 10, '2026-01-01')",
    ).bind(subscriptionId, childOrgId),
    env.DB.prepare("INSERT INTO allocations (id, subscription_id, account_id, quantity) VALUES (?, ?, ?, 2)").bind(
      allocationId,
      subscriptionId,
      accountId,
    ),
    env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES (?, ?, 'Matrix site')").bind(siteId, accountId),
    env.DB.prepare("INSERT INTO locations (id, account_id, site_id, name) VALUES (?, ?, ?, 'Matrix room')").bind(
      locationId,
      accountId,
      siteId,
    ),
    env.DB.prepare(
      "INSERT INTO profiles (id, org_id, account_id, type, name, settings) VALUES (?, ?, ?, 'buttons', ?, ?), (?, ?, NULL, 'buttons', ?, ?)",
    ).bind(
      profileId,
      childOrgId,
      accountId,
      // A sibling's profiles share their organizations' names: its own, then.
      within ? `${label} radios` : "Matrix radios",
      buttons,
      templateId,
      orgId,
      within ? `${label} template` : "Matrix template",
      buttons,
    ),
    env.DB.prepare("INSERT INTO rules (id, account_id, name, priority) VALUES (?, ?, 'Matrix rule', 1)").bind(ruleId, accountId),
    env.DB.prepare("INSERT INTO rule_profiles (rule_id, profile_id, position) VALUES (?, ?, 1)").bind(ruleId, profileId),
    env.DB.prepare("INSERT INTO rule_sets (account_id, version) VALUES (?, 1)").bind(accountId),
    env.DB.prepare("INSERT INTO revisions (id, account_id, number, content_hash, content) VALUES (?, ?, 1, 'x', ?)").bind(
      revisionId,
      accountId,
      // What a confirm freezes (src/schema/fleet/desired-config.ts), for an empty account.
      JSON.stringify({ network: { account: {}, sites: {}, locations: {} }, profiles: {}, rules: [] }),
    ),
    env.DB.prepare(
      `INSERT INTO deployments (id, account_id, org_id, number, revision_id, previous_revision_id, state, plan, switchover, targeted, created_by)
       VALUES (?, ?, ?, 1, ?, ?, 'running', '{"phases":[{"share":100,"successPercent":100,"successAction":"next","errorKind":"count","errorValue":1,"errorMinimum":0,"waitMinutes":0}]}', '{"mode":"delivery"}', 0, 'matrix')`,
    ).bind(deploymentId, accountId, childOrgId, revisionId, revisionId),
    env.DB.prepare(
      "INSERT INTO devices (uid, org_id, account_id, brand, model, secret_hash) VALUES (?, ?, ?, 'Northwind', 'XR-7', 'x')",
    ).bind(deviceUid, childOrgId, accountId),
  ]);
  const cookies = {} as Record<Role, string>;
  let userId = "";
  for (const role of roles) {
    const user = await createUser({ orgId, role });
    userId ||= user.id;
    cookies[role] = await sessionCookie(user.email);
  }
  return {
    orgId,
    childOrgId,
    accountId,
    userId,
    subscriptionId,
    allocationId,
    siteId,
    locationId,
    profileId,
    ruleId,
    templateId,
    deploymentId,
    deviceUid,
    cookies,
  };
}
