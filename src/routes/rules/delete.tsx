import { TRPCError } from "@trpc/server";
import { Island } from "@/islands/runtime/island";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { Rule } from "@/server/data/rules";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { postedValues } from "../settings/procedure-refusal";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { ruleOfAccount } from "./form";
import { ruleDeleteHref, ruleEditHref, rulesHref } from "./paths";

type Data = { account: AccountDetails; rule: Rule };

function DeleteRule({ data }: PageProps<Data>) {
  const { t } = usePage();
  const { account, rule } = data;
  return (
    <AccountLayout account={account}>
      <div className="max-w-2xl">
        <PageHeader title={String(t("routes.deleteRule"))} />
        <p className="text-slate-800">{t("rules.delete.question", { name: rule.name, priority: rule.priority })}</p>
        <p className="mt-2 text-sm text-slate-600">{t("rules.delete.help")}</p>
        <div className="mt-6 flex flex-wrap items-start gap-3">
          <Island
            name="confirm-form"
            props={{
              action: ruleDeleteHref(account._id, rule.id),
              label: String(t("rules.delete.confirm")),
              srLabel: rule.name,
              hidden: { version: String(rule.version) },
            }}
          />
          <ButtonLink href={ruleEditHref(account._id, rule.id)} variant="white" size="sm">
            {t("profiles.delete.cancel")}
          </ButtonLink>
        </div>
      </div>
    </AccountLayout>
  );
}

async function deleteRule(c: RouteContext): Promise<ActionResult> {
  const accountId = c.req.param("accountId") ?? "";
  const rule = await ruleOfAccount(c, accountId);
  const posted = await postedValues(c);
  try {
    await api(c).rules.delete({ id: rule.id, version: Number(posted.version ?? 0) || 0 });
  } catch (error) {
    if (error instanceof TRPCError && error.code === "CONFLICT") {
      return { ok: true, redirect: ruleDeleteHref(accountId, rule.id), flash: { type: "error", key: "errors.staleEdit" } };
    }
    throw error;
  }
  return {
    ok: true,
    redirect: rulesHref(accountId),
    flash: { type: "success", key: "rules.deleted", values: { name: rule.name } },
  };
}

/** /accounts/{accountId}/rules/delete/{ruleId} (edit-configurations): the rules below move up one place. */
export const deleteRulePage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const [account, rule] = await Promise.all([accountDetails(c, accountId), ruleOfAccount(c, accountId)]);
    return { account, rule };
  },
  Component: DeleteRule,
  action: deleteRule,
  toaster: true,
});
