import { definePage } from "@/routes/types";
import type { Language } from "@/schema/languages";
import { wallClock } from "@/schema/zoned-date";
import { api } from "@/server/api/procedures-route";
import { ACTIVITY_PAGE_MAX } from "@/server/api/routers/activity-logs";
import { accountDetails } from "@/server/current-account";
import type { ActivityEntry } from "@/server/data/activity-logs";
import { translatorFor } from "@/server/i18n/i18n";
import { diffWords, entityTypeLabel, type Text, textOf } from "@/ui/activity/activity-entry";
import { diffLines, diffLineText } from "@/ui/activity/diff-lines";
import { parseActivityFilters, procedureFilter } from "./filters";

/** The file holds at most this many entries, newest first (a Worker's request has bounded time). */
export const EXPORT_MAX_ROWS = 10_000;

// A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR) is kept as text.
function inert(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function record(entry: ActivityEntry, text: Text, timeZone: string, language: Language) {
  const changes = diffLines(entry.diff, entry.action, diffWords(text, language)).map(diffLineText).join("\n");
  return {
    time: wallClock(entry.createdAt, timeZone),
    utc: entry.createdAt,
    actor: inert(entry.actorEmail),
    action: text(`activityLogs.actions.${entry.action}`),
    type: entityTypeLabel(entry.entityType, text),
    label: inert(entry.entityLabel),
    id: entry.entityId,
    changes: inert(changes),
    deployment: entry.deploymentId ?? (entry.deployable ? text("activityLogs.notDeployed") : ""),
  };
}

function columns(text: Text, timeZone: string) {
  return [
    { key: "time", header: text("activityLogs.csv.time", { timeZone }) },
    { key: "utc", header: text("activityLogs.csv.utc") },
    { key: "actor", header: text("activityLogs.csv.actor") },
    { key: "action", header: text("activityLogs.csv.action") },
    { key: "type", header: text("activityLogs.csv.type") },
    { key: "label", header: text("activityLogs.csv.label") },
    { key: "id", header: text("activityLogs.csv.id") },
    { key: "changes", header: text("activityLogs.csv.changes") },
    { key: "deployment", header: text("activityLogs.csv.deployment") },
  ];
}

/**
 * GET /accounts/{accountId}/activity-logs/export.csv: the log as the page's filters show it, as
 * a CSV file (a header row, RFC 4180 quoting by csv-stringify, UTF-8 with a BOM so spreadsheets
 * read accents), streamed a page of entries at a time. Its "page" is the file: load answers it.
 */
export const activityLogExportPage = definePage({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const account = await accountDetails(c, accountId);
    const filter = procedureFilter(parseActivityFilters(new URL(c.req.url)).applied);
    const t = translatorFor(c.get("language"), c.get("settings").brandNamespace);
    const text = textOf(t);
    const caller = api(c);
    const { stringify } = await import("csv-stringify/browser/esm/sync");
    const fetchPage = (cursor?: string) => caller.activityLogs.list({ accountId, ...filter, cursor, limit: ACTIVITY_PAGE_MAX });

    // The first page before the answer starts, so a refusal is an error page, not a broken file.
    let page = await fetchPage();
    let written = 0;
    let first = true;
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const items = page.items.slice(0, EXPORT_MAX_ROWS - written);
        const csv = stringify(
          items.map((entry) => record(entry, text, account.timezone, c.get("language"))),
          { header: first, bom: first, columns: columns(text, account.timezone), record_delimiter: "windows" },
        );
        first = false;
        written += items.length;
        if (csv) controller.enqueue(encoder.encode(csv));
        if (!page.nextCursor || written >= EXPORT_MAX_ROWS) {
          controller.close();
          return;
        }
        page = await fetchPage(page.nextCursor);
      },
    });
    return new Response(body, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="activity-log-${account._id.replace(/[^\w-]/g, "")}.csv"`,
        "Cache-Control": "no-store",
      },
    });
  },
  Component: () => null,
});
