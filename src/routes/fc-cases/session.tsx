import { CommandStateBadge } from "@/routes/commands/state-badge";
import { refusedForm, useMessage } from "@/routes/devices/forms";
import { postedValues } from "@/routes/settings/procedure-refusal";
import { type ActionResult, definePage, type FormState, type PageProps, type RouteContext } from "@/routes/types";
import { fcCommandTypes, fcPriorities, fcStatuses } from "@/schema/fc-cases";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { TimelineEntry } from "@/server/data/fc-sessions";
import { usePage } from "@/server/render/page-context";
import { Button } from "@/ui/button";
import { Field, FieldIdScope, SelectField, TextareaField } from "@/ui/field";
import { FormAlert } from "@/ui/form-alert";
import { FcFrame, PriorityBadge, StatusBadge, useChangeText, When } from "./frame";
import { fcCustomerHref, fcDeviceSettingsHref, fcSessionHref, fcSessionsHref } from "./paths";

type SessionData = Awaited<ReturnType<ReturnType<typeof api>["fcCases"]["getSession"]>>;
type Data = { account: AccountDetails } & SessionData;

function TimelineItem({ entry, timeZone }: { entry: TimelineEntry; timeZone: string }) {
  const { t } = usePage();
  const changeText = useChangeText();
  const command = entry.command;
  return (
    <li className="rounded-md border border-slate-200 bg-white p-3" data-timeline-kind={entry.kind}>
      <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
        <span className="font-semibold text-slate-900">{t(`fc.timeline.${entry.kind}`)}</span>
        <span>{entry.actorEmail}</span>
        <When at={entry.createdAt} timeZone={timeZone} />
      </p>
      {command ? (
        <p className="mt-1 flex flex-wrap items-center gap-2 text-sm" data-timeline-command={command.type}>
          <span>{t(`commands.types.${command.type}`)}</span>
          <span className="font-mono">{command.uid}</span>
          <CommandStateBadge state={command.state} />
          {command.detail ? <span className="text-slate-700">{command.detail}</span> : null}
        </p>
      ) : null}
      {entry.body && entry.kind !== "assignee" ? (
        <p className="mt-1 text-sm whitespace-pre-wrap text-slate-800">
          {entry.kind === "status" || entry.kind === "closed" ? changeText(entry.body) : entry.body}
        </p>
      ) : null}
      {entry.kind === "assignee" ? (
        <p className="mt-1 text-sm text-slate-800">{entry.body || String(t("fc.sessions.unassigned"))}</p>
      ) : null}
    </li>
  );
}

/** One form per radio: a command from the session (refused when the radio allows no remote support). */
function RadioCommandForm({ data, form }: { data: Data; form?: FormState }) {
  const { t, user } = usePage();
  const message = useMessage();
  // A radio's fc settings (remote support) are the fleet managers' (manage-devices), not the desk's.
  const canEditRadio = user?.permissions["manage-devices"] === true;
  const action = fcSessionHref(data.account._id, data.session.id);
  const mine = (uid: string) => form?.values.intent === "command" && form.values.uid === uid;
  return (
    <ul className="flex flex-col gap-3">
      {data.radios.map((radio) => (
        <li key={radio.uid} className="rounded-md border border-slate-200 bg-white p-3" data-session-radio={radio.uid}>
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-mono font-semibold">{radio.uid}</span>
            {radio.name ? <span>{radio.name}</span> : null}
            {canEditRadio ? (
              <a href={fcDeviceSettingsHref(radio.uid, data.account._id)} className="text-brand-700 hover:underline">
                {t("fc.device.link")}
              </a>
            ) : null}
            {!radio.remoteSupport ? <span className="font-semibold text-amber-800">{t("fc.device.remoteOff")}</span> : null}
          </p>
          {data.session.status === "closed" ? null : (
            <FieldIdScope value={`cmd-${radio.uid}-`}>
              <form method="post" action={action} className="mt-2 flex flex-wrap items-end gap-3">
                {mine(radio.uid) && form?.errors.form ? <FormAlert message={message(form.errors.form)} /> : null}
                <input type="hidden" name="intent" value="command" />
                <input type="hidden" name="uid" value={radio.uid} />
                <SelectField
                  label={String(t("fc.sessions.command"))}
                  name="type"
                  defaultValue={mine(radio.uid) ? form?.values.type : "locate"}
                  options={fcCommandTypes.map((type) => ({ value: type, label: String(t(`commands.types.${type}`)) }))}
                />
                <Field
                  label={String(t("fc.sessions.messageText"))}
                  name="text"
                  maxLength={140}
                  defaultValue={mine(radio.uid) ? form?.values.text : ""}
                  error={mine(radio.uid) ? message(form?.errors.text ?? form?.errors.uid) : undefined}
                />
                <Button type="submit" variant="secondary">
                  {t("fc.sessions.send")}
                </Button>
              </form>
            </FieldIdScope>
          )}
        </li>
      ))}
    </ul>
  );
}

