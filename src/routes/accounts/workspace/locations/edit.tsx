import { definePage, type PageProps } from "@/routes/types";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { Location } from "@/server/data/locations";
import { usePage } from "@/server/render/page-context";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { editLocationHref, locationsHref, siteLocationHref } from "../paths";
import { LocationEditor, type SiteOption, saveOrDeleteLocation } from "./location-form";

type Data = { account: AccountDetails; location: Location; sites: SiteOption[] };

function EditLocation({ data, form }: PageProps<Data>) {
  const { t, user } = usePage();
  const { account, location, sites } = data;
  return (
    <AccountLayout account={account}>
      <PageHeader
        title={location.name}
        description={
          <>
            <a href={locationsHref(account._id)} className="font-medium text-brand-700 hover:underline">
              {t("routes.locations")}
            </a>
            {user?.permissions["edit-network-config"] && (
              <>
                {" · "}
                <a
                  href={siteLocationHref(account._id, location.siteId, location._id, "network")}
                  className="font-medium text-brand-700 hover:underline"
                >
                  {t("locations.networkLink")}
                </a>
              </>
            )}
          </>
        }
      />
      <LocationEditor action={editLocationHref(account._id, location._id)} location={location} sites={sites} form={form} />
    </AccountLayout>
  );
}

/** /accounts/:accountId/locations/edit/:locationId (edit-configurations): site, name, description; delete. */
export const editLocationPage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const caller = api(c);
    const [account, location, sites] = await Promise.all([
      accountDetails(c, accountId),
      caller.locations.details({ accountId, id: c.req.param("locationId") ?? "" }),
      caller.locations.siteOptions({ accountId }),
    ]);
    return { account, location, sites };
  },
  Component: EditLocation,
  action: (c) =>
    saveOrDeleteLocation(c, {
      saved: (location) => editLocationHref(location.accountId, location._id),
      deleted: () => locationsHref(c.req.param("accountId") ?? ""),
    }),
  toaster: true,
});
