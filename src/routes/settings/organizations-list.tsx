import { api } from "@/server/api/procedures-route";
import type { OrganizationInTree } from "@/server/api/routers/organizations";
import { usePage } from "@/server/render/page-context";
import { Button, ButtonLink } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { Table } from "@/ui/table";
import { webhooksHref } from "../notifications/paths";
import { definePage, type PageProps } from "../types";

type Data = { search: string; organizations: OrganizationInTree[]; canEdit: boolean };

const SEARCH_MAX = 120;

function SearchForm({ search }: { search: string }) {
  const { t } = usePage();
  return (
    <search>
      <form method="get" className="mb-4 flex flex-wrap items-end gap-2">
        <div className="flex flex-col gap-1">
          <label htmlFor="organizations-search" className="text-sm font-medium text-slate-800">
            {t("organizations.search")}
          </label>
          <input
            id="organizations-search"
            name="search"
            type="search"
            defaultValue={search}
            maxLength={SEARCH_MAX}
            className="rounded-md border border-slate-300 px-3 py-2 text-sm"
          />
        </div>
        <Button type="submit" variant="white">
          {t("settings.apply")}
        </Button>
      </form>
    </search>
  );
}

/** /settings/organizations: the caller's organization and those below it, as an indented tree. */
function OrganizationsList({ data }: PageProps<Data>) {
  const { t } = usePage();
  const { organizations, canEdit, search } = data;
  const addLink = canEdit ? <ButtonLink href="/settings/organizations/add">{t("organizations.add")}</ButtonLink> : undefined;
  return (
    <SettingsLayout current="organizations" title={String(t("routes.settingsOrganizations"))} actions={addLink}>
      <SearchForm search={search} />
      <Table
        caption={String(t("organizations.caption"))}
        rows={organizations}
        rowKey={(organization) => organization.id}
        empty={<EmptyState title={String(t("organizations.noMatch"))} />}
        columns={[
          {
            key: "name",
            header: String(t("organizations.fields.name")),
            // Indented by depth, so the list reads as the tree it is (the Parent column says it in words).
            cell: (organization) => (
              <span style={{ paddingLeft: `${(search ? 0 : organization.depth) * 1.5}rem` }} className="inline-block font-medium">
                {canEdit ? (
                  <a href={`/settings/organizations/edit/${organization.id}`} className="text-brand-700 hover:underline">
                    {organization.name}
                  </a>
                ) : (
                  organization.name
                )}
              </span>
            ),
          },
          { key: "kind", header: String(t("organizations.fields.kind")), cell: (o) => t(`organizations.kinds.${o.kind}`) },
          { key: "parent", header: String(t("organizations.fields.parent")), cell: (o) => o.parentName ?? "—" },
          ...(canEdit
            ? [
                {
                  key: "actions",
                  header: String(t("settings.actions")),
                  cell: (organization: OrganizationInTree) => (
                    <span className="flex flex-wrap gap-x-4 gap-y-1">
                      <a href={webhooksHref(organization.id)} className="text-brand-700 hover:underline">
                        {t("notifications.webhooks.linkOf", { name: organization.name })}
                      </a>
                      {organization.kind === "customer" ? null : (
                        <a
                          href={`/settings/organizations/add?parentId=${encodeURIComponent(organization.id)}`}
                          className="text-brand-700 hover:underline"
                        >
                          {t("organizations.addBelow", { name: organization.name })}
                        </a>
                      )}
                    </span>
                  ),
                },
              ]
            : []),
        ]}
      />
    </SettingsLayout>
  );
}

export const organizationsListPage = definePage<Data>({
  load: async (c) => {
    const search = (c.req.query("search") ?? "").trim().slice(0, SEARCH_MAX);
    const organizations = await api(c).organizations.list({ search });
    return { search, organizations, canEdit: c.get("user")?.permissions["edit-accounts"] === true };
  },
  Component: OrganizationsList,
  toaster: true,
});
