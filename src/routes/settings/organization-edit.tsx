import { Island } from "@/islands/runtime/island";
import { api } from "@/server/api/procedures-route";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { webhooksHref } from "../notifications/paths";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { formRefusal, postedValues, translatedErrors } from "./procedure-refusal";

type Data = { id: string; name: string; kind: "vendor" | "dealer" | "customer"; parentName: string | null; version: number };

function editPath(orgId: string): string {
  return `/settings/organizations/edit/${encodeURIComponent(orgId)}`;
}

function EditOrganization({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const values = form?.values ?? {};
  return (
    <SettingsLayout
      current="organizations"
      title={String(t("routes.editOrganization"))}
      actions={
        <ButtonLink href={webhooksHref(data.id)} variant="white" size="sm">
          {t("notifications.webhooks.link")}
        </ButtonLink>
      }
    >
      <dl className="mb-6 grid max-w-xl grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        <dt className="font-medium text-slate-700">{t("organizations.fields.kind")}</dt>
        <dd className="text-slate-900">{t(`organizations.kinds.${data.kind}`)}</dd>
        <dt className="font-medium text-slate-700">{t("organizations.fields.parent")}</dt>
        <dd className="text-slate-900">{data.parentName ?? "—"}</dd>
      </dl>
      <Island
        name="settings-form"
        props={{
          action: editPath(data.id),
          submitLabel: String(t("settings.save")),
          errors: translatedErrors(form?.errors, t),
          reload: { href: editPath(data.id), text: String(t("settings.reloadCurrent")) },
          fields: [
            // A stale form keeps the version it was made on, so saving it again is refused again.
            { kind: "hidden", name: "version", value: values.version ?? String(data.version) },
            {
              kind: "text",
              name: "name",
              label: String(t("organizations.fields.name")),
              value: values.name ?? data.name,
              rule: "name",
              subject: "organizationName",
              autoComplete: "organization",
            },
          ],
        }}
      />
    </SettingsLayout>
  );
}

async function save(c: RouteContext): Promise<ActionResult> {
  const values = await postedValues(c);
  const id = c.req.param("orgId") ?? "";
  try {
    const saved = await api(c).organizations.update({ id, version: Number(values.version), name: values.name ?? "" });
    return {
      ok: true,
      redirect: "/settings/organizations",
      flash: { type: "success", key: "organizations.saved", values: { name: saved.name } },
    };
  } catch (error) {
    return formRefusal(error, values, { fields: ["name"] });
  }
}

/** /settings/organizations/edit/:orgId: renames an organization of the caller's tree (others: not found). */
export const organizationEditPage = definePage<Data>({
  load: async (c) => {
    const organization = await api(c).organizations.details({ id: c.req.param("orgId") ?? "" });
    const { id, name, kind, parentName, version } = organization;
    return { id, name, kind, parentName, version };
  },
  Component: EditOrganization,
  action: save,
  toaster: true,
});
