import { csvDownload } from "@/routes/csv-download";
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

function record(entry: ActivityEntry, text: Text, timeZone: string, language: Language) {
  const changes = diffLines(entry.diff, entry.action, diffWords(text, language)).map(diffLineText).join("\n");
  return {
    time: wallClock(entry.createdAt, timeZone),
    utc: entry.createdAt,
    actor: entry.actorEmail,
    action: text(`activityLogs.actions.${entry.action}`),
    type: entityTypeLabel(entry.entityType, text),
    label: entry.entityLabel,
    id: entry.entityId,
    changes,
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
 * a CSV file (see csvDownload), streamed a page of entries at a time. Its "page" is the file:
 * load answers it.
 */
export const activityLogExportPage = definePage({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const account = await accountDetails(c, accountId);
    const filter = procedureFilter(parseActivityFilters(new URL(c.req.url)).applied);
    const t = translatorFor(c.get("language"), c.get("settings").brandNamespace);
    const text = textOf(t);
    const caller = api(c);
    return csvDownload({
      filename: `activity-log-${account._id}.csv`,
      columns: columns(text, account.timezone),
      fetchPage: async (cursor?: string) => {
        const page = await caller.activityLogs.list({ accountId, ...filter, cursor, limit: ACTIVITY_PAGE_MAX });
        return { items: page.items, next: page.nextCursor };
      },
      record: (entry) => record(entry, text, account.timezone, c.get("language")),
      maxRows: EXPORT_MAX_ROWS,
    });
  },
  Component: () => null,
});
