import { Island } from "@/islands/runtime/island";
import { api } from "@/server/api/procedures-route";
import type { OrganizationInTree } from "@/server/api/routers/organizations";
import { grantableRoles, type Role } from "@/server/auth/roles";
import { usePage } from "@/server/render/page-context";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { treeOptions } from "./organization-options";
import { formRefusal, postedValues, translatedErrors } from "./procedure-refusal";

type Data = { organizations: OrganizationInTree[]; orgId: string; roles: Role[] };

const PATH = "/settings/users/invite";

/** /settings/users/invite: an email, a role the caller may grant, an organization of their tree. */
function InviteUser({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const values = form?.values ?? {};
  return (
    <SettingsLayout current="users" title={String(t("routes.inviteUser"))}>
      <p className="mb-6 max-w-xl text-sm text-slate-700">{t("users.inviteIntro")}</p>
      <Island
        name="settings-form"
        props={{
          action: PATH,
          submitLabel: String(t("users.sendInvitation")),
          errors: translatedErrors(form?.errors, t),
          fields: [
            {
              kind: "email",
              name: "email",
              label: String(t("users.fields.email")),
              value: values.email ?? "",
              rule: "email",
              subject: "inviteEmail",
              autoComplete: "off",
            },
            {
              kind: "select",
              name: "role",
              label: String(t("users.fields.role")),
              hint: String(t("users.roleHint")),
              value: values.role ?? (data.roles.includes("viewer") ? "viewer" : (data.roles[0] ?? "")),
              options: data.roles.map((role) => ({ value: role, label: String(t(`users.roles.${role}`)) })),
            },
            data.organizations.length > 1
              ? {
                  kind: "select",
                  name: "orgId",
                  label: String(t("users.fields.organization")),
                  value: values.orgId ?? data.orgId,
                  options: treeOptions(data.organizations),
                }
              : { kind: "hidden", name: "orgId", value: data.orgId },
          ],
        }}
      />
    </SettingsLayout>
  );
}

async function invite(c: RouteContext): Promise<ActionResult> {
  const values = await postedValues(c);
  try {
    const invited = await api(c).users.invite({
      email: values.email ?? "",
      role: values.role as Role,
      orgId: values.orgId ?? "",
    });
    return {
      ok: true,
      redirect: "/settings/users",
      flash: { type: "success", key: "users.invited", values: { email: invited.email } },
    };
  } catch (error) {
    return formRefusal(error, values, { fields: ["email", "role", "orgId"] });
  }
}

export const userInvitePage = definePage<Data>({
  load: async (c) => {
    const organizations = await api(c).organizations.list();
    const wanted = c.req.query("orgId");
    const orgId = organizations.find((organization) => organization.id === wanted)?.id ?? organizations[0]?.id ?? "";
    const role = c.get("user")?.role;
    return { organizations, orgId, roles: role ? grantableRoles(role) : [] };
  },
  Component: InviteUser,
  action: invite,
  toaster: true,
});
