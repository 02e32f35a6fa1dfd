import { definePage } from "@/routes/types";
import { wallClock } from "@/schema/zoned-date";
import { api } from "@/server/api/procedures-route";
import { accountDetails } from "@/server/current-account";
import type { FcSession } from "@/server/data/fc-sessions";
import { translatorFor } from "@/server/i18n/i18n";
import { sessionQuery } from "./sessions-list";

/** The file holds at most this many sessions, newest first (a Worker's request has bounded time). */
const EXPORT_MAX_ROWS = 10_000;

// A cell a spreadsheet would run as a formula is kept as text (as the activity log's CSV does).
const inert = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/**
 * GET …/fc-cases/list-fc-sessions/export.csv: the sessions the list's filters show, as CSV
 * (csv-stringify, UTF-8 with a BOM), streamed a keyset page at a time like the activity log's.
 */
export const fcSessionsCsvPage = definePage({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const account = await accountDetails(c, accountId);
    const query = sessionQuery(c);
    const t = translatorFor(c.get("language"), c.get("settings").brandNamespace);
    const { stringify } = await import("csv-stringify/browser/esm/sync");
    const caller = api(c);
    const fetchPage = (after?: string) => caller.fcCases.listSessions({ accountId, ...query, after, pageSize: 100 });
    const columns = ["id", "subject", "status", "priority", "category", "customer", "assignee", "opened", "closed"].map(
      (key) => ({
        key,
        header: String(t(`fc.csv.${key}`)),
      }),
    );
    const record = (s: FcSession) => ({
      id: s.id,
      subject: inert(s.subject),
      status: String(t(`fc.status.${s.status}`)),
      priority: String(t(`fc.priority.${s.priority}`)),
      category: inert(s.category),
      customer: inert(s.customerName ?? ""),
      assignee: inert(s.assigneeName ?? ""),
      opened: wallClock(s.createdAt, account.timezone),
      closed: s.closedAt ? wallClock(s.closedAt, account.timezone) : "",
    });
    let page = await fetchPage();
    let written = 0;
    let first = true;
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const items = page.items.slice(0, EXPORT_MAX_ROWS - written);
        const csv = stringify(items.map(record), { header: first, bom: first, columns, record_delimiter: "windows" });
        first = false;
        written += items.length;
        if (csv) controller.enqueue(encoder.encode(csv));
        if (!page.next || written >= EXPORT_MAX_ROWS) {
          controller.close();
          return;
        }
        page = await fetchPage(page.next);
      },
    });
    return new Response(body, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="support-sessions-${account._id.replace(/[^\w-]/g, "")}.csv"`,
        "Cache-Control": "no-store",
      },
    });
  },
  Component: () => null,
});
