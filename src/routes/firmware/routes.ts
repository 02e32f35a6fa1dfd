import type { RouteDefinition } from "../types";
import { deleteFirmwarePackagePage } from "./delete";
import { firmwarePackagesPage } from "./list";
import { uploadFirmwarePage } from "./upload";
import { firmwarePackagePage } from "./view";

/**
 * Firmware packages (issue 26) in both frames of the inventory: the organization's under
 * /devices/firmware and an account's under /accounts/{id}/registry/firmware. All manage-devices
 * (the procedures check it and the package's organization again).
 */
const screens: [string, string, RouteDefinition["page"]][] = [
  ["/firmware", "routes.firmwarePackages", firmwarePackagesPage],
  ["/firmware/new", "routes.uploadFirmware", uploadFirmwarePage],
  ["/firmware/view/:packageId", "routes.firmwarePackage", firmwarePackagePage],
  ["/firmware/view/:packageId/delete", "routes.deleteFirmwarePackage", deleteFirmwarePackagePage],
];

export const firmwareRoutes: RouteDefinition[] = ["/devices", "/accounts/:accountId/registry"].flatMap((base) =>
  screens.map(
    ([path, title, page]): RouteDefinition => ({
      path: `${base}${path}`,
      title,
      access: "signed-in",
      permission: "manage-devices",
      page,
    }),
  ),
);
