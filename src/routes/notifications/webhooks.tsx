import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { formatUtcMinute } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import type { Webhook } from "@/server/data/notifications";
import { type EventName, fleetEventNames } from "@/server/notifications/events";
import { usePage } from "@/server/render/page-context";
import { Button, ButtonLink } from "@/ui/button";
import { ErrorSummary } from "@/ui/error-summary";
import { Field } from "@/ui/field";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { type ActionResult, definePage, type FormState, type PageProps, type RouteContext } from "../types";
import { deleteWebhookHref, webhookDeliveriesHref, webhooksHref } from "./paths";

/**
 * /settings/organizations/webhooks/{orgId} (issue 25, docs/webhooks.md): the organization's
 * webhooks (edit-accounts) with their state, "send a test event", turning a disabled one on
 * again, and the add form. Its secret is on the answer to the add post only, never again:
 * not in a cookie, not in a redirect, so the page after it is the 200 answer, not a redirect.
 */

type Listed = Omit<Webhook, "secret">;
type Data = { orgId: string; orgName: string; webhooks: Listed[] };

/** What the add post answers with: the new webhook's secret, shown once. */
const CREATED = "__created";

function WebhookCard({ orgId, hook }: { orgId: string; hook: Listed }) {
  const { t, language } = usePage();
  const here = webhooksHref(orgId);
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <p className="font-mono break-all text-slate-900">{hook.url}</p>
      <p className="mt-1 text-slate-700">{hook.events.map((e) => String(t(`notifications.choices.${e}`))).join(" · ")}</p>
      <p className="mt-1" data-webhook-state={hook.enabled ? "on" : "off"}>
        {hook.enabled ? (
          <span className="font-medium text-green-800">{t("notifications.webhooks.on")}</span>
        ) : (
          <span className="font-medium text-red-800">
            {t("notifications.webhooks.off", { when: hook.disabledAt ? formatUtcMinute(language, hook.disabledAt) : "—" })}
          </span>
        )}
        {" · "}
        {t("notifications.webhooks.failures", { count: hook.consecutiveFailures })}
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        {hook.enabled ? (
          <form method="post" action={here}>
            <input type="hidden" name="do" value="test" />
            <input type="hidden" name="webhookId" value={hook.id} />
            <Button type="submit" variant="white" size="sm">
              {t("notifications.webhooks.sendTest")}
            </Button>
          </form>
        ) : (
          <form method="post" action={here}>
            <input type="hidden" name="do" value="enable" />
            <input type="hidden" name="webhookId" value={hook.id} />
            <Button type="submit" variant="white" size="sm">
              {t("notifications.webhooks.enable")}
            </Button>
          </form>
        )}
        <ButtonLink href={webhookDeliveriesHref(orgId, hook.id)} variant="white" size="sm">
          {t("notifications.webhooks.deliveries")}
        </ButtonLink>
        <ButtonLink href={deleteWebhookHref(orgId, hook.id)} variant="white" size="sm">
          {t("notifications.webhooks.delete")}
        </ButtonLink>
      </div>
    </li>
  );
}

function SecretOnce({ secret }: { secret: string }) {
  const { t } = usePage();
  return (
    <section
      role="status"
      aria-labelledby="secret-heading"
      className="mb-6 rounded-lg border-2 border-amber-400 bg-amber-50 p-4 text-sm"
    >
      <h2 id="secret-heading" className="font-semibold text-slate-900">
        {t("notifications.webhooks.secretHeading")}
      </h2>
      <p className="mt-2">
        <code data-webhook-secret className="block rounded bg-white px-2 py-1 font-mono break-all select-all">
          {secret}
        </code>
      </p>
      <p className="mt-2 font-medium text-slate-900">{t("notifications.webhooks.secretOnce")}</p>
    </section>
  );
}

