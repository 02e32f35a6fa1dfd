import type { RouteDefinition } from "@/routes/types";
import { reviewChangesPage } from "./changes";
import { activityLogExportPage } from "./export-csv";
import { activityLogsPage } from "./logs";

/**
 * An account's activity log (open to every signed-in user of the account, spec §6), its CSV,
 * and the review of changes to deploy (create-deployments, the flag of its button).
 */
export const activityRoutes: RouteDefinition[] = [
  { path: "/accounts/:accountId/activity-logs", title: "routes.activityLogs", access: "signed-in", page: activityLogsPage },
  {
    path: "/accounts/:accountId/activity-logs/export.csv",
    title: "routes.activityLogs",
    access: "signed-in",
    page: activityLogExportPage,
  },
  {
    path: "/accounts/:accountId/changes",
    title: "routes.changes",
    access: "signed-in",
    permission: "create-deployments",
    page: reviewChangesPage,
  },
];
