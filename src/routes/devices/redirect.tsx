import { TRPCError } from "@trpc/server";
import { HAND_OVER_MAX } from "@/schema/fleet/hand-over";
import { formatDateTime } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { DeviceRedirect } from "@/server/data/device-redirects";
import { usePage } from "@/server/render/page-context";
import { Button } from "@/ui/button";
import { Field } from "@/ui/field";
import { FormAlert } from "@/ui/form-alert";
import { formRefusal, postedValues } from "../settings/procedure-refusal";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { DeviceFrame } from "./frame";
import { deviceHref, type Frame } from "./paths";

type Data = {
  frame: Frame;
  account: AccountDetails | null;
  uid: string;
  active: boolean;
  redirect: DeviceRedirect | null;
  timeZone: string;
};

/** What the hand-over is waiting for, or that it is done. */
function HandOverState({ data }: { data: Data }) {
  const { t, language } = usePage();
  const { redirect, timeZone } = data;
  const when = (at: string) => formatDateTime(language, at, timeZone);
  let text: string;
  if (!redirect) text = String(t("devices.handOver.none"));
  else if (redirect.confirmedAt)
    text = String(t("devices.handOver.confirmed", { url: redirect.url, time: when(redirect.confirmedAt) }));
  else text = String(t("devices.handOver.waiting", { url: redirect.url, time: when(redirect.requestedAt) }));
  return (
    <p
      className="rounded-md border border-slate-200 bg-white px-4 py-3 text-sm text-slate-900"
      data-testid="hand-over-state"
      data-state={!redirect ? "none" : redirect.confirmedAt ? "confirmed" : "waiting"}
    >
      {text}
    </p>
  );
}

/**
 * redirect/{uid} (DESIGN §7): hands a radio over to another management server. The address is
 * chosen here; the radio is told at its next check-in (`redirect`), confirms at the one after
 * (`redirectAccepted`); until then the hand-over can be cancelled. Plain forms, with or without
 * JavaScript; every step is an activity entry (the procedures write them).
 */
function HandOver({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const { frame, uid, redirect, active } = data;
  const here = deviceHref(frame, "redirect", uid);
  const values = form?.values ?? {};
  const error = (field: string) => (form?.errors[field] ? String(t(form.errors[field])) : undefined);
  const open = active && !redirect?.confirmedAt;
  return (
    <DeviceFrame
      account={data.account}
      title={String(t("routes.redirectDevice"))}
      description={
        <a href={deviceHref(frame, "view", uid)} className="font-mono font-medium text-brand-700 hover:underline">
          {uid}
        </a>
      }
    >
      <div className="max-w-2xl space-y-4">
        <p className="text-sm text-slate-700">{t("devices.handOver.lead")}</p>
        <HandOverState data={data} />
        <a href={here} className="text-sm font-medium text-brand-700 hover:underline">
          {t("devices.handOver.refresh")}
        </a>
        <FormAlert message={error("form")} />
        {!active && <p className="text-sm text-slate-700">{t("devices.errors.retired")}</p>}
        {open && (
          <form method="post" action={here} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" noValidate>
            <input type="hidden" name="do" value="request" />
            <Field
              label={String(t("devices.handOver.url"))}
              hint={String(t("devices.handOver.urlHint"))}
              name="url"
              type="url"
              inputMode="url"
              autoComplete="off"
              maxLength={HAND_OVER_MAX}
              placeholder="https://"
              defaultValue={values.url ?? redirect?.url ?? ""}
              error={error("url")}
            />
            <Button type="submit">{t(redirect ? "devices.handOver.change" : "devices.handOver.submit")}</Button>
          </form>
        )}
        {redirect && !redirect.confirmedAt && (
          <form method="post" action={here}>
            <input type="hidden" name="do" value="cancel" />
            <Button type="submit" variant="danger" size="sm">
              {t("devices.handOver.cancel")}
            </Button>
          </form>
        )}
      </div>
    </DeviceFrame>
  );
}

function frameOf(c: RouteContext, account: boolean): Frame {
  return { accountId: account ? (c.req.param("accountId") ?? "") : null };
}

function actionOf(account: boolean) {
  return async (c: RouteContext): Promise<ActionResult> => {
    const frame = frameOf(c, account);
    const uid = c.req.param("uid") ?? "";
    const posted = await postedValues(c);
    const scope = { uid, ...(frame.accountId ? { accountId: frame.accountId } : {}) };
    const here = deviceHref(frame, "redirect", uid);
    try {
      if (posted.do === "cancel") {
        await api(c).deviceRedirects.cancel(scope);
        return { ok: true, redirect: here, flash: { type: "success", key: "devices.handOver.cancelled" } };
      }
      await api(c).deviceRedirects.request({ ...scope, url: (posted.url ?? "").slice(0, HAND_OVER_MAX * 2) });
      return { ok: true, redirect: here, flash: { type: "success", key: "devices.handOver.requested" } };
    } catch (error) {
      // A refusal shows on the page with what was typed (a 4xx); another tenant's uid is the not-found screen.
      if (error instanceof TRPCError) return formRefusal(error, { url: posted.url ?? "" }, { fields: ["url"] });
      throw error;
    }
  };
}

function redirectPage(account: boolean) {
  return definePage<Data>({
    load: async (c: RouteContext) => {
      const frame = frameOf(c, account);
      const uid = c.req.param("uid") ?? "";
      // The radio must be one the user may see (another tenant's uid is the not-found screen).
      const [acc, got] = await Promise.all([
        frame.accountId ? accountDetails(c, frame.accountId) : Promise.resolve(null),
        api(c).deviceRedirects.get({ uid, ...(frame.accountId ? { accountId: frame.accountId } : {}) }),
      ]);
      return {
        frame,
        account: acc,
        uid: got.device.uid,
        active: got.device.status === "active",
        redirect: got.redirect,
        // Inside an account its zone; the organization's inventory shows UTC (and says so).
        timeZone: acc?.timezone ?? "UTC",
      };
    },
    Component: HandOver,
    action: actionOf(account),
  });
}

export const redirectDevicePage = redirectPage(false);
export const registryRedirectDevicePage = redirectPage(true);