function AddWebhook({ orgId, form }: { orgId: string; form: FormState | undefined }) {
  const { t } = usePage();
  const message = (key: string | undefined) => (key ? (key.includes(" ") ? key : String(t(key))) : undefined);
  const ticked = new Set((form?.values.events ?? "").split(",").filter(Boolean));
  const eventsError = message(form?.errors.events);
  return (
    <section aria-labelledby="add-heading" className="mt-8 max-w-xl">
      <h2 id="add-heading" className="mb-3 text-lg font-semibold text-slate-900">
        {t("notifications.webhooks.addHeading")}
      </h2>
      <form method="post" action={webhooksHref(orgId)} className="flex flex-col gap-4">
        {/* GOV.UK: after a refused post the summary takes the focus and links each message to its field. */}
        <ErrorSummary
          errors={Object.fromEntries(Object.entries(form?.errors ?? {}).map(([field, key]) => [field, message(key) ?? ""]))}
          texts={{ title: String(t("errorSummary.title")), titlePrefix: String(t("errorSummary.titlePrefix")) }}
          autoFocus
        />
        <input type="hidden" name="do" value="add" />
        <Field
          label={String(t("notifications.webhooks.url"))}
          name="url"
          type="url"
          inputMode="url"
          required
          maxLength={2000}
          autoComplete="off"
          defaultValue={form?.values.url ?? ""}
          hint={String(t("notifications.webhooks.urlHelp"))}
          error={message(form?.errors.url)}
        />
        <fieldset aria-describedby={eventsError ? "field-events-error" : undefined} id="field-events">
          <legend className="text-sm font-medium text-slate-900">{t("notifications.webhooks.events")}</legend>
          {eventsError && (
            <p id="field-events-error" className="text-sm font-medium text-red-700">
              {eventsError}
            </p>
          )}
          <ul className="mt-2 flex flex-col gap-2">
            {fleetEventNames.map((event) => (
              <li key={event}>
                <label className="flex items-start gap-2 text-sm text-slate-900">
                  <input
                    type="checkbox"
                    name="events"
                    value={event}
                    defaultChecked={ticked.has(event)}
                    className="mt-0.5 size-4 shrink-0"
                  />
                  <span>{t(`notifications.choices.${event}`)}</span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <div>
          <Button type="submit">{t("notifications.webhooks.add")}</Button>
        </div>
      </form>
    </section>
  );
}

function WebhooksPage({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const secret = form && Object.keys(form.errors).length === 0 ? form.values[CREATED] : undefined;
  return (
    <SettingsLayout current="organizations" title={String(t("routes.webhooks"))}>
      <p className="mb-4 max-w-2xl text-sm text-slate-700">{t("notifications.webhooks.lead", { organization: data.orgName })}</p>
      {secret && <SecretOnce secret={secret} />}
      {data.webhooks.length === 0 ? (
        <p className="text-sm text-slate-700">{t("notifications.webhooks.empty")}</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {data.webhooks.map((hook) => (
            <WebhookCard key={hook.id} orgId={data.orgId} hook={hook} />
          ))}
        </ul>
      )}
      <AddWebhook orgId={data.orgId} form={secret ? undefined : form} />
    </SettingsLayout>
  );
}

async function postedForm(c: RouteContext): Promise<{ one: (name: string) => string; events: string[] }> {
  const body = await c.req.parseBody({ all: true });
  const one = (name: string) => {
    const value = body[name];
    const first = Array.isArray(value) ? value[0] : value;
    return typeof first === "string" ? first : "";
  };
  const raw = body.events;
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return { one, events: list.filter((v): v is string => typeof v === "string").slice(0, 20) };
}

/** A refused add: zod messages on their fields, the URL rules' (translated already) on the URL. */
function refusedAdd(error: unknown, values: Record<string, string>): ActionResult {
  if (!(error instanceof TRPCError) || error.code !== "BAD_REQUEST") throw error;
  const errors: Record<string, string> = {};
  if (error.cause instanceof z.ZodError) {
    for (const issue of error.cause.issues) {
      const field = issue.path[0] === "url" || issue.path[0] === "events" ? issue.path[0] : "form";
      errors[field] ??= issue.message.startsWith("validation.") ? issue.message : "validation.Invalid";
    }
  } else {
    errors.url = error.message;
  }
  return { ok: false, status: 400, form: { values, errors } };
}

async function act(c: RouteContext): Promise<ActionResult> {
  const orgId = c.req.param("orgId") ?? "";
  const here = webhooksHref(orgId);
  const { one, events } = await postedForm(c);
  const webhookId = one("webhookId").slice(0, 64);
  const caller = api(c).notifications;
  switch (one("do")) {
    case "add": {
      // Only what the person typed goes back into the form: never a posted "secret".
      const values = { url: one("url"), events: events.join(",") };
      try {
        // The procedure checks each posted name against the events it knows.
        const added = await caller.addWebhook({ orgId, url: values.url, events: events as EventName[] });
        return { ok: false, status: 200, form: { values: { [CREATED]: added.secret }, errors: {} } };
      } catch (error) {
        return refusedAdd(error, values);
      }
    }
    case "test":
      try {
        await caller.sendTest({ id: webhookId });
      } catch (error) {
        // Turned off meanwhile: say so on the list rather than an error screen.
        if (error instanceof TRPCError && error.code === "CONFLICT") {
          return { ok: true, redirect: here, flash: { type: "error", key: "errors.webhookDisabled" } };
        }
        throw error;
      }
      return {
        ok: true,
        redirect: webhookDeliveriesHref(orgId, webhookId),
        flash: { type: "success", key: "notifications.webhooks.testSent" },
      };
    case "enable":
      await caller.enableWebhook({ id: webhookId });
      return { ok: true, redirect: here, flash: { type: "success", key: "notifications.webhooks.enabled" } };
    default:
      // Only a named action acts: anything else posted here changes nothing.
      return { ok: true, redirect: here };
  }
}

export const webhooksPage = definePage<Data>({
  load: async (c) => {
    const orgId = c.req.param("orgId") ?? "";
    const caller = api(c);
    const [organization, webhooks] = await Promise.all([
      caller.organizations.details({ id: orgId }),
      caller.notifications.webhooks({ orgId }),
    ]);
    return { orgId: organization.id, orgName: organization.name, webhooks };
  },
  Component: WebhooksPage,
  action: act,
});
