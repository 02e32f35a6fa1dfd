import type { ReportTable } from "@/schema/reports";
import { all, type Db, first } from "../db";

/**
 * Seats of the account: each allocation it holds (plan, dates, seats given), and against the
 * total the radios that use one (the account's devices_in_use counter, kept by triggers).
 */
export async function seatsReport(db: Db, accountId: string): Promise<ReportTable> {
  const [rows, account] = await Promise.all([
    all<{ id: string; plan: string; reference: string; startsAt: string; endsAt: string | null; status: string; seats: number }>(
      db,
      `SELECT a.id, s.plan, s.reference, s.starts_at AS startsAt, s.ends_at AS endsAt, s.status, a.quantity AS seats
       FROM allocations a JOIN subscriptions s ON s.id = a.subscription_id
       WHERE a.account_id = ?1 ORDER BY s.starts_at, a.id`,
      accountId,
    ),
    first<{ used: number }>(db, "SELECT devices_in_use AS used FROM accounts WHERE id = ?1", accountId),
  ]);
  const allocated = rows.reduce((sum, row) => sum + row.seats, 0);
  const used = account?.used ?? 0;
  return {
    columns: [
      { key: "plan", kind: "text", label: "reports.columns.plan" },
      { key: "reference", kind: "text", label: "reports.columns.reference" },
      { key: "startsAt", kind: "day", label: "reports.columns.starts" },
      { key: "endsAt", kind: "day", label: "reports.columns.ends" },
      { key: "status", kind: "text", label: "reports.columns.status", translate: "reports.subscriptionStates" },
      { key: "seats", kind: "count", label: "reports.columns.seatsAllocated" },
    ],
    rows: rows.map(({ id: _id, ...row }) => ({ ...row, reference: row.reference || null })),
    category: "plan",
    series: ["seats"],
    unit: "reports.units.seats",
    summary: [
      { label: "reports.summary.allocated", value: allocated },
      { label: "reports.summary.used", value: used },
      { label: "reports.summary.free", value: Math.max(0, allocated - used) },
    ],
  };
}
