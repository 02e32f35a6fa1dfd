import { Choice, PostForm, refusedForm, TextInput } from "@/routes/devices/forms";
import { postedValues } from "@/routes/settings/procedure-refusal";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "@/routes/types";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { Employee } from "@/server/data/fc-desk";
import { AppError } from "@/server/errors";
import { usePage } from "@/server/render/page-context";
import { buttonClass } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { Table } from "@/ui/table";
import { FcFrame } from "./frame";
import { fcAddEmployeeHref, fcEditEmployeeHref, fcEmployeesHref } from "./paths";

type ListData = { account: AccountDetails; items: Employee[]; next: string | null; canEdit: boolean };

function EmployeesList({ data }: PageProps<ListData>) {
  const { t } = usePage();
  const { account, items, next, canEdit } = data;
  return (
    <FcFrame
      account={account}
      tab="list-fc-employees"
      title={String(t("routes.fcEmployees"))}
      description={t("fc.employees.lead")}
      actions={
        canEdit ? (
          <a href={fcAddEmployeeHref(account._id)} className={buttonClass("primary")}>
            {t("fc.employees.add")}
          </a>
        ) : null
      }
    >
      <Table
        caption={String(t("fc.employees.caption"))}
        rows={items}
        rowKey={(e) => e.id}
        empty={<EmptyState title={String(t("fc.employees.empty"))} />}
        columns={[
          {
            key: "name",
            header: String(t("fc.fields.name")),
            cell: (e) =>
              canEdit ? (
                <a href={fcEditEmployeeHref(account._id, e.id)} className="font-medium text-brand-700 hover:underline">
                  {e.name}
                </a>
              ) : (
                e.name
              ),
          },
          { key: "email", header: String(t("fc.fields.email")), cell: (e) => e.email },
          { key: "status", header: String(t("fc.fields.status")), cell: (e) => String(t(`fc.employees.status.${e.status}`)) },
        ]}
      />
      {next ? (
        <a
          href={`${fcEmployeesHref(account._id)}?${new URLSearchParams({ after: next })}`}
          className={buttonClass("white", "sm")}
        >
          {t("workspace.list.next")}
        </a>
      ) : null}
    </FcFrame>
  );
}

/** …/fc-cases/list-fc-employees (view-fc-users): the case users of the caller's organization tree. */
export const fcEmployeesPage = definePage<ListData>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const [account, page] = await Promise.all([
      accountDetails(c, accountId),
      api(c).fcCases.listEmployees({ accountId, after: c.req.query("after")?.slice(0, 200) }),
    ]);
    return { account, ...page, canEdit: c.get("user")?.permissions["edit-users"] === true };
  },
  Component: EmployeesList,
});

function AddEmployee({ data, form }: PageProps<{ account: AccountDetails }>) {
  const { t } = usePage();
  return (
    <FcFrame
      account={data.account}
      tab="list-fc-employees"
      title={String(t("routes.fcAddEmployee"))}
      description={t("fc.employees.inviteLead")}
    >
      <PostForm action={fcAddEmployeeHref(data.account._id)} form={form} submit={String(t("fc.employees.invite"))}>
        <TextInput form={form} name="email" label={String(t("fc.fields.email"))} value="" required maxLength={254} />
      </PostForm>
    </FcFrame>
  );
}

/**
 * Inviting and editing employees need edit-users besides the route's view-fc-users: without it
 * the form, opened by URL or posted, is the route error screen (403, "This route is protected.").
 */
function assertMayEditEmployees(c: RouteContext): void {
  if (c.get("user")?.permissions["edit-users"] !== true) throw new AppError("FORBIDDEN");
}

async function addEmployee(c: RouteContext): Promise<ActionResult> {
  assertMayEditEmployees(c);
  const accountId = c.req.param("accountId") ?? "";
  const values = await postedValues(c);
  try {
    const invited = await api(c).fcCases.inviteEmployee({ accountId, email: (values.email ?? "").trim() });
    return {
      ok: true,
      redirect: fcEmployeesHref(accountId),
      flash: { type: "success", key: "fc.flash.invited", values: { email: invited.email } },
    };
  } catch (error) {
    return refusedForm(error, values, ["email"]);
  }
}

/** …/list-fc-employees/add (view-fc-users and edit-users). */
export const fcAddEmployeePage = definePage<{ account: AccountDetails }>({
  load: async (c) => {
    assertMayEditEmployees(c);
    return { account: await accountDetails(c, c.req.param("accountId") ?? "") };
  },
  Component: AddEmployee,
  action: addEmployee,
});

type EditData = { account: AccountDetails; employee: Employee };

function EditEmployee({ data, form }: PageProps<EditData>) {
  const { t } = usePage();
  const { account, employee } = data;
  return (
    <FcFrame account={account} tab="list-fc-employees" title={String(t("routes.fcEditEmployee"))} description={employee.email}>
      <PostForm action={fcEditEmployeeHref(account._id, employee.id)} form={form} submit={String(t("fc.employees.save"))}>
        <input type="hidden" name="version" value={employee.version} />
        <TextInput form={form} name="name" label={String(t("fc.fields.name"))} value={employee.name} required maxLength={120} />
        <Choice
          form={form}
          name="status"
          label={String(t("fc.fields.status"))}
          value={employee.status === "disabled" ? "disabled" : "active"}
          options={(["active", "disabled"] as const).map((s) => ({ value: s, label: String(t(`fc.employees.status.${s}`)) }))}
        />
      </PostForm>
    </FcFrame>
  );
}

async function editEmployee(c: RouteContext): Promise<ActionResult> {
  assertMayEditEmployees(c);
  const accountId = c.req.param("accountId") ?? "";
  const id = c.req.param("fcUserId") ?? "";
  const values = await postedValues(c);
  try {
    await api(c).fcCases.updateEmployee({
      accountId,
      id,
      version: Number(values.version ?? 0) || 0,
      name: values.name ?? "",
      status: (values.status ?? "") as never,
    });
    return { ok: true, redirect: fcEmployeesHref(accountId), flash: { type: "success", key: "fc.flash.employeeSaved" } };
  } catch (error) {
    return refusedForm(error, values, ["name", "status"]);
  }
}

/** …/list-fc-employees/edit/:fcUserId (view-fc-users and edit-users). */
export const fcEditEmployeePage = definePage<EditData>({
  load: async (c) => {
    assertMayEditEmployees(c);
    const accountId = c.req.param("accountId") ?? "";
    const [account, employee] = await Promise.all([
      accountDetails(c, accountId),
      api(c).fcCases.getEmployee({ accountId, id: c.req.param("fcUserId") ?? "" }),
    ]);
    return { account, employee };
  },
  Component: EditEmployee,
  action: editEmployee,
});
