import type { GroupFilter } from "@/schema/fleet/target";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { DeviceFrame } from "../devices/frame";
import { registryHref } from "../devices/paths";
import { definePage, type PageProps } from "../types";
import { ConditionWords, type Place } from "./conditions";
import { groupHref, groupInventoryHref, newGroupHref } from "./paths";

type Group = { id: string; name: string; filter: GroupFilter; count: number };
type Data = { account: AccountDetails; groups: Group[]; places: Place[] };

/** A group's live count: a link to the inventory filtered the same way, when the inventory can say it. */
function LiveCount({ accountId, group }: { accountId: string; group: Group }) {
  const { t, language } = usePage();
  const count = new Intl.NumberFormat(language).format(group.count);
  const href = groupInventoryHref(accountId, group.filter);
  if (!href) return <span data-group-count>{count}</span>;
  return (
    <a href={href} className="font-medium text-brand-700 hover:underline" data-group-count>
      {t("radioGroups.showRadios", { count })}
    </a>
  );
}

function GroupsList({ data }: PageProps<Data>) {
  const { t, user } = usePage();
  const { account, groups, places } = data;
  const canManage = user?.permissions["manage-devices"] === true;
  const add = canManage ? <ButtonLink href={newGroupHref(account._id)}>{t("radioGroups.add")}</ButtonLink> : null;
  return (
    <DeviceFrame
      account={account}
      title={String(t("routes.radioGroups"))}
      description={t("radioGroups.lead")}
      actions={
        <div className="flex flex-wrap gap-2">
          {add}
          <ButtonLink href={registryHref(account._id, "devices")} variant="white">
            {t("routes.registry")}
          </ButtonLink>
        </div>
      }
    >
      {groups.length === 0 ? (
        <EmptyState title={String(t("radioGroups.empty"))} description={String(t("radioGroups.emptyHelp"))} action={add} />
      ) : (
        <ul
          className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white"
          aria-label={String(t("routes.radioGroups"))}
        >
          {groups.map((group) => (
            <li key={group.id} className="grid gap-1 p-3 text-sm sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)_auto] sm:gap-4">
              <div className="min-w-0 break-words">
                <span className="sr-only">{t("radioGroups.columns.name")}: </span>
                {canManage ? (
                  <a href={groupHref(account._id, group.id)} className="font-medium text-brand-700 hover:underline">
                    {group.name}
                  </a>
                ) : (
                  <span className="font-medium text-slate-900">{group.name}</span>
                )}
              </div>
              <div className="min-w-0 break-words text-slate-700">
                <span className="sr-only">{t("radioGroups.columns.conditions")}: </span>
                <ConditionWords filter={group.filter} places={places} />
              </div>
              <div className="text-slate-900">
                <span className="text-slate-600 sm:sr-only">{t("radioGroups.columns.count")}: </span>
                <LiveCount accountId={account._id} group={group} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </DeviceFrame>
  );
}

/** /accounts/{accountId}/registry/devices/groups (view-devices-in-accounts): the account's groups with live counts. */
export const radioGroupsPage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const [account, list, places] = await Promise.all([
      accountDetails(c, accountId),
      api(c).radioGroups.list({ accountId }),
      api(c).devices.places({ accountId }),
    ]);
    return { account, groups: list.items, places };
  },
  Component: GroupsList,
});
