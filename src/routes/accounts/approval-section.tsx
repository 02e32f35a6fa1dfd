import { MAX_APPROVAL_HOURS } from "@/schema/fleet/approval";
import { api } from "@/server/api/procedures-route";
import type { Account } from "@/server/data/accounts";
import { usePage } from "@/server/render/page-context";
import { Button } from "@/ui/button";
import { Field } from "@/ui/field";
import { FormAlert } from "@/ui/form-alert";
import type { ActionResult, FormState, RouteContext } from "../types";
import { refusal } from "./form-errors";

/**
 * Whether each deployment of the account waits for a second person's approval, and how long
 * at most (issue 25). A plain form: works without JavaScript.
 */
export function ApprovalSection({ account, action, form }: { account: Account; action: string; form: FormState | undefined }) {
  const { t } = usePage();
  const mine = form?.values.intent === "approval" ? form : undefined;
  const error = (field: string) => (mine?.errors[field] ? String(t(mine.errors[field])) : undefined);
  const required = mine ? mine.values.required === "1" : account.approvalRequired;
  return (
    <section aria-labelledby="approval-heading" className="mt-10 max-w-xl rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="approval-heading" className="text-lg font-semibold">
        {t("accounts.approval.heading")}
      </h2>
      <p className="mt-2 mb-4 text-sm text-slate-700">{t("accounts.approval.explain")}</p>
      <FormAlert message={error("form")} />
      <form method="post" action={action} className="flex flex-col gap-4">
        <input type="hidden" name="intent" value="approval" />
        <input type="hidden" name="version" value={String(account.version)} />
        <label className="flex items-start gap-2 text-sm font-medium text-slate-800">
          <input type="checkbox" name="required" value="1" defaultChecked={required} className="mt-1 h-4 w-4" />
          <span>{t("accounts.approval.required")}</span>
        </label>
        <div className="flex flex-wrap items-end gap-3">
          <Field
            id="approval-hours"
            label={String(t("accounts.approval.hours"))}
            hint={String(t("accounts.approval.hint"))}
            name="hours"
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_APPROVAL_HOURS}
            step={1}
            required
            defaultValue={mine?.values.hours ?? String(account.approvalExpiryHours)}
            error={error("hours")}
            className="w-40"
          />
          <Button type="submit" variant="white">
            {t("accounts.approval.submit")}
          </Button>
        </div>
      </form>
    </section>
  );
}

/** Saves the approval setting on the version it was typed on; bad input comes back on the field (400). */
export async function saveApproval(
  c: RouteContext,
  id: string,
  href: string,
  values: Record<string, string>,
): Promise<ActionResult> {
  const hours = (values.hours ?? "").trim();
  try {
    await api(c).accounts.setApproval({
      id,
      version: Number(values.version),
      required: values.required === "1",
      expiryHours: hours === "" ? Number.NaN : Number(hours),
    });
  } catch (error) {
    return refusal(
      error,
      { ...values, intent: "approval" },
      { fieldOf: (path) => (path[0] === "expiryHours" ? "hours" : "form") },
    );
  }
  return { ok: true, redirect: href, flash: { type: "success", key: "accounts.approval.saved" } };
}
