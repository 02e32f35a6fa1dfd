import { Island } from "@/islands/runtime/island";
import { formRefusal, postedValues, translatedErrors } from "@/routes/settings/procedure-refusal";
import { type ActionResult, definePage, type PageProps, type RouteContext, tabTitle } from "@/routes/types";
import { api } from "@/server/api/procedures-route";
import type { AccountDetails } from "@/server/current-account";
import type { Site } from "@/server/data/sites";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { SiteLayout } from "../layouts";
import { siteOf } from "../load";
import { siteHref } from "../paths";
import { siteFieldNames, siteFields, siteInput, siteValues } from "./site-form";

type Data = { account: AccountDetails; site: Site };

function General({ data, form }: PageProps<Data>) {
  const { t, language } = usePage();
  const { account, site } = data;
  const href = siteHref(account._id, site._id, "general");
  // After a failed save the form shows what was typed, and the version it was typed on.
  const values = form?.values ?? siteValues(site);
  return (
    <SiteLayout account={account} site={site} current="general">
      <Island
        name="settings-form"
        props={{
          action: href,
          fields: [
            { kind: "hidden", name: "version", value: values.version ?? "" },
            ...siteFields(t, account.timezone, values, language),
          ],
          submitLabel: String(t("settings.save")),
          errors: translatedErrors(form?.errors, t),
          reload: { href, text: String(t("settings.reloadCurrent")) },
        }}
      />
      <section aria-labelledby="delete-heading" className="mt-10 max-w-xl rounded-lg border border-red-200 bg-white p-5">
        <h2 id="delete-heading" className="text-lg font-semibold text-red-800">
          {t("sites.delete.heading")}
        </h2>
        <p className="mt-2 mb-4 text-sm text-slate-700">
          {site.locationCount === 0 ? t("sites.delete.teaserNone") : t("sites.delete.teaser", { count: site.locationCount })}
        </p>
        <ButtonLink href={siteHref(account._id, site._id, "delete")} variant="danger" size="sm">
          {t("sites.delete.open")}
        </ButtonLink>
      </section>
    </SiteLayout>
  );
}

async function save(c: RouteContext): Promise<ActionResult> {
  const accountId = c.req.param("accountId") ?? "";
  const id = c.req.param("siteId") ?? "";
  const values = await postedValues(c);
  try {
    const site = await api(c).sites.update({ accountId, id, version: Number(values.version), ...siteInput(values) });
    return {
      ok: true,
      redirect: siteHref(accountId, id, "general"),
      flash: { type: "success", key: "sites.saved", values: { name: site.name } },
    };
  } catch (error) {
    return formRefusal(error, values, { fields: siteFieldNames });
  }
}

/** /accounts/:accountId/sites/:siteId/general (edit-configurations): name, address, time zone; the way to delete. */
export const siteGeneralPage = definePage<Data>({
  title: ({ site }, t) => tabTitle(t, site.name, "sites.tabs.general", "routes.site"),
  load: siteOf,
  Component: General,
  action: save,
  toaster: true,
});
