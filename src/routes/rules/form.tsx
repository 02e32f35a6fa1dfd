import { Island } from "@/islands/runtime/island";
import { profileTypes } from "@/schema/profiles";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { Rule } from "@/server/data/rules";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { translatedErrors } from "../accounts/form-errors";
import { notFound } from "../profiles/load";
import { configurationRefusal } from "../profiles/refusal";
import { postedValues } from "../settings/procedure-refusal";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { listPageHref, RULES_PAGE_SIZE, ruleDeleteHref, ruleEditHref, rulesHref } from "./paths";
import {
  emptyRule,
  fieldOfIssue,
  MAX_SLOTS,
  modelFromPost,
  modelFromRule,
  ruleInputFromPost,
  withEmptySlot,
} from "./rule-values";

type Options = Awaited<ReturnType<ReturnType<typeof api>["rules"]["options"]>>;
type Data = { account: AccountDetails; options: Options; rule: Rule | null };

/** Which radios the rule reaches: devices arrive with the inventory (a later issue), so none yet, said plainly. */
function MatchingDevices() {
  const { t } = usePage();
  return (
    <section aria-labelledby="matching-devices" className="mt-10 max-w-3xl">
      <h2 id="matching-devices" className="mb-3 text-lg font-semibold text-slate-900">
        {t("rules.devices.heading")}
      </h2>
      <EmptyState title={String(t("rules.devices.none"))} description={String(t("rules.devices.noneHelp"))} />
    </section>
  );
}

function RuleFormPage({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const { account, options, rule } = data;
  const base = rulesHref(account._id);
  const here = rule ? ruleEditHref(account._id, rule.id) : `${base}/add`;
  const posted = form ? modelFromPost(form.values) : null;
  const model = withEmptySlot(posted ?? (rule ? modelFromRule(rule) : emptyRule), form?.values.intent === "addSlot" ? 1 : 0);
  const known = new Set([...options.sites.map((s) => s.id), ...options.locations.map((l) => l.id)]);
  const deletedPlaces = [
    ...model.siteIds.filter((id) => !known.has(id)).map((id) => ({ id, kind: "site" as const })),
    ...model.locationIds.filter((id) => !known.has(id)).map((id) => ({ id, kind: "location" as const })),
  ];
  return (
    <AccountLayout account={account}>
      <PageHeader
        title={String(t(rule ? "routes.editRule" : "routes.addRule"))}
        description={rule ? t("rules.form.editLead", { name: rule.name, priority: rule.priority }) : t("rules.form.addLead")}
        actions={
          rule ? (
            <ButtonLink href={ruleDeleteHref(account._id, rule.id)} variant="danger">
              {t("rules.form.delete")}
            </ButtonLink>
          ) : undefined
        }
      />
      <Island
        name="rule-form"
        props={{
          action: here,
          reloadHref: here,
          cancelHref: base,
          submitLabel: String(t(rule ? "rules.form.save" : "rules.form.add")),
          model,
          sites: options.sites,
          locations: options.locations.map((l) => ({ id: l.id, label: `${l.siteName} › ${l.name}` })),
          deletedPlaces,
          profileGroups: profileTypes.map((type) => ({
            label: String(t(`profiles.types.${type}`)),
            options: options.profiles.filter((p) => p.type === type).map(({ id, name }) => ({ id, name })),
          })),
          maxSlots: MAX_SLOTS,
          errors: translatedErrors(form?.errors, t),
        }}
      />
      {rule && <MatchingDevices />}
    </AccountLayout>
  );
}

/** Saves the rule (add, or edit at the version shown); "Add another profile" only shows one more slot. */
async function saveRule(c: RouteContext, ruleId: string | null): Promise<ActionResult> {
  const accountId = c.req.param("accountId") ?? "";
  const values = await postedValues(c);
  if (values.intent === "addSlot") return { ok: false, status: 200, form: { values, errors: {} } };
  const { input, slotMap } = ruleInputFromPost(values);
  try {
    const rule = ruleId
      ? await api(c).rules.update({ ...input, id: ruleId, version: Number(values.version ?? 0) || 0 })
      : await api(c).rules.add({ ...input, accountId });
    return {
      ok: true,
      // The list's page that shows the rule (a new one is last).
      redirect: listPageHref(accountId, Math.ceil(rule.priority / RULES_PAGE_SIZE)),
      flash: { type: "success", key: ruleId ? "rules.saved" : "rules.added", values: { name: rule.name } },
    };
  } catch (error) {
    return configurationRefusal(error, values, (path) => fieldOfIssue(path, slotMap));
  }
}

export async function ruleOfAccount(c: RouteContext, accountId: string): Promise<Rule> {
  const rule = await api(c).rules.details({ id: c.req.param("ruleId") ?? "" });
  if (rule.accountId !== accountId) throw notFound(c, "errors.ruleNotFound");
  return rule;
}

/** /accounts/{accountId}/rules/add (edit-configurations): a new rule, placed last in the order. */
export const addRulePage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const [account, options] = await Promise.all([accountDetails(c, accountId), api(c).rules.options({ accountId })]);
    return { account, options, rule: null };
  },
  Component: RuleFormPage,
  action: (c) => saveRule(c, null),
  toaster: true,
});

/** /accounts/{accountId}/rules/edit/{ruleId} (edit-configurations). */
export const editRulePage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const [account, rule] = await Promise.all([accountDetails(c, accountId), ruleOfAccount(c, accountId)]);
    const placeIds = [...(rule.conditions.siteIds ?? []), ...(rule.conditions.locationIds ?? [])];
    const options = await api(c).rules.options({ accountId, placeIds });
    return { account, options, rule };
  },
  Component: RuleFormPage,
  action: async (c) => {
    const rule = await ruleOfAccount(c, c.req.param("accountId") ?? "");
    return saveRule(c, rule.id);
  },
  toaster: true,
});
