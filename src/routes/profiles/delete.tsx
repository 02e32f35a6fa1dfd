import { TRPCError } from "@trpc/server";
import { Island } from "@/islands/runtime/island";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { Profile } from "@/server/data/profiles";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { postedValues } from "../settings/procedure-refusal";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { accountProfile } from "./load";
import { accountProfilesHref } from "./paths";

type Usage = { id: string; name: string; priority: number; enabled: boolean };
type Data = { account: AccountDetails; profile: Profile; usage: Usage[]; emptied: string[] };

/**
 * What deleting the profile does, said before it is done: the rules that assign it, that it
 * is taken out of each of them (and which would then assign nothing).
 */
function DeleteProfile({ data }: PageProps<Data>) {
  const { t } = usePage();
  const { account, profile, usage } = data;
  const base = accountProfilesHref(account._id);
  const rulesBase = `/accounts/${encodeURIComponent(account._id)}/rules/edit/`;
  return (
    <AccountLayout account={account}>
      <div className="max-w-2xl">
        <PageHeader title={String(t("routes.deleteProfile"))} />
        <p className="text-slate-800">
          {t("profiles.delete.question", { name: profile.name, type: t(`profiles.types.${profile.type}`) })}
        </p>
        {usage.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">{t("profiles.delete.unused")}</p>
        ) : (
          <section aria-labelledby="dependents" className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-4">
            <h2 id="dependents" className="font-semibold text-amber-900">
              {t("profiles.delete.usedBy", { count: usage.length })}
            </h2>
            <ul className="mt-2 list-disc pl-5 text-sm text-slate-800">
              {usage.map((rule) => (
                <li key={rule.id}>
                  <a href={`${rulesBase}${encodeURIComponent(rule.id)}`} className="text-brand-700 underline">
                    {rule.name}
                  </a>{" "}
                  <span className="text-slate-600">({t("profiles.edit.priority", { priority: rule.priority })})</span>
                </li>
              ))}
            </ul>
            <p className="mt-3 text-sm text-slate-800">{t("profiles.delete.whatHappens", { count: usage.length })}</p>
            {data.emptied.length > 0 && (
              <p className="mt-2 text-sm text-slate-800">{t("profiles.delete.emptied", { rules: data.emptied.join(", ") })}</p>
            )}
          </section>
        )}
        <div className="mt-6 flex flex-wrap items-start gap-3">
          <Island
            name="confirm-form"
            props={{
              action: `${base}/delete/${encodeURIComponent(profile.id)}`,
              label: String(
                usage.length ? t("profiles.delete.confirmDetach", { count: usage.length }) : t("profiles.delete.confirm"),
              ),
              srLabel: profile.name,
              hidden: { version: String(profile.version), rules: usage.map((rule) => rule.id).join(",") },
            }}
          />
          <ButtonLink href={`${base}/edit/${encodeURIComponent(profile.id)}`} variant="white" size="sm">
            {t("profiles.delete.cancel")}
          </ButtonLink>
        </div>
      </div>
    </AccountLayout>
  );
}

async function deleteProfile(c: RouteContext): Promise<ActionResult> {
  const accountId = c.req.param("accountId") ?? "";
  const id = c.req.param("profileId") ?? "";
  const here = `${accountProfilesHref(accountId)}/delete/${encodeURIComponent(id)}`;
  const posted = await postedValues(c);
  const profile = await accountProfile(c, accountId, id);
  try {
    const result = await api(c).profiles.delete({
      id,
      version: Number(posted.version ?? 0) || 0,
      detachFromRules: (posted.rules ?? "").split(",").filter(Boolean),
    });
    const count = result.detachedFrom.length;
    return {
      ok: true,
      redirect: `${accountProfilesHref(accountId)}?type=${profile.type}`,
      flash: {
        type: "success",
        key: count ? "profiles.deletedDetached" : "profiles.deleted",
        values: { name: profile.name, count },
      },
    };
  } catch (error) {
    // Changed meanwhile (the profile, or the rules using it): this page again, as things are now.
    if (error instanceof TRPCError && error.code === "CONFLICT") {
      return { ok: true, redirect: here, flash: { type: "error", key: "profiles.delete.changed" } };
    }
    throw error;
  }
}

/** /accounts/{accountId}/profiles/delete/{profileId} (edit-configurations). */
export const deleteProfilePage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const profileId = c.req.param("profileId") ?? "";
    const [account, profile, usage] = await Promise.all([
      accountDetails(c, accountId),
      accountProfile(c, accountId, profileId),
      api(c).profiles.usage({ id: profileId }),
    ]);
    // Rules that assign nothing else: after the deletion they assign no profile at all.
    const rules = await Promise.all(usage.map((rule) => api(c).rules.details({ id: rule.id })));
    const emptied = rules.filter((rule) => rule.profiles.length === 1).map((rule) => rule.name);
    return { account, profile, usage, emptied };
  },
  Component: DeleteProfile,
  action: deleteProfile,
  toaster: true,
});
