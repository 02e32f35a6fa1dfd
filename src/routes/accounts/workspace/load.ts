import { TRPCError } from "@trpc/server";
import type { RouteContext } from "@/routes/types";
import { api, apiContext } from "@/server/api/procedures-route";
import { accountDetails } from "@/server/current-account";

/** The account and site of /accounts/:accountId/sites/:siteId/…; another tenant's or account's id is the 404 screen. */
export async function siteOf(c: RouteContext) {
  const accountId = c.req.param("accountId") ?? "";
  const [account, site] = await Promise.all([
    accountDetails(c, accountId),
    api(c).sites.details({ accountId, id: c.req.param("siteId") ?? "" }),
  ]);
  return { account, site };
}

/** The account, site and location of …/sites/:siteId/locations/:locationId/…; a location of another site is not found. */
export async function siteLocationOf(c: RouteContext) {
  const accountId = c.req.param("accountId") ?? "";
  const [{ account, site }, location] = await Promise.all([
    siteOf(c),
    api(c).locations.details({ accountId, id: c.req.param("locationId") ?? "" }),
  ]);
  if (location.siteId !== site._id) {
    throw new TRPCError({ code: "NOT_FOUND", message: String(apiContext(c).t("errors.locationNotFound")) });
  }
  return { account, site, location };
}
