import { definePage } from "../types";
import { editHref } from "./edit-layout";

/**
 * /accounts/edit/:accountId goes to the General tab (spec §2), or to Network config for a
 * user who may only open that one; the tab's route checks the account and the permission.
 */
export const editAccountPage = definePage({
  load: async (c) => {
    const permissions = c.get("user")?.permissions ?? {};
    const tab = !permissions["edit-configurations"] && permissions["edit-network-config"] ? "network" : "general";
    return c.redirect(editHref(c.req.param("accountId") ?? "", tab), 302);
  },
  Component: () => null,
});
