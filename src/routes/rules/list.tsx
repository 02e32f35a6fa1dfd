import { TRPCError } from "@trpc/server";
import type { RuleRow } from "@/islands/rule-order.island";
import { Island } from "@/islands/runtime/island";
import { formatNumber } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import { translatorFor } from "@/server/i18n/i18n";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { PageHeader } from "@/ui/page-header";
import { Pager } from "@/ui/pager";
import { AccountLayout } from "@/ui/shell/account-layout";
import { postedValues } from "../settings/procedure-refusal";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { listPageHref, RULES_PAGE_SIZE, ruleEditHref, rulesHref } from "./paths";
import { conditionsSummary } from "./summary";

type Data = { account: AccountDetails; rows: RuleRow[]; total: number; setVersion: number; page: number };

function RulesList({ data }: PageProps<Data>) {
  const { t, language } = usePage();
  const { account, rows, total, page } = data;
  const base = rulesHref(account._id);
  const add = <ButtonLink href={`${base}/add`}>{t("rules.list.add")}</ButtonLink>;
  const pages = Math.max(1, Math.ceil(total / RULES_PAGE_SIZE));
  return (
    <AccountLayout account={account}>
      <PageHeader title={String(t("routes.rules"))} description={t("rules.list.lead")} actions={total > 0 ? add : undefined} />
      {total === 0 ? (
        <EmptyState title={String(t("rules.list.empty"))} description={String(t("rules.list.emptyHelp"))} action={add} />
      ) : (
        <>
          <p className="mb-3 max-w-3xl text-sm text-slate-700">{t("rules.list.orderHelp")}</p>
          <Island
            name="rule-order"
            props={{
              accountId: account._id,
              setVersion: data.setVersion,
              rows,
              total,
              action: base,
              page,
              pageSize: RULES_PAGE_SIZE,
            }}
          />
          {total > RULES_PAGE_SIZE && (
            <Pager
              label={String(t("rules.list.pages"))}
              status={String(
                t("rules.list.pageOf", { page: formatNumber(language, page), pages: formatNumber(language, pages) }),
              )}
              previous={{ href: page > 1 ? listPageHref(account._id, page - 1) : null, label: String(t("rules.list.previous")) }}
              next={{ href: page < pages ? listPageHref(account._id, page + 1) : null, label: String(t("rules.list.next")) }}
            />
          )}
        </>
      )}
    </AccountLayout>
  );
}

function pageOf(c: RouteContext, raw: string | undefined): number {
  const page = Number.parseInt(raw ?? c.req.query("page") ?? "", 10);
  return Number.isFinite(page) && page >= 1 ? Math.min(page, 100_000) : 1;
}

/**
 * A Move up / Move down button posted without JavaScript. The list comes back on the page
 * where the rule now is; a move on an order changed meanwhile shows the current order instead.
 */
async function moveRule(c: RouteContext): Promise<ActionResult> {
  const accountId = c.req.param("accountId") ?? "";
  const posted = await postedValues(c);
  const ruleId = posted.ruleId ?? "";
  const direction = posted.direction === "down" ? "down" : "up";
  const back = listPageHref(accountId, pageOf(c, posted.page));
  const rule = await api(c).rules.details({ id: ruleId });
  try {
    const result = await api(c).rules.reorder({
      accountId,
      version: Number(posted.version ?? 0) || 0,
      move: { id: rule.id, direction },
    });
    const position = result.order.find((entry) => entry.id === rule.id)?.priority ?? rule.priority;
    return {
      ok: true,
      redirect: listPageHref(accountId, Math.ceil(position / RULES_PAGE_SIZE)),
      flash: { type: "success", key: "rules.list.moved", values: { name: rule.name, position } },
    };
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "CONFLICT" || error.code === "BAD_REQUEST")) {
      return {
        ok: true,
        redirect: back,
        flash: { type: "error", key: error.code === "CONFLICT" ? "errors.ruleOrderChanged" : "rules.list.cannotMove" },
      };
    }
    throw error;
  }
}

/** /accounts/{accountId}/rules (edit-configurations): the rules in priority order, reordered by one place at a time. */
export const rulesListPage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const page = pageOf(c, undefined);
    const [account, result] = await Promise.all([
      accountDetails(c, accountId),
      api(c).rules.list({ accountId, page, pageSize: RULES_PAGE_SIZE }),
    ]);
    if (result.items.length === 0 && page > 1 && result.total > 0) {
      return c.redirect(listPageHref(accountId, Math.ceil(result.total / RULES_PAGE_SIZE)), 302);
    }
    const placeIds = result.items.flatMap((rule) => [...(rule.conditions.siteIds ?? []), ...(rule.conditions.locationIds ?? [])]);
    const options = placeIds.length
      ? await api(c).rules.options({ accountId, placeIds: [...new Set(placeIds)].slice(0, 100) })
      : null;
    const places = new Map((options?.named ?? []).map((place) => [place.id, place.name]));
    const t = translatorFor(c.get("language"), c.get("settings").brandNamespace);
    const rows: RuleRow[] = result.items.map((rule) => ({
      id: rule.id,
      name: rule.name,
      priority: rule.priority,
      enabled: rule.enabled,
      conditions: conditionsSummary(rule.conditions, places, t),
      profiles: rule.profiles.map((profile) => profile.name),
      editHref: ruleEditHref(accountId, rule.id),
    }));
    return { account, rows, total: result.total, setVersion: result.setVersion, page };
  },
  Component: RulesList,
  action: moveRule,
  toaster: true,
});
