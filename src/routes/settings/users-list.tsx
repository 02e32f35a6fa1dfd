import { Island } from "@/islands/runtime/island";
import { formatDateTime } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import type { OrganizationInTree } from "@/server/api/routers/organizations";
import type { OpenInvitation } from "@/server/data/invitations";
import type { ListedUser } from "@/server/data/users";
import { usePage } from "@/server/render/page-context";
import { Button, ButtonLink } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { SelectField } from "@/ui/field";
import { FormAlert } from "@/ui/form-alert";
import { Pager } from "@/ui/pager";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { Table } from "@/ui/table";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { treeOptions } from "./organization-options";
import { formRefusal, postedValues } from "./procedure-refusal";

const PAGE_SIZE = 25;
const SEARCH_MAX = 120;
const CURSOR_MAX = 1_000;

/** `after` / `before`: keyset cursors (src/server/data/keyset.ts), as the list's Next / Previous carry them. */
type Query = { search: string; orgId: string; after: string; before: string };

type Data = {
  query: Query;
  organizations: OrganizationInTree[];
  users: ListedUser[];
  next: string | null;
  previous: string | null;
  invitations: OpenInvitation[];
};

/** The list's URL for a query: search, organization and page live in the URL (bookmarkable, no JS needed). */
export function usersHref(query: Partial<Query>): string {
  const params = new URLSearchParams();
  if (query.search) params.set("search", query.search);
  if (query.orgId) params.set("orgId", query.orgId);
  if (query.after) params.set("after", query.after);
  else if (query.before) params.set("before", query.before);
  const text = params.toString();
  return text ? `/settings/users?${text}` : "/settings/users";
}

function readQuery(c: RouteContext): Query {
  return {
    search: (c.req.query("search") ?? "").trim().slice(0, SEARCH_MAX),
    orgId: (c.req.query("orgId") ?? "").slice(0, 64),
    after: (c.req.query("after") ?? "").slice(0, CURSOR_MAX),
    before: (c.req.query("before") ?? "").slice(0, CURSOR_MAX),
  };
}

function SearchForm({ query, organizations }: Pick<Data, "query" | "organizations">) {
  const { t } = usePage();
  return (
    <search>
      <form method="get" className="mb-4 flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor="users-search" className="text-sm font-medium text-slate-800">
            {t("users.search")}
          </label>
          <input
            id="users-search"
            name="search"
            type="search"
            defaultValue={query.search}
            maxLength={SEARCH_MAX}
            className="rounded-md border border-slate-300 px-3 py-2 text-sm"
          />
        </div>
        {organizations.length > 1 && (
          <SelectField
            label={String(t("users.fields.organization"))}
            name="orgId"
            defaultValue={query.orgId}
            options={[{ value: "", label: String(t("users.allOrganizations")) }, ...treeOptions(organizations)]}
          />
        )}
        <Button type="submit" variant="white">
          {t("settings.apply")}
        </Button>
      </form>
    </search>
  );
}

