import { Island } from "@/islands/runtime/island";
import { formRefusal, postedValues, translatedErrors } from "@/routes/settings/procedure-refusal";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "@/routes/types";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import { usePage } from "@/server/render/page-context";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { addLocationHref, locationsHref, siteLocationHref } from "../paths";
import { locationFieldNames, locationFields, locationInput, type SiteOption } from "./location-form";

type Data = { account: AccountDetails; sites: SiteOption[]; siteId: string };

function AddLocation({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const { account, sites, siteId } = data;
  // Coming from a site's Locations tab, the site is chosen and the new location opens under it.
  const values = form?.values ?? { siteId, from: siteId ? "site" : "list" };
  return (
    <AccountLayout account={account}>
      <PageHeader
        title={String(t("routes.addLocation"))}
        description={
          <>
            <a href={locationsHref(account._id)} className="font-medium text-brand-700 hover:underline">
              {t("routes.locations")}
            </a>
            {" · "}
            {t("locations.add.lead")}
          </>
        }
      />
      <Island
        name="settings-form"
        props={{
          action: addLocationHref(account._id),
          fields: [{ kind: "hidden", name: "from", value: values.from ?? "list" }, ...locationFields(t, sites, values)],
          submitLabel: String(t("locations.add.submit")),
          errors: translatedErrors(form?.errors, t),
        }}
      />
    </AccountLayout>
  );
}

async function addLocation(c: RouteContext): Promise<ActionResult> {
  const accountId = c.req.param("accountId") ?? "";
  const values = await postedValues(c);
  try {
    const location = await api(c).locations.add({ accountId, ...locationInput(values) });
    return {
      ok: true,
      redirect:
        values.from === "site" ? siteLocationHref(accountId, location.siteId, location._id, "general") : locationsHref(accountId),
      flash: { type: "success", key: "locations.added", values: { name: location.name } },
    };
  } catch (error) {
    return formRefusal(error, values, { fields: locationFieldNames });
  }
}

/** /accounts/:accountId/locations/add[?siteId=] (edit-configurations): site, name, description. */
export const addLocationPage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const [account, sites] = await Promise.all([accountDetails(c, accountId), api(c).locations.siteOptions({ accountId })]);
    const asked = c.req.query("siteId") ?? "";
    return { account, sites, siteId: sites.some((site) => site.value === asked) ? asked : "" };
  },
  Component: AddLocation,
  action: addLocation,
  toaster: true,
});
