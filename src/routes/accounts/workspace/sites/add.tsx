import { Island } from "@/islands/runtime/island";
import { formRefusal, postedValues, translatedErrors } from "@/routes/settings/procedure-refusal";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "@/routes/types";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import { usePage } from "@/server/render/page-context";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { addSiteHref, siteHref, sitesHref } from "../paths";
import { siteFieldNames, siteFields, siteInput } from "./site-form";

function AddSite({ data: account, form }: PageProps<AccountDetails>) {
  const { t, language } = usePage();
  return (
    <AccountLayout account={account}>
      <PageHeader
        title={String(t("routes.addSite"))}
        description={
          <>
            <a href={sitesHref(account._id)} className="font-medium text-brand-700 hover:underline">
              {t("routes.sites")}
            </a>
            {" · "}
            {t("sites.add.lead")}
          </>
        }
      />
      <Island
        name="settings-form"
        props={{
          action: addSiteHref(account._id),
          fields: siteFields(t, account.timezone, form?.values ?? {}, language),
          submitLabel: String(t("sites.add.submit")),
          errors: translatedErrors(form?.errors, t),
        }}
      />
    </AccountLayout>
  );
}

/** Adds the site and opens it, where its network settings can be overridden next. */
async function addSite(c: RouteContext): Promise<ActionResult> {
  const accountId = c.req.param("accountId") ?? "";
  const values = await postedValues(c);
  try {
    const site = await api(c).sites.add({ accountId, ...siteInput(values) });
    return {
      ok: true,
      redirect: siteHref(accountId, site._id, "general"),
      flash: { type: "success", key: "sites.added", values: { name: site.name } },
    };
  } catch (error) {
    return formRefusal(error, values, { fields: siteFieldNames });
  }
}

/** /accounts/:accountId/sites/add (edit-configurations): name, address, time zone. */
export const addSitePage = definePage<AccountDetails>({
  load: (c) => accountDetails(c, c.req.param("accountId") ?? ""),
  Component: AddSite,
  action: addSite,
  toaster: true,
});
