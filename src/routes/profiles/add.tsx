import { isProfileType, type ProfileType, profileTypes } from "@/schema/profiles";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import { usePage } from "@/server/render/page-context";
import { Button } from "@/ui/button";
import { SelectField } from "@/ui/field";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { definePage, type PageProps, type RouteContext } from "../types";
import { ProfileEditor, profileAction } from "./editor";
import { accountProfilesHref } from "./paths";

type Template = { id: string; name: string };
type Data = {
  account: AccountDetails;
  type: ProfileType | null;
  templates: Template[];
  template: { id: string; settings: unknown } | null;
};

/** Without a type yet: the four types, each a link to its form. */
function TypeChooser({ base }: { base: string }) {
  const { t } = usePage();
  return (
    <ul className="grid max-w-3xl gap-4 sm:grid-cols-2">
      {profileTypes.map((type) => (
        <li key={type}>
          <a
            href={`${base}/add?type=${type}`}
            className="block h-full rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:border-brand-600"
          >
            <span className="font-semibold text-brand-700">{t(`profiles.types.${type}`)}</span>
            <span className="mt-1 block text-sm text-slate-600">{t(`profiles.typeDescriptions.${type}`)}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

/** Start from an organization template: a GET form that fills the form below with its settings. */
function TemplatePicker({
  base,
  type,
  templates,
  chosen,
}: {
  base: string;
  type: ProfileType;
  templates: Template[];
  chosen: string;
}) {
  const { t } = usePage();
  if (templates.length === 0) return null;
  return (
    <form
      method="get"
      action={`${base}/add`}
      className="mb-6 flex max-w-xl flex-wrap items-end gap-3 rounded-md border border-slate-200 bg-slate-50 p-4"
    >
      <input type="hidden" name="type" value={type} />
      <SelectField
        label={String(t("profiles.add.template"))}
        hint={String(t("profiles.add.templateHint"))}
        name="template"
        defaultValue={chosen}
        options={[
          { value: "", label: String(t("profiles.add.noTemplate")) },
          ...templates.map((x) => ({ value: x.id, label: x.name })),
        ]}
        className="min-w-64 flex-1"
      />
      <Button type="submit" variant="white">
        {t("profiles.add.useTemplate")}
      </Button>
    </form>
  );
}

function AddProfile({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const { account, type } = data;
  const base = accountProfilesHref(account._id);
  const typeOfForm = isProfileType(form?.values.type) ? form.values.type : type;
  return (
    <AccountLayout account={account}>
      <PageHeader
        title={String(t("routes.addProfile"))}
        description={
          typeOfForm ? t("profiles.add.leadOfType", { type: t(`profiles.types.${typeOfForm}`) }) : t("profiles.add.lead")
        }
      />
      {typeOfForm ? (
        <>
          <TemplatePicker base={base} type={typeOfForm} templates={data.templates} chosen={data.template?.id ?? ""} />
          <ProfileEditor
            type={typeOfForm}
            action={`${base}/add?type=${typeOfForm}`}
            cancelHref={`${base}?type=${typeOfForm}`}
            submitLabel={String(t("profiles.add.submit"))}
            startFrom={data.template?.settings}
            form={form}
          />
        </>
      ) : (
        <TypeChooser base={base} />
      )}
    </AccountLayout>
  );
}

/** The templates an account profile may start from: the account's organization's and the caller's own. */
async function templatesFor(c: RouteContext, account: AccountDetails, type: ProfileType): Promise<Template[]> {
  const user = c.get("user");
  const orgIds = [...new Set([account.orgId, user?.orgId ?? account.orgId])];
  const lists = await Promise.all(orgIds.map((orgId) => api(c).profiles.list({ orgId, type, pageSize: 100 })));
  return lists.flatMap((list) => list.items.map((item) => ({ id: item.id, name: item.name })));
}

/**
 * /accounts/{accountId}/profiles/add?type=… (edit-configurations): a new profile of a type,
 * from the type's defaults or a template's settings (?template=…).
 */
export const addProfilePage = definePage<Data>({
  load: async (c) => {
    const account = await accountDetails(c, c.req.param("accountId") ?? "");
    const type = c.req.query("type");
    if (!isProfileType(type)) return { account, type: null, templates: [], template: null };
    const templates = await templatesFor(c, account, type);
    const templateId = c.req.query("template") ?? "";
    const chosen = templates.find((x) => x.id === templateId);
    const template = chosen ? await api(c).profiles.details({ id: chosen.id }) : null;
    return { account, type, templates, template: template && { id: template.id, settings: template.settings } };
  },
  Component: AddProfile,
  action: (c) => {
    const accountId = c.req.param("accountId") ?? "";
    return profileAction(
      c,
      (input) => api(c).profiles.add({ ...input, accountId }),
      (profile) => ({
        ok: true,
        redirect: `${accountProfilesHref(accountId)}?type=${profile.type}`,
        flash: { type: "success", key: "profiles.added", values: { name: profile.name } },
      }),
    );
  },
  toaster: true,
});
