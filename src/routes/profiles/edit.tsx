import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { Profile } from "@/server/data/profiles";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { definePage, type PageProps } from "../types";
import { ProfileEditor, profileAction } from "./editor";
import { accountProfile } from "./load";
import { accountProfilesHref } from "./paths";

type Usage = { id: string; name: string; priority: number };
type Data = { account: AccountDetails; profile: Profile; usage: Usage[] };

/** Which rules assign the profile: a change here reaches the devices those rules match. */
function UsedBy({ accountId, usage }: { accountId: string; usage: Usage[] }) {
  const { t } = usePage();
  return (
    <section aria-labelledby="used-by" className="mt-10 max-w-3xl">
      <h2 id="used-by" className="text-lg font-semibold text-slate-900">
        {t("profiles.edit.usedBy")}
      </h2>
      {usage.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{t("profiles.edit.unused")}</p>
      ) : (
        <ul className="mt-2 list-disc pl-5 text-sm">
          {usage.map((rule) => (
            <li key={rule.id}>
              <a
                href={`/accounts/${encodeURIComponent(accountId)}/rules/edit/${encodeURIComponent(rule.id)}`}
                className="text-brand-700 underline"
              >
                {rule.name}
              </a>{" "}
              <span className="text-slate-600">({t("profiles.edit.priority", { priority: rule.priority })})</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function EditProfile({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const { account, profile } = data;
  const base = accountProfilesHref(account._id);
  const here = `${base}/edit/${encodeURIComponent(profile.id)}`;
  return (
    <AccountLayout account={account}>
      <PageHeader
        title={String(t("routes.editProfile"))}
        description={t("profiles.edit.lead", { name: profile.name, type: t(`profiles.types.${profile.type}`) })}
        actions={
          <ButtonLink href={`${base}/delete/${encodeURIComponent(profile.id)}`} variant="danger">
            {t("profiles.edit.delete")}
          </ButtonLink>
        }
      />
      <ProfileEditor
        type={profile.type}
        action={here}
        cancelHref={`${base}?type=${profile.type}`}
        submitLabel={String(t("profiles.edit.submit"))}
        stored={profile}
        form={form}
      />
      <UsedBy accountId={account._id} usage={data.usage} />
    </AccountLayout>
  );
}

/** /accounts/{accountId}/profiles/edit/{profileId} (edit-configurations): name and settings, at the version shown. */
export const editProfilePage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const profileId = c.req.param("profileId") ?? "";
    const [account, profile, usage] = await Promise.all([
      accountDetails(c, accountId),
      accountProfile(c, accountId, profileId),
      api(c).profiles.usage({ id: profileId }),
    ]);
    return { account, profile, usage };
  },
  Component: EditProfile,
  action: (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const id = c.req.param("profileId") ?? "";
    return profileAction(
      c,
      async (input) => {
        await accountProfile(c, accountId, id);
        return api(c).profiles.update({ ...input, id });
      },
      (profile) => ({
        ok: true,
        redirect: `${accountProfilesHref(accountId)}?type=${profile.type}`,
        flash: { type: "success", key: "profiles.saved", values: { name: profile.name } },
      }),
    );
  },
  toaster: true,
});
