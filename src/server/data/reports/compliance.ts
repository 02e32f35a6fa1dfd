import { type ContactState, contactStates, type SyncState, syncStates } from "@/schema/fleet/sync-state";
import type { ReportTable } from "@/schema/reports";
import type { Db } from "../db";
import { accountSyncGroups } from "../sync-snapshots";
import { siteNames } from "./places";

type SiteCounts = Record<SyncState | ContactState, number> & { total: number };

/**
 * Configuration compliance by site: each active radio counted once on each of its two
 * dimensions (schema/fleet/sync-state.ts), sync (in sync, pending, failed, drifted, never
 * deployed) and contact (seen recently, overdue, never seen). The counts are accountSyncGroups,
 * the same read as the account home, the registry and the API (a large account's snapshot, with
 * its time), so they never disagree.
 */
export async function complianceReport(db: Db, accountId: string, now = new Date()): Promise<ReportTable> {
  const [{ groups, asOf }, names] = await Promise.all([accountSyncGroups(db, accountId, now), siteNames(db, accountId)]);
  const sites = new Map<string, SiteCounts>();
  for (const group of groups) {
    const site = group.key ?? "";
    const counts =
      sites.get(site) ??
      ({ ...Object.fromEntries([...syncStates, ...contactStates].map((s) => [s, 0])), total: 0 } as SiteCounts);
    counts[group.sync] += group.radios;
    counts[group.contact] += group.radios;
    counts.total += group.radios;
    sites.set(site, counts);
  }
  const rows = [...sites]
    .map(([site, counts]) => ({ site: site ? (names.get(site) ?? site) : null, ...counts }))
    .sort((a, b) => b.total - a.total || String(a.site).localeCompare(String(b.site)));
  const sum = (key: SyncState | ContactState | "total") => rows.reduce((acc, row) => acc + row[key], 0);
  return {
    columns: [
      { key: "site", kind: "text", label: "reports.groupings.site" },
      ...syncStates.map((s) => ({ key: s, kind: "count" as const, label: `reports.compliance.sync.${s}` })),
      ...contactStates.map((s) => ({ key: s, kind: "count" as const, label: `reports.compliance.contact.${s}` })),
      { key: "total", kind: "count", label: "reports.columns.total" },
    ],
    rows,
    category: "site",
    // The bars stack the sync states (each radio once); the contact columns are in the table.
    series: [...syncStates],
    unit: "reports.units.radios",
    ...(asOf ? { asOf } : {}),
    summary: [
      { label: "reports.summary.radios", value: sum("total") },
      ...syncStates.map((s) => ({ label: `reports.compliance.sync.${s}`, value: sum(s) })),
      ...contactStates.map((s) => ({ label: `reports.compliance.contact.${s}`, value: sum(s) })),
    ],
  };
}
