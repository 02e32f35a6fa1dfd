import { TRPCError } from "@trpc/server";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import { type FleetEventName, fleetEventNames } from "@/server/notifications/events";
import { usePage } from "@/server/render/page-context";
import { Button } from "@/ui/button";
import { FormAlert } from "@/ui/form-alert";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { accountNotificationsHref } from "./paths";

/**
 * /accounts/{accountId}/notifications (issue 25): the signed-in person's own email choices for
 * the account, a checkbox per fleet event. Anyone who sees the account chooses for themselves;
 * the procedure refuses another tenant's account (the error screen).
 */

type Data = { account: AccountDetails; events: string[] };

function AccountNotifications({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const { account } = data;
  // After a refused post, the boxes keep what was ticked (comma-joined by the action).
  const chosen = new Set<string>(form ? (form.values.events ?? "").split(",").filter(Boolean) : data.events);
  return (
    <AccountLayout account={account}>
      <PageHeader
        title={String(t("routes.notifications"))}
        description={String(t("notifications.page.lead", { account: account.name }))}
      />
      <form method="post" action={accountNotificationsHref(account._id)} className="flex max-w-xl flex-col gap-4">
        {form?.errors.form ? <FormAlert message={String(t(form.errors.form))} /> : null}
        <fieldset className="rounded-lg border border-slate-200 bg-white p-4">
          <legend className="px-1 text-sm font-semibold text-slate-900">{t("notifications.page.legend")}</legend>
          <ul className="mt-2 flex flex-col gap-2">
            {fleetEventNames.map((event) => (
              <li key={event}>
                <label className="flex items-start gap-2 text-sm text-slate-900">
                  <input
                    type="checkbox"
                    name="events"
                    value={event}
                    defaultChecked={chosen.has(event)}
                    className="mt-0.5 size-4 shrink-0"
                  />
                  <span>{t(`notifications.choices.${event}`)}</span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        {chosen.size === 0 && <p className="text-sm text-slate-600">{t("notifications.page.none")}</p>}
        <div>
          <Button type="submit">{t("notifications.page.save")}</Button>
        </div>
      </form>
    </AccountLayout>
  );
}

/** The ticked boxes: one value per box (several with the same name), anything else dropped by the procedure. */
async function tickedEvents(c: RouteContext): Promise<string[]> {
  const body = await c.req.parseBody({ all: true });
  const raw = body.events;
  const values = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return values.filter((v): v is string => typeof v === "string").slice(0, 20);
}

async function save(c: RouteContext): Promise<ActionResult> {
  const accountId = c.req.param("accountId") ?? "";
  const events = await tickedEvents(c);
  try {
    await api(c).notifications.setPreferences({ accountId, events: events as FleetEventName[] });
  } catch (error) {
    // A made-up event name: the form again with a message; another tenant's account: the error screen.
    if (error instanceof TRPCError && error.code === "BAD_REQUEST") {
      return { ok: false, status: 400, form: { values: { events: events.join(",") }, errors: { form: "validation.Invalid" } } };
    }
    throw error;
  }
  return { ok: true, redirect: accountNotificationsHref(accountId), flash: { type: "success", key: "notifications.page.saved" } };
}

export const accountNotificationsPage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const [account, preferences] = await Promise.all([
      accountDetails(c, accountId),
      api(c).notifications.preferences({ accountId }),
    ]);
    return { account, events: preferences.events };
  },
  Component: AccountNotifications,
  action: save,
});
