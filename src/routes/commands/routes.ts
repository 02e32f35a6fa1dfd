import type { RouteDefinition } from "@/routes/types";
import { commandBatchesPage, commandBatchPage } from "./batches";
import { bulkSendPage } from "./bulk";
import { commandDetailPage } from "./detail";
import { commandHistoryPage } from "./history";
import { RESERVED } from "./paths";
import { sendCommandPage } from "./send";
import { connectivityTestPage } from "./test";

/**
 * Commands to radios (spec §2), in the organization's inventory (manage-devices) and inside an
 * account's registry (view-devices-in-accounts to read; sending needs manage-devices, checked
 * by the route and again by the procedures).
 */
function commandRoutes(base: string, viewing: "manage-devices" | "view-devices-in-accounts"): RouteDefinition[] {
  const uid = `:uid{${RESERVED}}`;
  return [
    {
      path: `${base}/batches`,
      title: "routes.commandBatches",
      access: "signed-in",
      permission: viewing,
      page: commandBatchesPage,
    },
    {
      path: `${base}/batches/:batchId`,
      title: "routes.commandBatch",
      access: "signed-in",
      permission: viewing,
      page: commandBatchPage,
    },
    {
      path: `${base}/send-command`,
      title: "routes.sendBulkCommand",
      access: "signed-in",
      permission: "manage-devices",
      page: bulkSendPage,
    },
    {
      path: `${base}/test/:uid`,
      title: "routes.deviceTest",
      access: "signed-in",
      permission: "manage-devices",
      page: connectivityTestPage,
    },
    {
      path: `${base}/${uid}/commands`,
      title: "routes.deviceCommands",
      access: "signed-in",
      permission: viewing,
      page: commandHistoryPage,
    },
    {
      path: `${base}/${uid}/commands/:commandId`,
      title: "routes.deviceCommand",
      access: "signed-in",
      permission: viewing,
      page: commandDetailPage,
    },
    {
      path: `${base}/${uid}/send-command`,
      title: "routes.sendCommand",
      access: "signed-in",
      permission: "manage-devices",
      page: sendCommandPage,
    },
  ];
}

export const deviceCommandRoutes: RouteDefinition[] = [
  ...commandRoutes("/devices", "manage-devices"),
  ...commandRoutes("/accounts/:accountId/registry/devices", "view-devices-in-accounts"),
];
