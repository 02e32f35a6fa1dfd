import type { ReportTable } from "@/schema/reports";
import { all, type Db } from "../db";

/** Dotted versions compared part by part as numbers ("1.10.0" is newer than "1.9.2"). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/);
  const pb = b.split(/[.-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? "";
    const y = pb[i] ?? "";
    const nx = Number(x);
    const ny = Number(y);
    const diff = Number.isFinite(nx) && Number.isFinite(ny) && x !== "" && y !== "" ? nx - ny : x.localeCompare(y);
    if (diff !== 0) return diff;
  }
  return 0;
}

/**
 * Firmware versions across the account's radios (a grouped read of report_device_counts), newest first;
 * every version older than the newest one reported counts as old. Radios that never reported
 * a version are their own row.
 */
export async function firmwareReport(db: Db, accountId: string): Promise<ReportTable> {
  const rows = await all<{ version: string; radios: number }>(
    db,
    `SELECT firmware AS version, sum(radios) AS radios FROM report_device_counts WHERE account_id = ?1 GROUP BY firmware`,
    accountId,
  );
  const known = rows.filter((row) => row.version !== "").sort((a, b) => compareVersions(b.version, a.version));
  const latest = known[0]?.version ?? null;
  const unknown = rows.find((row) => row.version === "");
  const ordered = unknown ? [...known, unknown] : known;
  const old = known.filter((row) => row.version !== latest).reduce((sum, row) => sum + row.radios, 0);
  const total = rows.reduce((sum, row) => sum + row.radios, 0);
  return {
    columns: [
      { key: "version", kind: "text", label: "reports.columns.firmware" },
      { key: "current", kind: "count", label: "reports.columns.latest" },
      { key: "old", kind: "count", label: "reports.columns.old" },
      { key: "unknown", kind: "count", label: "reports.columns.unreported" },
    ],
    rows: ordered.map((row) => ({
      version: row.version || null,
      current: row.version !== "" && row.version === latest ? row.radios : 0,
      old: row.version !== "" && row.version !== latest ? row.radios : 0,
      unknown: row.version === "" ? row.radios : 0,
    })),
    category: "version",
    series: ["current", "old", "unknown"],
    unit: "reports.units.radios",
    summary: [
      { label: "reports.summary.radios", value: total },
      { label: "reports.summary.onOldFirmware", value: old },
      { label: "reports.summary.versions", value: known.length },
    ],
  };
}
