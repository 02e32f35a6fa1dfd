import { PostForm, refusedForm, TextInput } from "@/routes/devices/forms";
import { postedValues } from "@/routes/settings/procedure-refusal";
import { type ActionResult, definePage, type FormState, type PageProps, type RouteContext } from "@/routes/types";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { FcCustomer } from "@/server/data/fc-customers";
import type { FcSession } from "@/server/data/fc-sessions";
import type { Page } from "@/server/data/keyset";
import { usePage } from "@/server/render/page-context";
import { buttonClass } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { Field } from "@/ui/field";
import { Pager } from "@/ui/pager";
import { Table } from "@/ui/table";
import { FcFrame, uidList } from "./frame";
import { fcAddCustomerHref, fcAddSessionHref, fcCustomerHref, fcCustomersHref } from "./paths";
import { SessionsTable } from "./sessions-list";

const fields = ["name", "phone", "email", "uids"] as const;

function CustomerFields({ form, customer, radios }: { form?: FormState; customer?: FcCustomer; radios?: string[] }) {
  const { t } = usePage();
  return (
    <>
      <TextInput
        form={form}
        name="name"
        label={String(t("fc.fields.name"))}
        value={customer?.name ?? ""}
        required
        maxLength={120}
      />
      <TextInput form={form} name="phone" label={String(t("fc.fields.phone"))} value={customer?.phone ?? ""} maxLength={40} />
      <TextInput form={form} name="email" label={String(t("fc.fields.email"))} value={customer?.email ?? ""} maxLength={254} />
      <TextInput
        form={form}
        name="uids"
        label={String(t("fc.fields.radios"))}
        hint={String(t("fc.sessions.radiosHint"))}
        value={(radios ?? []).join(", ")}
      />
    </>
  );
}

const customerInput = (values: Record<string, string>) => ({
  name: values.name ?? "",
  phone: values.phone ?? "",
  email: values.email ?? "",
  uids: uidList(values.uids),
});

type ListData = { account: AccountDetails; search: string; page: Page<FcCustomer> };

function CustomersList({ data }: PageProps<ListData>) {
  const { t } = usePage();
  const { account, search, page } = data;
  const href = (extra: Record<string, string>) =>
    fcCustomersHref(account._id, `?${new URLSearchParams({ ...(search ? { search } : {}), ...extra })}`);
  return (
    <FcFrame
      account={account}
      tab="list-fc-customers"
      title={String(t("routes.fcCustomers"))}
      actions={
        <a href={fcAddCustomerHref(account._id)} className={buttonClass("primary")}>
          {t("fc.customers.add")}
        </a>
      }
    >
      <form method="get" action={fcCustomersHref(account._id)} className="flex flex-wrap items-end gap-3">
        <Field label={String(t("fc.customers.search"))} name="search" type="search" defaultValue={search} maxLength={200} />
        <button type="submit" className={buttonClass("secondary")}>
          {t("fc.sessions.filter")}
        </button>
      </form>
      <Table
        caption={String(t("fc.customers.caption"))}
        rows={page.items}
        rowKey={(c) => c.id}
        empty={<EmptyState title={String(t("fc.customers.empty"))} />}
        columns={[
          {
            key: "name",
            header: String(t("fc.fields.name")),
            cell: (c) => (
              <a href={fcCustomerHref(account._id, c.id)} className="font-medium text-brand-700 hover:underline">
                {c.name}
              </a>
            ),
          },
          { key: "phone", header: String(t("fc.fields.phone")), cell: (c) => c.phone || "—" },
          { key: "email", header: String(t("fc.fields.email")), cell: (c) => c.email || "—" },
        ]}
      />
      <Pager
        label={String(t("fc.customers.pages"))}
        previous={{ href: page.previous ? href({ before: page.previous }) : null, label: String(t("workspace.list.previous")) }}
        next={{ href: page.next ? href({ after: page.next }) : null, label: String(t("workspace.list.next")) }}
      />
    </FcFrame>
  );
}

/** …/fc-cases/list-fc-customers (view-fc-users): keyset pages, FTS search by name, phone or email. */
export const fcCustomersPage = definePage<ListData>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const search = (c.req.query("search") ?? "").slice(0, 200);
    const [account, page] = await Promise.all([
      accountDetails(c, accountId),
      api(c).fcCases.listCustomers({
        accountId,
        search,
        after: c.req.query("after")?.slice(0, 1000),
        before: c.req.query("before")?.slice(0, 1000),
      }),
    ]);
    return { account, search, page };
  },
  Component: CustomersList,
});

