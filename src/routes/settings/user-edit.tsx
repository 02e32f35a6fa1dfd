import type { ReactNode } from "react";
import { Island } from "@/islands/runtime/island";
import { formatDateTime } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import type { Role } from "@/server/auth/roles";
import type { UserStatus } from "@/server/data/users";
import { usePage } from "@/server/render/page-context";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { StatusMessage } from "@/ui/status-message";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { formRefusal, postedValues, translatedErrors } from "./procedure-refusal";

type Data = {
  id: string;
  name: string;
  email: string;
  organizationName: string;
  role: Role;
  status: UserStatus;
  lastSignInAt: string | null;
  version: number;
  isSelf: boolean;
  manageable: boolean;
  grantableRoles: Role[];
};

function editPath(userId: string): string {
  return `/settings/users/edit/${encodeURIComponent(userId)}`;
}

function Summary({ data }: { data: Data }) {
  const { t, language } = usePage();
  const rows: [string, ReactNode][] = [
    ["users.fields.name", data.name || "—"],
    ["users.fields.email", data.email],
    ["users.fields.organization", data.organizationName],
    ["users.fields.role", t(`users.roles.${data.role}`)],
    ["users.fields.status", t(`users.statuses.${data.status}`)],
    ["users.fields.lastSignIn", data.lastSignInAt ? formatDateTime(language, data.lastSignInAt, "UTC") : t("users.never")],
  ];
  return (
    <dl className="mb-8 grid max-w-xl grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-medium text-slate-700">{t(label)}</dt>
          <dd className="text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function AccessForm({ data, values, errors }: { data: Data; values: Record<string, string>; errors: Record<string, string> }) {
  const { t } = usePage();
  return (
    <section aria-labelledby="access-heading">
      <h2 id="access-heading" className="mb-4 text-lg font-semibold text-slate-900">
        {t("users.access")}
      </h2>
      <Island
        name="settings-form"
        props={{
          action: editPath(data.id),
          submitLabel: String(t("settings.save")),
          errors,
          reload: { href: editPath(data.id), text: String(t("settings.reloadCurrent")) },
          fields: [
            { kind: "hidden", name: "intent", value: "save" },
            { kind: "hidden", name: "version", value: values.version ?? String(data.version) },
            {
              kind: "select",
              name: "role",
              label: String(t("users.fields.role")),
              hint: String(t("users.roleHint")),
              value: values.role ?? data.role,
              options: data.grantableRoles.map((role) => ({ value: role, label: String(t(`users.roles.${role}`)) })),
            },
            {
              kind: "select",
              name: "status",
              label: String(t("users.fields.status")),
              value: values.status ?? (data.status === "disabled" ? "disabled" : "active"),
              options: (["active", "disabled"] as const).map((status) => ({
                value: status,
                label: String(t(`users.statuses.${status}`)),
              })),
            },
          ],
        }}
      />
    </section>
  );
}

function DisableForm({ data, errors }: { data: Data; errors: Record<string, string> }) {
  const { t } = usePage();
  return (
    <section aria-labelledby="disable-heading" className="mt-10 max-w-xl rounded-lg border border-red-200 bg-white p-4">
      <h2 id="disable-heading" className="text-lg font-semibold text-slate-900">
        {t("users.disableHeading")}
      </h2>
      {data.status === "disabled" ? (
        <p className="mt-2 text-sm text-slate-700">{t("users.alreadyDisabled")}</p>
      ) : (
        <>
          <p className="mt-2 mb-4 text-sm text-slate-700">{t("users.disableExplain", { name: data.name || data.email })}</p>
          <Island
            name="settings-form"
            props={{
              action: editPath(data.id),
              variant: "danger",
              submitLabel: String(t("users.disable")),
              errors,
              reload: { href: editPath(data.id), text: String(t("settings.reloadCurrent")) },
              fields: [
                { kind: "hidden", name: "intent", value: "disable" },
                { kind: "hidden", name: "version", value: String(data.version) },
              ],
            }}
          />
        </>
      )}
    </section>
  );
}

/** /settings/users/edit/:userId: a user's role and status, and disabling them (their sessions end). */
function EditUser({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const errors = translatedErrors(form?.errors, t);
  const failed = form?.values.intent;
  let body: ReactNode;
  if (data.isSelf) body = <StatusMessage tone="info">{t("users.selfNote")}</StatusMessage>;
  else if (!data.manageable) body = <StatusMessage tone="info">{t("users.higherRoleNote")}</StatusMessage>;
  else {
    body = (
      <>
        <AccessForm data={data} values={failed === "save" ? (form?.values ?? {}) : {}} errors={failed === "save" ? errors : {}} />
        <DisableForm data={data} errors={failed === "disable" ? errors : {}} />
      </>
    );
  }
  return (
    <SettingsLayout current="users" title={String(t("routes.editUser"))}>
      <Summary data={data} />
      {body}
    </SettingsLayout>
  );
}

async function act(c: RouteContext): Promise<ActionResult> {
  const values = await postedValues(c);
  const id = c.req.param("userId") ?? "";
  const version = Number(values.version);
  const caller = api(c);
  try {
    if (values.intent === "disable") {
      const user = await caller.users.disable({ id, version });
      return {
        ok: true,
        redirect: "/settings/users",
        flash: { type: "success", key: "users.disabled", values: { name: user.name || user.email } },
      };
    }
    const user = await caller.users.update({
      id,
      version,
      role: values.role as Role,
      status: values.status as "active" | "disabled",
    });
    return {
      ok: true,
      redirect: "/settings/users",
      flash: { type: "success", key: "users.saved", values: { name: user.name || user.email } },
    };
  } catch (error) {
    return formRefusal(
      error,
      { ...values, intent: values.intent === "disable" ? "disable" : "save" },
      {
        fields: values.intent === "disable" ? [] : ["role", "status"],
      },
    );
  }
}

export const userEditPage = definePage<Data>({
  load: async (c) => {
    const user = await api(c).users.details({ id: c.req.param("userId") ?? "" });
    const { id, name, email, organizationName, role, status, lastSignInAt, version, isSelf, manageable, grantableRoles } = user;
    return { id, name, email, organizationName, role, status, lastSignInAt, version, isSelf, manageable, grantableRoles };
  },
  Component: EditUser,
  action: act,
  toaster: true,
});
