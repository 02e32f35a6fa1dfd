import type { RouteDefinition } from "../types";
import { addDevicePage, registryAddDevicePage } from "./add";
import { deviceAssignmentPage, editDeviceAssignmentPage } from "./assignment";
import { editDevicePage, registryEditDevicePage } from "./edit";
import { exportDevicesPage, registryExportDevicesPage } from "./export-csv";
import { importDevicesPage, registryImportDevicesPage } from "./import";
import { devicesListPage, registryDevicesPage } from "./list";
import { redirectDevicePage, registryRedirectDevicePage } from "./redirect";
import { registryAllocatePage, registryDeallocatePage, registryEditAllocationPage } from "./registry-seats";
import { registryRedirectPage, registrySubscriptionsPage } from "./registry-subscriptions";
import { registryViewDevicePage, viewDevicePage } from "./view";

/**
 * The inventory (spec §2): /devices for manage-devices, and an account's registry under
 * /accounts/{id}/registry (view-devices-in-accounts; changes need manage-devices, checked by
 * the procedures and, for the change screens, here too). Fixed words before the ids. The
 * connectivity test (devices/test/{uid}) and the command screens are src/routes/commands/routes.ts.
 */
const top: [string, string, RouteDefinition["page"]][] = [
  ["/devices", "routes.devices", devicesListPage],
  ["/devices/add", "routes.addDevice", addDevicePage],
  ["/devices/import", "routes.importDevices", importDevicesPage],
  ["/devices/export.csv", "routes.devices", exportDevicesPage],
  ["/devices/edit/:uid", "routes.editDevice", editDevicePage],
  ["/devices/view/:uid", "routes.device", viewDevicePage],
  ["/devices/uid/:uid", "routes.deviceAssignment", deviceAssignmentPage],
  ["/devices/uid/:uid/edit", "routes.editDeviceAssignment", editDeviceAssignmentPage],
  ["/devices/redirect/:uid", "routes.redirectDevice", redirectDevicePage],
];

const registry: [
  string,
  string,
  "view-devices-in-accounts" | "manage-devices" | "view-subscriptions-in-accounts" | undefined,
  RouteDefinition["page"],
][] = [
  ["", "routes.registry", undefined, registryRedirectPage],
  ["/devices", "routes.registry", "view-devices-in-accounts", registryDevicesPage],
  ["/devices/add", "routes.addDevice", "manage-devices", registryAddDevicePage],
  ["/devices/add/:uid", "routes.addDevice", "manage-devices", registryAddDevicePage],
  ["/devices/import", "routes.importDevices", "manage-devices", registryImportDevicesPage],
  ["/devices/export.csv", "routes.registry", "view-devices-in-accounts", registryExportDevicesPage],
  ["/devices/edit/:uid", "routes.editDevice", "manage-devices", registryEditDevicePage],
  ["/devices/view/:uid", "routes.device", "view-devices-in-accounts", registryViewDevicePage],
  ["/devices/redirect/:uid", "routes.redirectDevice", "manage-devices", registryRedirectDevicePage],
  ["/subscriptions", "routes.registry", "view-subscriptions-in-accounts", registrySubscriptionsPage],
  ["/subscriptions/allocate", "routes.allocateToAccount", "view-subscriptions-in-accounts", registryAllocatePage],
  ["/subscriptions/deallocate", "routes.deallocateFromAccount", "view-subscriptions-in-accounts", registryDeallocatePage],
  [
    "/subscriptions/editAllocation/:allocationId",
    "routes.editAllocation",
    "view-subscriptions-in-accounts",
    registryEditAllocationPage,
  ],
];

export const deviceRoutes: RouteDefinition[] = [
  ...top.map(
    ([path, title, page]): RouteDefinition => ({ path, title, access: "signed-in", permission: "manage-devices", page }),
  ),
  ...registry.map(
    ([path, title, permission, page]): RouteDefinition => ({
      path: `/accounts/:accountId/registry${path}`,
      title,
      access: "signed-in",
      ...(permission ? { permission } : {}),
      page,
    }),
  ),
];
