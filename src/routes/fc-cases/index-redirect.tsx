import { definePage } from "@/routes/types";
import { fcTabs } from "@/schema/fc-cases";
import { fcTabHref } from "./paths";

/** /accounts/:accountId/fc-cases: the first tab this user may open (spec §2: fc-dashboard by default). */
export const fcCasesIndexPage = definePage({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const permissions = c.get("user")?.permissions ?? {};
    const tab = fcTabs.find(([, flag]) => permissions[flag])?.[0] ?? "fc-dashboard";
    return c.redirect(fcTabHref(accountId, tab), 302);
  },
  Component: () => null,
});
