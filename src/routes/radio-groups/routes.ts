import type { RouteDefinition } from "../types";
import { deleteRadioGroupPage } from "./delete";
import { editRadioGroupPage, newRadioGroupPage } from "./form";
import { radioGroupsPage } from "./list";

/** Saved groups (issue 25) beside an account's inventory: reading is view-devices-in-accounts, changing manage-devices. */
const base = "/accounts/:accountId/registry/devices/groups";

export const radioGroupRoutes: RouteDefinition[] = [
  { path: base, title: "routes.radioGroups", access: "signed-in", permission: "view-devices-in-accounts", page: radioGroupsPage },
  {
    path: `${base}/new`,
    title: "routes.addRadioGroup",
    access: "signed-in",
    permission: "manage-devices",
    page: newRadioGroupPage,
  },
  {
    path: `${base}/:groupId`,
    title: "routes.radioGroup",
    access: "signed-in",
    permission: "manage-devices",
    page: editRadioGroupPage,
  },
  {
    path: `${base}/:groupId/delete`,
    title: "routes.deleteRadioGroup",
    access: "signed-in",
    permission: "manage-devices",
    page: deleteRadioGroupPage,
  },
];
