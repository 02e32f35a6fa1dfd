import type { ReportTable } from "@/schema/reports";
import { all, type Db, first } from "../db";

export type InventoryGrouping = "model" | "firmware" | "site" | "location";

// Each grouping sums report_device_counts (migration 0021): one row per site, location, model
// and firmware of the account's active radios, kept by triggers, so the cost follows how varied
// the fleet is, not how many radios it has. '' stands for "none" in the roll-up.
const grouped: Record<InventoryGrouping, string> = {
  model: `SELECT model AS label, sum(radios) AS radios FROM report_device_counts
          WHERE account_id = ?1 GROUP BY model ORDER BY radios DESC, label`,
  firmware: `SELECT firmware AS label, sum(radios) AS radios FROM report_device_counts
             WHERE account_id = ?1 GROUP BY firmware ORDER BY radios DESC, label`,
  site: `SELECT g.site_id AS id, s.name AS label, g.radios FROM (
           SELECT site_id, sum(radios) AS radios FROM report_device_counts WHERE account_id = ?1 GROUP BY site_id
         ) g LEFT JOIN sites s ON s.id = g.site_id ORDER BY g.radios DESC, label`,
  // Radios at a site but no location there are named by the site alone.
  location: `SELECT g.location_id AS id, coalesce(s.name || ' / ' || l.name, s.name) AS label, g.radios FROM (
               SELECT site_id, location_id, sum(radios) AS radios FROM report_device_counts
               WHERE account_id = ?1 GROUP BY site_id, location_id
             ) g LEFT JOIN sites s ON s.id = g.site_id LEFT JOIN locations l ON l.id = g.location_id
             ORDER BY g.radios DESC, label`,
};

/** Radios by model, firmware, site or location, and the account's assigned radios against its seats. */
export async function inventoryReport(db: Db, accountId: string, by: InventoryGrouping): Promise<ReportTable> {
  const [rows, seats] = await Promise.all([
    all<{ label: string | null; radios: number }>(db, grouped[by], accountId),
    first<{ used: number; seats: number }>(
      db,
      `SELECT a.devices_in_use AS used, (SELECT coalesce(sum(quantity), 0) FROM allocations WHERE account_id = a.id) AS seats
       FROM accounts a WHERE a.id = ?1`,
      accountId,
    ),
  ]);
  const total = rows.reduce((sum, row) => sum + row.radios, 0);
  return {
    columns: [
      { key: "label", kind: "text", label: `reports.groupings.${by}` },
      { key: "radios", kind: "count", label: "reports.columns.radios" },
      { key: "share", kind: "percent", label: "reports.columns.share" },
    ],
    rows: rows.map((row) => ({
      label: row.label || null,
      radios: row.radios,
      share: total ? row.radios / total : 0,
    })),
    category: "label",
    series: ["radios"],
    unit: "reports.units.radios",
    summary: [
      { label: "reports.summary.radios", value: total },
      { label: "reports.summary.assigned", value: seats?.used ?? 0 },
      { label: "reports.summary.seats", value: seats?.seats ?? 0 },
    ],
  };
}
