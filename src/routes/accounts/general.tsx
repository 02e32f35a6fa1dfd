import { Island } from "@/islands/runtime/island";
import { api } from "@/server/api/procedures-route";
import type { Account } from "@/server/data/accounts";
import { usePage } from "@/server/render/page-context";
import { type ActionResult, definePage, type PageProps, type RouteContext, tabTitle } from "../types";
import { ApprovalSection, saveApproval } from "./approval-section";
import { EditAccountLayout, editHref } from "./edit-layout";
import { postedValues, refusal, translatedErrors } from "./form-errors";
import { RetentionSection, saveRetention } from "./retention-section";
import { timeZoneSelectOptions } from "./time-zones";

type Data = { account: Account; canDelete: boolean };

const generalFields = new Set(["name", "subscriptionLevel", "timezone"]);

function DeleteSection({ account, form }: { account: Account; form: PageProps<Data>["form"] }) {
  const { t } = usePage();
  const href = editHref(account._id, "general");
  const deleting = form?.values.intent === "delete";
  return (
    <section aria-labelledby="delete-heading" className="mt-10 max-w-xl rounded-lg border border-red-200 bg-white p-5">
      <h2 id="delete-heading" className="text-lg font-semibold text-red-800">
        {t("accounts.delete.heading")}
      </h2>
      <p className="mt-2 mb-4 text-sm text-slate-700">{t("accounts.delete.explain")}</p>
      <Island
        name="account-delete"
        props={{
          action: href,
          name: account.name,
          version: account.version,
          confirmName: deleting ? (form.values.confirmName ?? "") : "",
          errors: deleting ? translatedErrors(form.errors, t) : {},
          reloadHref: href,
        }}
      />
    </section>
  );
}

function General({ data, form }: PageProps<Data>) {
  const { t, language } = usePage();
  const { account } = data;
  const href = editHref(account._id, "general");
  // After a failed save the form shows what was typed (and the version it was typed on).
  const saveForm =
    form && form.values.intent !== "delete" && form.values.intent !== "retention" && form.values.intent !== "approval"
      ? form
      : undefined;
  const values = saveForm?.values ?? {
    name: account.name,
    subscriptionLevel: account.subscriptionLevel,
    timezone: account.timezone,
    version: String(account.version),
  };
  return (
    <EditAccountLayout accountId={account._id} accountName={account.name} current="general">
      <Island
        name="account-form"
        props={{
          mode: "edit",
          action: href,
          values,
          errors: translatedErrors(saveForm?.errors, t),
          timeZones: timeZoneSelectOptions(language, values.timezone),
          organizations: [],
          reloadHref: href,
        }}
      />
      <RetentionSection account={account} action={href} form={form} />
      <ApprovalSection account={account} action={href} form={form} />
      {data.canDelete && <DeleteSection account={account} form={form} />}
    </EditAccountLayout>
  );
}

async function deleteAccount(c: RouteContext, id: string, values: Record<string, string>): Promise<ActionResult> {
  const confirmName = values.confirmName ?? "";
  const kept = { intent: "delete", confirmName };
  try {
    await api(c).accounts.delete({ id, version: Number(values.version), confirmName });
  } catch (error) {
    return refusal(error, kept, {
      fieldOf: (path) => (path[0] === "confirmName" ? "confirmName" : "form"),
      precondition: { field: "confirmName", key: "validation.ConfirmNameMismatch" },
    });
  }
  return {
    ok: true,
    redirect: "/accounts",
    flash: { type: "success", key: "accounts.deleted", values: { name: confirmName.trim() } },
  };
}

/** Saves the general fields on the version they were typed on, or deletes the account. */
async function saveGeneral(c: RouteContext): Promise<ActionResult> {
  const id = c.req.param("accountId") ?? "";
  const values = await postedValues(c);
  if (values.intent === "delete") return deleteAccount(c, id, values);
  if (values.intent === "retention") return saveRetention(c, id, editHref(id, "general"), values);
  if (values.intent === "approval") return saveApproval(c, id, editHref(id, "general"), values);
  try {
    const account = await api(c).accounts.update({
      id,
      version: Number(values.version),
      name: values.name ?? "",
      // Checked by the procedure's schema; a wrong value comes back as a field error.
      subscriptionLevel: (values.subscriptionLevel ?? "") as "essential" | "advanced",
      timezone: values.timezone ?? "",
    });
    return {
      ok: true,
      redirect: editHref(id, "general"),
      flash: { type: "success", key: "accounts.saved", values: { name: account.name } },
    };
  } catch (error) {
    return refusal(error, values, { fieldOf: (path) => (generalFields.has(String(path[0])) ? String(path[0]) : "form") });
  }
}

/** /accounts/edit/:accountId/general (edit-configurations): name, level, time zone, retention, deployment approval; delete (edit-accounts). */
export const accountGeneralPage = definePage<Data>({
  title: ({ account }, t) => tabTitle(t, account.name, "accounts.tabs.general", "routes.accountSettings"),
  load: async (c) => {
    const account = await api(c).accounts.details({ id: c.req.param("accountId") ?? "" });
    return { account, canDelete: Boolean(c.get("user")?.permissions["edit-accounts"]) };
  },
  Component: General,
  action: saveGeneral,
  toaster: true,
});
