import { Island } from "@/islands/runtime/island";
import { formRefusal, postedValues, translatedErrors } from "@/routes/settings/procedure-refusal";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "@/routes/types";
import { api } from "@/server/api/procedures-route";
import type { AccountDetails } from "@/server/current-account";
import type { Location } from "@/server/data/locations";
import type { Site } from "@/server/data/sites";
import { usePage } from "@/server/render/page-context";
import { FormAlert } from "@/ui/form-alert";
import { SiteLayout } from "../layouts";
import { siteOf } from "../load";
import { siteHref, sitesHref } from "../paths";

/** How many of the site's locations the page names; the count covers the rest. */
const NAMED = 50;

type Data = { account: AccountDetails; site: Site; locations: Location[] };

function DeleteSite({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const { account, site, locations } = data;
  const href = siteHref(account._id, site._id, "delete");
  const errors = translatedErrors(form?.errors, t);
  const more = site.locationCount - locations.length;
  return (
    <SiteLayout account={account} site={site} current={null}>
      <section aria-labelledby="delete-heading" className="max-w-2xl rounded-lg border border-red-200 bg-white p-5">
        <h2 id="delete-heading" className="text-lg font-semibold text-red-800">
          {t("sites.delete.heading")}
        </h2>
        <p className="mt-2 text-sm text-slate-700">
          {site.locationCount === 0
            ? t("sites.delete.explainNone", { name: site.name })
            : t("sites.delete.explainLocations", { count: site.locationCount, name: site.name })}
        </p>
        {locations.length > 0 && (
          <ul className="mt-3 list-disc pl-5 text-sm text-slate-800" aria-label={String(t("sites.delete.locationsLabel"))}>
            {locations.map((location) => (
              <li key={location._id}>{location.name}</li>
            ))}
            {more > 0 && <li>{t("sites.delete.more", { count: more })}</li>}
          </ul>
        )}
        <p className="mt-3 mb-4 text-sm text-slate-700">{t("sites.delete.final")}</p>
        <FormAlert message={errors.form} link={errors.conflict ? { href, text: errors.conflict } : undefined} />
        <div className="mt-4 flex flex-wrap items-start gap-3">
          <Island
            name="confirm-form"
            props={{
              action: href,
              label: String(t(site.locationCount === 0 ? "sites.delete.submit" : "sites.delete.submitAll")),
              hidden: { version: String(site.version) },
            }}
          />
          <a
            href={siteHref(account._id, site._id, "general")}
            className="py-1.5 text-sm font-medium text-brand-700 hover:underline"
          >
            {t("sites.delete.cancel")}
          </a>
        </div>
      </section>
    </SiteLayout>
  );
}

async function deleteSite(c: RouteContext): Promise<ActionResult> {
  const accountId = c.req.param("accountId") ?? "";
  const id = c.req.param("siteId") ?? "";
  const values = await postedValues(c);
  try {
    const result = await api(c).sites.delete({ accountId, id, version: Number(values.version) });
    return {
      ok: true,
      redirect: sitesHref(accountId),
      flash: {
        type: "success",
        key: result.deletedLocations === 0 ? "sites.deleted" : "sites.deletedWithLocations",
        values: { name: result.name, count: result.deletedLocations },
      },
    };
  } catch (error) {
    return formRefusal(error, values, { fields: [] });
  }
}

/**
 * /accounts/:accountId/sites/:siteId/delete (edit-configurations): says which locations go with
 * the site (they are deleted too, each logged), then deletes them all in one batch.
 */
export const deleteSitePage = definePage<Data>({
  load: async (c) => {
    const { account, site } = await siteOf(c);
    const { items } = await api(c).locations.list({ accountId: account._id, siteId: site._id, pageSize: NAMED });
    return { account, site, locations: items };
  },
  Component: DeleteSite,
  action: deleteSite,
  toaster: true,
});