function StatusBadge({ status }: { status: ListedUser["status"] }) {
  const { t } = usePage();
  const tone =
    status === "active"
      ? "bg-green-50 text-green-800 ring-green-200"
      : status === "disabled"
        ? "bg-slate-100 text-slate-700 ring-slate-300"
        : "bg-amber-50 text-amber-800 ring-amber-200";
  return (
    <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tone}`}>
      {t(`users.statuses.${status}`)}
    </span>
  );
}

function UsersTable({ data }: { data: Data }) {
  const { t, language } = usePage();
  const { query, users, next, previous } = data;
  const { after: _after, before: _before, ...filters } = query;
  return (
    <>
      <Table
        caption={String(t("users.caption"))}
        rows={users}
        rowKey={(user) => user.id}
        empty={<EmptyState title={String(t(query.search || query.orgId ? "users.noMatch" : "users.none"))} />}
        columns={[
          {
            key: "name",
            header: String(t("users.fields.name")),
            cell: (user) => (
              <>
                <a href={`/settings/users/edit/${user.id}`} className="font-medium text-brand-700 hover:underline">
                  {user.name || user.email}
                </a>
                <span className="block text-slate-600">{user.email}</span>
              </>
            ),
          },
          { key: "role", header: String(t("users.fields.role")), cell: (user) => t(`users.roles.${user.role}`) },
          { key: "status", header: String(t("users.fields.status")), cell: (user) => <StatusBadge status={user.status} /> },
          { key: "organization", header: String(t("users.fields.organization")), cell: (user) => user.organizationName },
          {
            key: "lastSignIn",
            header: String(t("users.fields.lastSignIn")),
            cell: (user) => (user.lastSignInAt ? formatDateTime(language, user.lastSignInAt, "UTC") : t("users.never")),
          },
        ]}
      />
      {(next || previous) && (
        <Pager
          label={String(t("users.pages"))}
          previous={{ href: previous ? usersHref({ ...filters, before: previous }) : null, label: String(t("users.previous")) }}
          next={{ href: next ? usersHref({ ...filters, after: next }) : null, label: String(t("users.next")) }}
        />
      )}
    </>
  );
}

function InvitationActions({ invitation, action }: { invitation: OpenInvitation; action: string }) {
  const { t } = usePage();
  const fields = (intent: string) => [
    { kind: "hidden" as const, name: "intent", value: intent },
    { kind: "hidden" as const, name: "invitationId", value: invitation.id },
  ];
  return (
    <div className="flex flex-wrap gap-2">
      <Island
        name="settings-form"
        props={{
          action,
          compact: true,
          variant: "white",
          fields: fields("resend"),
          submitLabel: String(t("users.resend")),
          submitDescription: String(t("users.resendTo", { email: invitation.email })),
          errors: {},
        }}
      />
      <Island
        name="settings-form"
        props={{
          action,
          compact: true,
          variant: "danger",
          fields: fields("revoke"),
          submitLabel: String(t("users.revoke")),
          submitDescription: String(t("users.revokeFor", { email: invitation.email })),
          errors: {},
        }}
      />
    </div>
  );
}

function Invitations({ invitations, action, error }: { invitations: OpenInvitation[]; action: string; error?: string }) {
  const { t, language } = usePage();
  return (
    <section aria-labelledby="invitations-heading" className="mt-10">
      <h2 id="invitations-heading" className="mb-3 text-lg font-semibold text-slate-900">
        {t("users.openInvitations")}
      </h2>
      {error && (
        <div className="mb-3">
          <FormAlert message={error} />
        </div>
      )}
      {invitations.length === 0 ? (
        <p className="text-sm text-slate-600">{t("users.noInvitations")}</p>
      ) : (
        <Table
          caption={String(t("users.openInvitations"))}
          rows={invitations}
          rowKey={(invitation) => invitation.id}
          columns={[
            { key: "email", header: String(t("users.fields.email")), cell: (i) => i.email },
            { key: "role", header: String(t("users.fields.role")), cell: (i) => t(`users.roles.${i.role}`) },
            { key: "organization", header: String(t("users.fields.organization")), cell: (i) => i.organizationName },
            {
              key: "expires",
              header: String(t("users.fields.expires")),
              cell: (i) => formatDateTime(language, i.expiresAt, "UTC"),
            },
            {
              key: "actions",
              header: String(t("settings.actions")),
              cell: (invitation) => <InvitationActions invitation={invitation} action={action} />,
            },
          ]}
        />
      )}
    </section>
  );
}

/** /settings/users: the users of the caller's tree, then the invitations still open. */
function UsersList({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const { query } = data;
  const invite = (
    <ButtonLink href={query.orgId ? `/settings/users/invite?orgId=${encodeURIComponent(query.orgId)}` : "/settings/users/invite"}>
      {t("users.invite")}
    </ButtonLink>
  );
  const formError = form?.errors.form ? String(t(form.errors.form)) : undefined;
  return (
    <SettingsLayout current="users" title={String(t("routes.settingsUsers"))} actions={invite}>
      <SearchForm query={query} organizations={data.organizations} />
      <UsersTable data={data} />
      <Invitations invitations={data.invitations} action={usersHref(query)} error={formError} />
    </SettingsLayout>
  );
}

/** Resend or revoke an open invitation (the buttons of its row). */
async function invitationAction(c: RouteContext): Promise<ActionResult> {
  const values = await postedValues(c);
  const back = usersHref(readQuery(c));
  const id = values.invitationId ?? "";
  try {
    if (values.intent === "resend") {
      const { email } = await api(c).users.resendInvitation({ id });
      return { ok: true, redirect: back, flash: { type: "success", key: "users.invitationResent", values: { email } } };
    }
    if (values.intent === "revoke") {
      const { email } = await api(c).users.revokeInvitation({ id });
      return { ok: true, redirect: back, flash: { type: "success", key: "users.invitationRevoked", values: { email } } };
    }
    return { ok: false, status: 400, form: { values, errors: { form: "validation.Invalid" } } };
  } catch (error) {
    return formRefusal(error, values, { fields: [], notFoundOnForm: true });
  }
}

export const usersListPage = definePage<Data>({
  load: async (c) => {
    const query = readQuery(c);
    const caller = api(c);
    const orgId = query.orgId || undefined;
    const [organizations, users, invitations] = await Promise.all([
      caller.organizations.list(),
      caller.users.list({
        orgId,
        search: query.search,
        after: query.after || undefined,
        before: query.before || undefined,
        pageSize: PAGE_SIZE,
      }),
      caller.users.listInvitations({ orgId }),
    ]);
    return {
      query,
      organizations,
      users: users.items,
      next: users.next,
      previous: users.previous,
      invitations: invitations.items,
    };
  },
  Component: UsersList,
  action: invitationAction,
  toaster: true,
});