function SessionPage({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const message = useMessage();
  const { account, session, timeline, employees } = data;
  const action = fcSessionHref(account._id, session.id);
  const updating = form?.values.intent === "update" ? form : undefined;
  const noting = form?.values.intent === "note" ? form : undefined;
  return (
    <FcFrame
      account={account}
      tab="list-fc-sessions"
      title={session.subject}
      description={
        <>
          <a href={fcSessionsHref(account._id)} className="font-medium text-brand-700 hover:underline">
            {t("routes.fcSessions")}
          </a>
          {" · "}
          {session.category}
        </>
      }
    >
      <dl className="grid gap-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium">{t("fc.fields.status")}</dt>
        <dd>
          <StatusBadge status={session.status} />
        </dd>
        <dt className="font-medium">{t("fc.fields.priority")}</dt>
        <dd>
          <PriorityBadge priority={session.priority} />
        </dd>
        <dt className="font-medium">{t("fc.fields.assignee")}</dt>
        <dd data-session-assignee>{session.assigneeName ?? String(t("fc.sessions.unassigned"))}</dd>
        <dt className="font-medium">{t("fc.fields.customer")}</dt>
        <dd>
          {session.customerId ? (
            <a href={fcCustomerHref(account._id, session.customerId)} className="text-brand-700 hover:underline">
              {session.customerName}
            </a>
          ) : (
            "—"
          )}
        </dd>
        <dt className="font-medium">{t("fc.fields.opened")}</dt>
        <dd>
          <When at={session.createdAt} timeZone={account.timezone} /> · {session.openedBy}
        </dd>
      </dl>

      <section aria-labelledby="fc-update">
        <h2 id="fc-update" className="mb-2 text-lg font-semibold text-slate-900">
          {t("fc.sessions.updateTitle")}
        </h2>
        <FieldIdScope value="upd-">
          <form method="post" action={action} className="flex flex-wrap items-end gap-3">
            {updating?.errors.form ? (
              <FormAlert
                message={message(updating.errors.form)}
                link={updating.errors.conflict ? { href: action, text: String(t("settings.reloadCurrent")) } : undefined}
              />
            ) : null}
            <input type="hidden" name="intent" value="update" />
            <input type="hidden" name="version" value={session.version} />
            <SelectField
              label={String(t("fc.fields.status"))}
              name="status"
              defaultValue={updating?.values.status ?? session.status}
              options={fcStatuses.map((s) => ({ value: s, label: String(t(`fc.status.${s}`)) }))}
            />
            <SelectField
              label={String(t("fc.fields.priority"))}
              name="priority"
              defaultValue={updating?.values.priority ?? session.priority}
              options={fcPriorities.map((p) => ({ value: p, label: String(t(`fc.priority.${p}`)) }))}
            />
            <SelectField
              label={String(t("fc.fields.assignee"))}
              name="assigneeId"
              defaultValue={updating?.values.assigneeId ?? session.assigneeId ?? ""}
              error={message(updating?.errors.assigneeId)}
              options={[
                { value: "", label: String(t("fc.sessions.unassigned")) },
                ...employees.map((e) => ({ value: e.id, label: `${e.name} (${e.email})` })),
              ]}
            />
            <Button type="submit">{t("fc.sessions.save")}</Button>
          </form>
        </FieldIdScope>
      </section>

      <section aria-labelledby="fc-radios">
        <h2 id="fc-radios" className="mb-2 text-lg font-semibold text-slate-900">
          {t("fc.sessions.radios")}
        </h2>
        <RadioCommandForm data={data} form={form} />
      </section>

      <section aria-labelledby="fc-timeline">
        <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
          <h2 id="fc-timeline" className="text-lg font-semibold text-slate-900">
            {t("fc.sessions.timeline")}
          </h2>
          <a href={action} className="text-sm font-medium text-brand-700 hover:underline">
            {t("fc.sessions.refresh")}
          </a>
        </div>
        <ol className="flex flex-col gap-2" data-timeline>
          {timeline.map((entry) => (
            <TimelineItem key={entry.id} entry={entry} timeZone={account.timezone} />
          ))}
        </ol>
        <FieldIdScope value="note-">
          <form method="post" action={action} className="mt-4 flex max-w-xl flex-col gap-3">
            <input type="hidden" name="intent" value="note" />
            <TextareaField
              label={String(t("fc.sessions.note"))}
              name="body"
              rows={3}
              maxLength={4000}
              defaultValue={noting?.values.body ?? ""}
              error={message(noting?.errors.body ?? noting?.errors.form)}
            />
            <div>
              <Button type="submit" variant="secondary">
                {t("fc.sessions.addNote")}
              </Button>
            </div>
          </form>
        </FieldIdScope>
      </section>
    </FcFrame>
  );
}

async function sessionAction(c: RouteContext): Promise<ActionResult> {
  const accountId = c.req.param("accountId") ?? "";
  const id = c.req.param("sessionId") ?? "";
  const values = await postedValues(c);
  const back = fcSessionHref(accountId, id);
  const caller = api(c).fcCases;
  try {
    if (values.intent === "note") {
      await caller.addNote({ accountId, id, body: values.body ?? "" });
      return { ok: true, redirect: back, flash: { type: "success", key: "fc.flash.noteAdded" } };
    }
    if (values.intent === "command") {
      const type = values.type ?? "";
      await caller.sendCommand({
        accountId,
        id,
        uid: values.uid ?? "",
        type: type as never,
        params: type === "message" ? { text: values.text ?? "" } : {},
      });
      return {
        ok: true,
        redirect: back,
        flash: { type: "success", key: "fc.flash.commandSent", values: { uid: values.uid ?? "" } },
      };
    }
    await caller.updateSession({
      accountId,
      id,
      version: Number(values.version ?? 0) || 0,
      status: (values.status ?? "") as never,
      priority: (values.priority ?? "") as never,
      assigneeId: values.assigneeId ? values.assigneeId : null,
    });
    return { ok: true, redirect: back, flash: { type: "success", key: "fc.flash.sessionSaved" } };
  } catch (error) {
    const result = refusedForm(error, values, ["body", "text", "uid", "type", "status", "priority", "assigneeId"]);
    if (!result.ok && result.form.errors.form === "errors.staleEdit") result.form.errors.conflict = "settings.reloadCurrent";
    return result;
  }
}

/** /accounts/:accountId/fc-cases/list-fc-sessions/:sessionId: where an agent works a case. */
export const fcSessionPage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const id = c.req.param("sessionId") ?? "";
    const [account, session] = await Promise.all([accountDetails(c, accountId), api(c).fcCases.getSession({ accountId, id })]);
    return { account, ...session };
  },
  Component: SessionPage,
  action: sessionAction,
  title: (data) => data.session.subject,
});
