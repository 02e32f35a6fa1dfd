import type { RouteDefinition } from "@/routes/types";
import type { Permission } from "@/schema/permissions";
import { fcAddCustomerPage, fcCustomerPage, fcCustomersPage } from "./customers";
import { fcDashboardPage } from "./dashboard";
import { fcDeviceSettingsPage, registryFcDeviceSettingsPage } from "./device-settings";
import { fcAddEmployeePage, fcEditEmployeePage, fcEmployeesPage } from "./employees";
import { fcCasesIndexPage } from "./index-redirect";
import { fcSessionPage } from "./session";
import { fcAddSessionPage } from "./session-add";
import { fcSessionsCsvPage } from "./sessions-csv";
import { fcSessionsPage } from "./sessions-list";
import { fcSettingsPage } from "./settings";

const screens: [path: string, title: string, permission: Permission | undefined, page: RouteDefinition["page"]][] = [
  ["", "routes.fcCases", undefined, fcCasesIndexPage],
  ["/fc-dashboard", "routes.fcDashboard", "view-fc-sessions", fcDashboardPage],
  ["/list-fc-sessions", "routes.fcSessions", "view-fc-sessions", fcSessionsPage],
  ["/list-fc-sessions/add", "routes.fcAddSession", "view-fc-sessions", fcAddSessionPage],
  ["/list-fc-sessions/export.csv", "routes.fcSessions", "view-fc-sessions", fcSessionsCsvPage],
  ["/list-fc-sessions/:sessionId", "routes.fcSession", "view-fc-sessions", fcSessionPage],
  ["/list-fc-customers", "routes.fcCustomers", "view-fc-users", fcCustomersPage],
  ["/list-fc-customers/add", "routes.fcAddCustomer", "view-fc-users", fcAddCustomerPage],
  ["/list-fc-customers/:customerId", "routes.fcCustomer", "view-fc-users", fcCustomerPage],
  ["/list-fc-employees", "routes.fcEmployees", "view-fc-users", fcEmployeesPage],
  ["/list-fc-employees/add", "routes.fcAddEmployee", "view-fc-users", fcAddEmployeePage],
  ["/list-fc-employees/edit/:fcUserId", "routes.fcEditEmployee", "view-fc-users", fcEditEmployeePage],
  ["/fc-settings", "routes.fcSettings", "view-all-users", fcSettingsPage],
];

/**
 * The customer-care desk (spec §2, §6, issue 15): /accounts/{id}/fc-cases/{tab} with the flag
 * each tab needs, the sub-routes a session and a customer need (fixed words before ids), and a
 * radio's fc settings in the inventory and in an account's registry (manage-devices: whether
 * remote support is allowed is the fleet's decision, DESIGN §7, not the desk's).
 */
export const fcCasesRoutes: RouteDefinition[] = [
  ...screens.map(
    ([path, title, permission, page]): RouteDefinition => ({
      path: `/accounts/:accountId/fc-cases${path}`,
      title,
      access: "signed-in",
      ...(permission ? { permission } : {}),
      page,
    }),
  ),
  {
    path: "/devices/edit-fc-device-settings/:uid",
    title: "routes.editFcDeviceSettings",
    access: "signed-in",
    permission: "manage-devices",
    page: fcDeviceSettingsPage,
  },
  {
    path: "/accounts/:accountId/registry/devices/edit-fc-device-settings/:uid",
    title: "routes.editFcDeviceSettings",
    access: "signed-in",
    permission: "manage-devices",
    page: registryFcDeviceSettingsPage,
  },
];
