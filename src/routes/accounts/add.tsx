import { TRPCError } from "@trpc/server";
import { Island } from "@/islands/runtime/island";
import { api } from "@/server/api/procedures-route";
import type { OrganizationInTree } from "@/server/api/routers/organizations";
import { usePage } from "@/server/render/page-context";
import { PageHeader } from "@/ui/page-header";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { postedValues, refusal, translatedErrors } from "./form-errors";
import { organizationOptions } from "./organization-options";
import { timeZoneSelectOptions } from "./time-zones";

type Data = { organizations: OrganizationInTree[]; ownOrgId: string };

function AddAccount({ data, form }: PageProps<Data>) {
  const { t, language } = usePage();
  const values = form?.values ?? { name: "", subscriptionLevel: "essential", timezone: "UTC", orgId: data.ownOrgId };
  return (
    <>
      <PageHeader title={String(t("routes.addAccount"))} description={t("accounts.add.lead")} />
      <Island
        name="account-form"
        props={{
          mode: "add",
          action: "/accounts/add",
          values,
          errors: translatedErrors(form?.errors, t),
          timeZones: timeZoneSelectOptions(language, values.timezone),
          organizations: organizationOptions(data.organizations),
          reloadHref: "/accounts/add",
        }}
      />
    </>
  );
}

/** Adds the account (accounts.add checks the organization is in the caller's tree) and opens it. */
async function addAccount(c: RouteContext): Promise<ActionResult> {
  const posted = await postedValues(c);
  const { name = "", subscriptionLevel = "", timezone = "", orgId = "" } = posted;
  try {
    const account = await api(c).accounts.add({
      orgId,
      name,
      // Checked by the procedure's schema; a wrong value comes back as a field error.
      subscriptionLevel: subscriptionLevel as "essential" | "advanced",
      timezone,
    });
    return {
      ok: true,
      redirect: `/accounts/${encodeURIComponent(account._id)}`,
      flash: { type: "success", key: "accounts.added", values: { name: account.name } },
    };
  } catch (error) {
    // An organization outside the caller's tree is answered like one that does not exist.
    if (error instanceof TRPCError && error.code === "NOT_FOUND") {
      return { ok: false, status: 404, form: { values: posted, errors: { orgId: "errors.organizationNotFound" } } };
    }
    return refusal(error, posted, { fieldOf: (path) => String(path[0] ?? "form") });
  }
}

/** /accounts/add (edit-accounts): name, subscription level, time zone and organization. */
export const addAccountPage = definePage<Data>({
  load: async (c) => {
    const user = c.get("user");
    if (!user) return c.notFound();
    return { organizations: await api(c).organizations.list(), ownOrgId: user.orgId };
  },
  Component: AddAccount,
  action: addAccount,
  toaster: true,
});
