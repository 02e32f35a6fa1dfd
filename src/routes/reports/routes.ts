import type { RouteDefinition } from "@/routes/types";
import { reportsListPage } from "./list";
import { reportPage } from "./view";

/**
 * An account's reports (spec §2). Which flag opens them depends on the account's level
 * (spec §6), so the procedures check it, not the route table.
 */
export const reportRoutes: RouteDefinition[] = [
  { path: "/accounts/:accountId/reports", title: "routes.reports", access: "signed-in", page: reportsListPage },
  { path: "/accounts/:accountId/reports/:reportId", title: "routes.report", access: "signed-in", page: reportPage },
];
