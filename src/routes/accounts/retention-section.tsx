import { api } from "@/server/api/procedures-route";
import type { Account } from "@/server/data/accounts";
import { RETENTION_MAX_MONTHS, RETENTION_MIN_MONTHS } from "@/server/data/archives";
import { usePage } from "@/server/render/page-context";
import { Button } from "@/ui/button";
import { Field } from "@/ui/field";
import { FormAlert } from "@/ui/form-alert";
import type { ActionResult, FormState, RouteContext } from "../types";
import { refusal } from "./form-errors";

/**
 * How long the account keeps its activity, commands and deployment outcomes in D1 before the
 * scheduled trigger moves them to R2 (issue 24). A plain form: works without JavaScript.
 */
export function RetentionSection({ account, action, form }: { account: Account; action: string; form: FormState | undefined }) {
  const { t } = usePage();
  const mine = form?.values.intent === "retention" ? form : undefined;
  const error = (field: string) => (mine?.errors[field] ? String(t(mine.errors[field])) : undefined);
  return (
    <section aria-labelledby="retention-heading" className="mt-10 max-w-xl rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="retention-heading" className="text-lg font-semibold">
        {t("accounts.retention.heading")}
      </h2>
      <p className="mt-2 mb-4 text-sm text-slate-700">{t("accounts.retention.explain")}</p>
      <FormAlert message={error("form")} />
      <form method="post" action={action} className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="retention" />
        <input type="hidden" name="version" value={String(account.version)} />
        <Field
          label={String(t("accounts.retention.months"))}
          hint={String(t("accounts.retention.hint", { min: RETENTION_MIN_MONTHS, max: RETENTION_MAX_MONTHS }))}
          name="months"
          type="number"
          inputMode="numeric"
          min={RETENTION_MIN_MONTHS}
          max={RETENTION_MAX_MONTHS}
          step={1}
          required
          defaultValue={mine?.values.months ?? String(account.retentionMonths)}
          error={error("months")}
          className="w-40"
        />
        <Button type="submit" variant="white">
          {t("accounts.retention.submit")}
        </Button>
      </form>
    </section>
  );
}

/** Saves the retention on the version it was typed on; bad input comes back on the field (400). */
export async function saveRetention(
  c: RouteContext,
  id: string,
  href: string,
  values: Record<string, string>,
): Promise<ActionResult> {
  const months = (values.months ?? "").trim();
  try {
    await api(c).accounts.setRetention({
      id,
      version: Number(values.version),
      months: months === "" ? Number.NaN : Number(months),
    });
  } catch (error) {
    return refusal(error, { ...values, intent: "retention" }, { fieldOf: (path) => (path[0] === "months" ? "months" : "form") });
  }
  return { ok: true, redirect: href, flash: { type: "success", key: "accounts.retention.saved", values: { months } } };
}
