import { definePage } from "@/routes/types";
import { AppError } from "@/server/errors";
import { allowedSiteLocationTabs, allowedSiteTabs } from "../layouts";
import { siteLocationOf, siteOf } from "../load";
import { siteHref, siteLocationHref } from "../paths";

/**
 * /accounts/:accountId/sites/:siteId: opens the first tab this user may see (General, or Network
 * for someone who may edit only network settings). The site is looked up first, so an unknown
 * or another tenant's id is "not found" rather than a redirect.
 */
export const openSitePage = definePage({
  load: async (c) => {
    const { account, site } = await siteOf(c);
    const [tab] = allowedSiteTabs(c.get("user")?.permissions ?? {});
    if (!tab) throw new AppError("FORBIDDEN");
    return c.redirect(siteHref(account._id, site._id, tab), 302);
  },
  Component: () => null,
});

/** /accounts/:accountId/sites/:siteId/locations/:locationId: the first tab this user may see. */
export const openSiteLocationPage = definePage({
  load: async (c) => {
    const { account, site, location } = await siteLocationOf(c);
    const [tab] = allowedSiteLocationTabs(c.get("user")?.permissions ?? {});
    if (!tab) throw new AppError("FORBIDDEN");
    return c.redirect(siteLocationHref(account._id, site._id, location._id, tab), 302);
  },
  Component: () => null,
});