function AddCustomer({ data, form }: PageProps<{ account: AccountDetails }>) {
  const { t } = usePage();
  return (
    <FcFrame account={data.account} tab="list-fc-customers" title={String(t("routes.fcAddCustomer"))}>
      <PostForm action={fcAddCustomerHref(data.account._id)} form={form} submit={String(t("fc.customers.save"))}>
        <CustomerFields form={form} />
      </PostForm>
    </FcFrame>
  );
}

async function addCustomer(c: RouteContext): Promise<ActionResult> {
  const accountId = c.req.param("accountId") ?? "";
  const values = await postedValues(c);
  try {
    const created = await api(c).fcCases.saveCustomer({ accountId, ...customerInput(values) });
    return {
      ok: true,
      redirect: fcCustomerHref(accountId, created.id),
      flash: { type: "success", key: "fc.flash.customerSaved" },
    };
  } catch (error) {
    return refusedForm(error, values, fields);
  }
}

export const fcAddCustomerPage = definePage<{ account: AccountDetails }>({
  load: async (c) => ({ account: await accountDetails(c, c.req.param("accountId") ?? "") }),
  Component: AddCustomer,
  action: addCustomer,
});

type CustomerData = { account: AccountDetails; customer: FcCustomer; radios: string[]; sessions: FcSession[]; canOpen: boolean };

function CustomerPage({ data, form }: PageProps<CustomerData>) {
  const { t } = usePage();
  const { account, customer, radios, sessions, canOpen } = data;
  return (
    <FcFrame
      account={account}
      tab="list-fc-customers"
      title={customer.name}
      description={
        <a href={fcCustomersHref(account._id)} className="font-medium text-brand-700 hover:underline">
          {t("routes.fcCustomers")}
        </a>
      }
      actions={
        canOpen ? (
          <a
            href={fcAddSessionHref(account._id, `?${new URLSearchParams({ customerId: customer.id, uid: radios[0] ?? "" })}`)}
            className={buttonClass("primary")}
          >
            {t("fc.sessions.add")}
          </a>
        ) : null
      }
    >
      <section aria-labelledby="fc-customer-sessions">
        <h2 id="fc-customer-sessions" className="mb-2 text-lg font-semibold text-slate-900">
          {t("fc.customers.sessions")}
        </h2>
        {canOpen ? <SessionsTable accountId={account._id} timeZone={account.timezone} items={sessions} /> : null}
      </section>
      <section aria-labelledby="fc-customer-edit">
        <h2 id="fc-customer-edit" className="mb-2 text-lg font-semibold text-slate-900">
          {t("fc.customers.edit")}
        </h2>
        <PostForm action={fcCustomerHref(account._id, customer.id)} form={form} submit={String(t("fc.customers.save"))}>
          <input type="hidden" name="version" value={customer.version} />
          <CustomerFields form={form} customer={customer} radios={radios} />
        </PostForm>
      </section>
    </FcFrame>
  );
}

async function editCustomer(c: RouteContext): Promise<ActionResult> {
  const accountId = c.req.param("accountId") ?? "";
  const id = c.req.param("customerId") ?? "";
  const values = await postedValues(c);
  try {
    await api(c).fcCases.saveCustomer({ accountId, id, version: Number(values.version ?? 0) || 0, ...customerInput(values) });
    return { ok: true, redirect: fcCustomerHref(accountId, id), flash: { type: "success", key: "fc.flash.customerSaved" } };
  } catch (error) {
    return refusedForm(error, values, fields);
  }
}

/** …/fc-cases/list-fc-customers/:customerId (view-fc-users): the customer, their radios and sessions. */
export const fcCustomerPage = definePage<CustomerData>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const id = c.req.param("customerId") ?? "";
    const canOpen = c.get("user")?.permissions["view-fc-sessions"] === true;
    const caller = api(c).fcCases;
    const [account, found, sessions] = await Promise.all([
      accountDetails(c, accountId),
      caller.getCustomer({ accountId, id }),
      canOpen ? caller.listSessions({ accountId, customerId: id, pageSize: 50 }) : Promise.resolve({ items: [] }),
    ]);
    return { account, customer: found.customer, radios: found.radios, sessions: sessions.items, canOpen };
  },
  Component: CustomerPage,
  action: editCustomer,
  title: (data) => data.customer.name,
});
