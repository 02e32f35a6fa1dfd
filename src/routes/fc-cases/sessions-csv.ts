import { csvDownload } from "@/routes/csv-download";
import { definePage } from "@/routes/types";
import { zonedHeader } from "@/schema/format";
import { wallClock } from "@/schema/zoned-date";
import { api } from "@/server/api/procedures-route";
import { accountDetails } from "@/server/current-account";
import type { FcSession } from "@/server/data/fc-sessions";
import { translatorFor } from "@/server/i18n/i18n";
import { sessionQuery } from "./sessions-list";

/** The file holds at most this many sessions, newest first (a Worker's request has bounded time). */
const EXPORT_MAX_ROWS = 10_000;

/**
 * GET …/fc-cases/list-fc-sessions/export.csv: the sessions the list's filters show, as CSV
 * (see csvDownload), streamed a keyset page at a time.
 */
export const fcSessionsCsvPage = definePage({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const account = await accountDetails(c, accountId);
    const query = sessionQuery(c);
    const t = translatorFor(c.get("language"), c.get("settings").brandNamespace);
    const caller = api(c);
    const columns = ["id", "subject", "status", "priority", "category", "customer", "assignee", "opened", "closed"].map(
      (key) => ({
        key,
        // Moments are on the account's wall clock: their headers name the zone.
        header:
          key === "opened" || key === "closed"
            ? zonedHeader(String(t(`fc.csv.${key}`)), account.timezone)
            : String(t(`fc.csv.${key}`)),
      }),
    );
    const record = (s: FcSession) => ({
      id: s.id,
      subject: s.subject,
      status: String(t(`fc.status.${s.status}`)),
      priority: String(t(`fc.priority.${s.priority}`)),
      category: s.category,
      customer: s.customerName ?? "",
      assignee: s.assigneeName ?? "",
      opened: wallClock(s.createdAt, account.timezone),
      closed: s.closedAt ? wallClock(s.closedAt, account.timezone) : "",
    });
    return csvDownload({
      filename: `support-sessions-${account._id}.csv`,
      columns,
      fetchPage: (after?: string) => caller.fcCases.listSessions({ accountId, ...query, after, pageSize: 100 }),
      record,
      maxRows: EXPORT_MAX_ROWS,
    });
  },
  Component: () => null,
});
