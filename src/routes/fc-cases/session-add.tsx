import { Choice, PostForm, refusedForm, TextInput } from "@/routes/devices/forms";
import { postedValues } from "@/routes/settings/procedure-refusal";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "@/routes/types";
import { fcPriorities } from "@/schema/fc-cases";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import { usePage } from "@/server/render/page-context";
import { FcFrame, uidList } from "./frame";
import { fcAddSessionHref, fcSessionHref } from "./paths";

type Api = ReturnType<typeof api>["fcCases"];
type Data = {
  account: AccountDetails;
  settings: Awaited<ReturnType<Api["getSettings"]>>;
  customers: { id: string; name: string }[];
  employees: { id: string; name: string; email: string; status: string }[];
  preset: { uid: string; customerId: string };
};

function AddSession({ data, form }: PageProps<Data>) {
  const { t, user } = usePage();
  const { account, settings, customers, employees, preset } = data;
  return (
    <FcFrame
      account={account}
      tab="list-fc-sessions"
      title={String(t("routes.fcAddSession"))}
      description={t("fc.sessions.addLead")}
    >
      <PostForm action={fcAddSessionHref(account._id)} form={form} submit={String(t("fc.sessions.open"))}>
        <TextInput form={form} name="subject" label={String(t("fc.fields.subject"))} value="" required maxLength={200} />
        <TextInput
          form={form}
          name="uids"
          label={String(t("fc.fields.radios"))}
          hint={String(t("fc.sessions.radiosHint"))}
          value={preset.uid}
          required
        />
        <Choice
          form={form}
          name="customerId"
          label={String(t("fc.fields.customer"))}
          value={preset.customerId}
          options={[
            { value: "", label: String(t("fc.sessions.noCustomer")) },
            ...customers.map((c) => ({ value: c.id, label: c.name })),
          ]}
        />
        <Choice
          form={form}
          name="category"
          label={String(t("fc.fields.category"))}
          value={settings.categories[0] ?? ""}
          options={settings.categories.map((c) => ({ value: c, label: c }))}
        />
        <Choice
          form={form}
          name="priority"
          label={String(t("fc.fields.priority"))}
          value={settings.defaultPriority}
          options={fcPriorities.map((p) => ({ value: p, label: String(t(`fc.priority.${p}`)) }))}
        />
        <Choice
          form={form}
          name="assigneeId"
          label={String(t("fc.fields.assignee"))}
          value={employees.some((e) => e.id === user?.id) ? (user?.id ?? "") : ""}
          options={[
            { value: "", label: String(t("fc.sessions.unassigned")) },
            ...employees.filter((e) => e.status === "active").map((e) => ({ value: e.id, label: `${e.name} (${e.email})` })),
          ]}
        />
      </PostForm>
    </FcFrame>
  );
}

async function addSession(c: RouteContext): Promise<ActionResult> {
  const accountId = c.req.param("accountId") ?? "";
  const values = await postedValues(c);
  try {
    const created = await api(c).fcCases.openSession({
      accountId,
      subject: values.subject ?? "",
      category: values.category ?? "",
      priority: (values.priority || undefined) as never,
      customerId: values.customerId || undefined,
      assigneeId: values.assigneeId || undefined,
      uids: uidList(values.uids),
    });
    return {
      ok: true,
      redirect: fcSessionHref(accountId, created.id),
      flash: { type: "success", key: "fc.flash.sessionOpened" },
    };
  } catch (error) {
    return refusedForm(error, values, ["subject", "uids", "customerId", "category", "priority", "assigneeId"]);
  }
}

/** …/fc-cases/list-fc-sessions/add[?uid=&customerId=] (view-fc-sessions): open a session about radios. */
export const fcAddSessionPage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const caller = api(c);
    const canSeeUsers = c.get("user")?.permissions["view-fc-users"] === true;
    const [account, settings, customers, employees] = await Promise.all([
      accountDetails(c, accountId),
      caller.fcCases.getSettings({ accountId }),
      canSeeUsers ? caller.fcCases.listCustomers({ accountId, pageSize: 100 }) : Promise.resolve({ items: [] }),
      canSeeUsers ? caller.fcCases.listEmployees({ accountId }) : Promise.resolve({ items: [] }),
    ]);
    return {
      account,
      settings,
      customers: customers.items,
      employees: employees.items,
      preset: { uid: (c.req.query("uid") ?? "").slice(0, 64), customerId: (c.req.query("customerId") ?? "").slice(0, 64) },
    };
  },
  Component: AddSession,
  action: addSession,
});
