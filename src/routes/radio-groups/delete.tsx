import { TRPCError } from "@trpc/server";
import { Island } from "@/islands/runtime/island";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { posted } from "../devices/forms";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { deleteGroupHref, groupHref, groupsHref } from "./paths";

type Data = { account: AccountDetails; group: { id: string; name: string; version: number; count: number } };

function DeleteGroup({ data }: PageProps<Data>) {
  const { t } = usePage();
  const { account, group } = data;
  return (
    <AccountLayout account={account}>
      <div className="max-w-2xl">
        <PageHeader title={String(t("routes.deleteRadioGroup"))} />
        <p className="text-slate-800">{t("radioGroups.deleteQuestion", { name: group.name })}</p>
        <p className="mt-2 text-sm text-slate-600">
          {t("radioGroups.count", { count: group.count })} {t("radioGroups.deleteHelp")}
        </p>
        <div className="mt-6 flex flex-wrap items-start gap-3">
          <Island
            name="confirm-form"
            props={{
              action: deleteGroupHref(account._id, group.id),
              label: String(t("radioGroups.delete")),
              srLabel: group.name,
              hidden: { version: String(group.version) },
            }}
          />
          <ButtonLink href={groupHref(account._id, group.id)} variant="white" size="sm">
            {t("radioGroups.cancel")}
          </ButtonLink>
        </div>
      </div>
    </AccountLayout>
  );
}

const params = (c: RouteContext) => ({ accountId: c.req.param("accountId") ?? "", groupId: c.req.param("groupId") ?? "" });

async function deleteGroup(c: RouteContext): Promise<ActionResult> {
  const { accountId, groupId } = params(c);
  const values = await posted(c);
  try {
    const gone = await api(c).radioGroups.delete({ accountId, groupId, version: Number(values.version ?? 0) || 0 });
    return {
      ok: true,
      redirect: groupsHref(accountId),
      flash: { type: "success", key: "radioGroups.deleted", values: { name: gone.name } },
    };
  } catch (error) {
    // Changed meanwhile (or a version that is no number): show the group as it is now.
    if (error instanceof TRPCError && (error.code === "CONFLICT" || error.code === "BAD_REQUEST"))
      return { ok: true, redirect: deleteGroupHref(accountId, groupId), flash: { type: "error", key: "errors.staleEdit" } };
    throw error;
  }
}

/** /accounts/{accountId}/registry/devices/groups/{groupId}/delete (manage-devices): asks before deleting. */
export const deleteRadioGroupPage = definePage<Data>({
  load: async (c) => {
    const { accountId, groupId } = params(c);
    const [account, group] = await Promise.all([accountDetails(c, accountId), api(c).radioGroups.get({ accountId, groupId })]);
    return { account, group };
  },
  Component: DeleteGroup,
  action: deleteGroup,
});
