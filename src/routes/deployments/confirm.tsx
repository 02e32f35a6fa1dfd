import type { ConfigDiffLine } from "@/schema/fleet/desired-config";
import { formatNumber, timeZoneLabel } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { ActivityEntry } from "@/server/data/activity-logs";
import { usePage } from "@/server/render/page-context";
import { ActivityEntryView, diffWords, textOf } from "@/ui/activity/activity-entry";
import { Button, ButtonLink } from "@/ui/button";
import { Field, SelectField, TextareaField } from "@/ui/field";
import { FormAlert } from "@/ui/form-alert";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { StatusMessage } from "@/ui/status-message";
import { formRefusal, postedValues } from "../settings/procedure-refusal";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { changesHref, confirmDeploymentHref, deploymentHref } from "./paths";
import { parsePlanForm, planDefaults, planFields } from "./plan-form";
import { requestKey } from "./request-key";
import { sampleLines } from "./sample-lines";

const CHANGES_SHOWN = 10;

type Preview = {
  changes: { items: ActivityEntry[]; count: number };
  targeted: number;
  samples: { uid: string; lines: ConfigDiffLine[] }[];
  /** The revision now deployed could not be read: no comparison, said plainly. */
  unreadable: boolean;
  /** The number this deployment will get (the form's idempotency key). */
  nextNumber: number;
  currentRevision: { number: number } | null;
};
type Data = { account: AccountDetails; preview: Preview; phaseSizes: number[] };

function SampleDiff({ uid, lines }: { uid: string; lines: ConfigDiffLine[] }) {
  const { t, language } = usePage();
  const text = textOf(t);
  return (
    <details className="rounded-md border border-slate-200 bg-white p-3" open={lines.length > 0 && lines.length < 12}>
      <summary className="cursor-pointer font-mono text-sm">
        {uid} —{" "}
        {lines.length === 0 ? t("confirmDeployment.noDifference") : t("confirmDeployment.differences", { count: lines.length })}
      </summary>
      {lines.length > 0 && (
        <table className="mt-2 w-full text-left text-xs">
          <caption className="sr-only">{t("confirmDeployment.diffCaption", { uid })}</caption>
          <thead>
            <tr>
              <th scope="col" className="py-1 pr-2">
                {t("confirmDeployment.setting")}
              </th>
              <th scope="col" className="py-1 pr-2">
                {t("confirmDeployment.before")}
              </th>
              <th scope="col" className="py-1">
                {t("confirmDeployment.after")}
              </th>
            </tr>
          </thead>
          <tbody>
            {sampleLines(lines, diffWords(text, language), text).map((line) => (
              <tr key={line.field} className="border-t border-slate-100 align-top">
                <td className="py-1 pr-2">{line.field}</td>
                <td className="py-1 pr-2 break-all text-red-800">{line.before ?? "—"}</td>
                <td className="py-1 break-all text-green-800">{line.after ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}

/** How many radios each phase holds, for the plan as submitted (a "count" post) or the default plan. */
function PhaseSizes({ sizes }: { sizes: number[] }) {
  const { t, language } = usePage();
  return (
    <div className="space-y-2" data-slot="phase-sizes">
      <p className="text-sm font-medium text-slate-900">{t("confirmDeployment.phaseSizes")}</p>
      <ol className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
        {sizes.map((size, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: phases are positional
          <li key={i}>
            {t("confirmDeployment.phaseSize", { count: size, phase: i + 1, formatted: formatNumber(language, size) })}
          </li>
        ))}
      </ol>
      <Button type="submit" name="intent" value="count" variant="white">
        {t("confirmDeployment.showPhaseSizes")}
      </Button>
    </div>
  );
}

function PlanForm({
  accountId,
  timeZone,
  nextNumber,
  form,
  sizes,
}: {
  accountId: string;
  timeZone: string;
  nextNumber: number;
  form?: PageProps<Data>["form"];
  sizes: number[] | null;
}) {
  const { t, language } = usePage();
  // Times are typed on the account's wall clock, and the labels say which one.
  const zone = timeZoneLabel(language, timeZone);
  const values = { ...planDefaults, ...form?.values };
  const error = (field: string) => (form?.errors[field] ? String(t(form.errors[field])) : undefined);
  const radio = (name: string, value: string, label: string) => (
    <label className="flex items-center gap-2 text-sm">
      <input type="radio" name={name} value={value} defaultChecked={values[name] === value} />
      {label}
    </label>
  );
  return (
    <form
      method="post"
      action={confirmDeploymentHref(accountId)}
      className="space-y-5 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <FormAlert message={error("form")} />
      {/* One key per rendering: a double click, a retried post or a second tab's copy makes one deployment. */}
      <input type="hidden" name="idempotencyKey" value={form?.values.idempotencyKey || requestKey(nextNumber)} />
      <fieldset className="space-y-2">
        <legend className="font-semibold text-slate-900">{t("confirmDeployment.plan")}</legend>
        {radio("planKind", "all", String(t("confirmDeployment.allAtOnce")))}
        {radio("planKind", "phases", String(t("confirmDeployment.inPhases")))}
        {error("planKind") && (
          <p role="alert" className="text-sm text-red-700">
            {error("planKind")}
          </p>
        )}
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label={String(t("confirmDeployment.shares"))}
            name="shares"
            defaultValue={values.shares}
            hint={String(t("confirmDeployment.sharesHint"))}
            error={error("shares")}
          />
          <Field
            label={String(t("confirmDeployment.waitMinutes"))}
            name="waitMinutes"
            inputMode="numeric"
            defaultValue={values.waitMinutes}
            hint={String(t("confirmDeployment.waitHint"))}
            error={error("waitMinutes")}
          />
          <Field
            label={String(t("confirmDeployment.successPercent"))}
            name="successPercent"
            inputMode="numeric"
            defaultValue={values.successPercent}
            error={error("successPercent")}
          />
          <SelectField
            label={String(t("confirmDeployment.successAction"))}
            name="successAction"
            defaultValue={values.successAction}
            options={[
              { value: "next", label: String(t("confirmDeployment.successNext")) },
              { value: "pause", label: String(t("confirmDeployment.successPause")) },
            ]}
          />
          <SelectField
            label={String(t("confirmDeployment.errorKind"))}
            name="errorKind"
            defaultValue={values.errorKind}
            options={[
              { value: "percent", label: String(t("confirmDeployment.errorPercent")) },
              { value: "count", label: String(t("confirmDeployment.errorCount")) },
            ]}
          />
          <Field
            label={String(t("confirmDeployment.errorValue"))}
            name="errorValue"
            inputMode="numeric"
            defaultValue={values.errorValue}
            error={error("errorValue")}
          />
          <Field
            label={String(t("confirmDeployment.errorMinimum"))}
            name="errorMinimum"
            inputMode="numeric"
            defaultValue={values.errorMinimum}
            hint={String(t("confirmDeployment.errorMinimumHint"))}
            error={error("errorMinimum")}
          />
          <Field
            label={String(t("confirmDeployment.successPerPhase"))}
            name="successPerPhase"
            defaultValue={values.successPerPhase}
            hint={String(t("confirmDeployment.perPhaseHint"))}
            error={error("successPerPhase")}
          />
          <Field
            label={String(t("confirmDeployment.errorPerPhase"))}
            name="errorPerPhase"
            defaultValue={values.errorPerPhase}
            hint={String(t("confirmDeployment.perPhaseHint"))}
            error={error("errorPerPhase")}
          />
        </div>
        {sizes ? <PhaseSizes sizes={sizes} /> : null}
      </fieldset>
      <fieldset className="space-y-2">
        <legend className="font-semibold text-slate-900">{t("confirmDeployment.timing")}</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label={String(t("confirmDeployment.startAt", { zone }))}
            name="startAt"
            type="datetime-local"
            defaultValue={values.startAt}
            hint={String(t("confirmDeployment.startAtHint"))}
            error={error("startAt")}
          />
          <Field
            label={String(t("confirmDeployment.timeoutMinutes"))}
            name="timeoutMinutes"
            inputMode="numeric"
            defaultValue={values.timeoutMinutes}
            hint={String(t("confirmDeployment.timeoutHint"))}
            error={error("timeoutMinutes")}
          />
        </div>
      </fieldset>
      <fieldset className="space-y-2">
        <legend className="font-semibold text-slate-900">{t("confirmDeployment.switchover")}</legend>
        {radio("switchover", "delivery", String(t("confirmDeployment.onDelivery")))}
        {radio("switchover", "at", String(t("confirmDeployment.atTime")))}
        {radio("switchover", "user-delay", String(t("confirmDeployment.userDelay")))}
        {error("switchover") && (
          <p role="alert" className="text-sm text-red-700">
            {error("switchover")}
          </p>
        )}
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label={String(t("confirmDeployment.switchoverAt", { zone }))}
            name="switchoverAt"
            type="datetime-local"
            defaultValue={values.switchoverAt}
            error={error("switchoverAt")}
          />
          <Field
            label={String(t("confirmDeployment.maxDelay"))}
            name="maxDelayMinutes"
            inputMode="numeric"
            defaultValue={values.maxDelayMinutes}
            error={error("maxDelayMinutes")}
          />
        </div>
      </fieldset>
      <TextareaField
        label={String(t("confirmDeployment.note"))}
        name="note"
        defaultValue={values.note}
        maxLength={500}
        error={error("note")}
      />
      <div className="flex flex-wrap gap-3">
        <Button type="submit">{t("confirmDeployment.deploy")}</Button>
        <ButtonLink href={changesHref(accountId)} variant="white">
          {t("confirmDeployment.back")}
        </ButtonLink>
      </div>
    </form>
  );
}

function ConfirmDeployment({ data, form }: PageProps<Data>) {
  const { t, language } = usePage();
  const { account, preview } = data;
  // A "count" post brings the sizes of the plan as typed; the first view, those of the default plan.
  const sizes = form ? (form.values.phaseSizes ? (JSON.parse(form.values.phaseSizes) as number[]) : null) : data.phaseSizes;
  const text = textOf(t);
  return (
    <AccountLayout account={account}>
      <PageHeader title={String(t("routes.confirmDeployment"))} description={t("confirmDeployment.lead")} />
      <div className="space-y-6">
        <StatusMessage tone="info">
          {t("confirmDeployment.targets", { count: preview.targeted, formatted: formatNumber(language, preview.targeted) })}
          {preview.currentRevision
            ? ` ${t("confirmDeployment.currentRevision", { number: preview.currentRevision.number })}`
            : ""}
        </StatusMessage>
        <section aria-labelledby="pending-heading">
          <h2 id="pending-heading" className="mb-2 text-lg font-semibold">
            {t("confirmDeployment.pendingChanges", { count: preview.changes.count })}
          </h2>
          {preview.changes.count === 0 ? (
            <p className="text-sm text-slate-700">{t("confirmDeployment.noPending")}</p>
          ) : (
            <ol className="space-y-3">
              {preview.changes.items.slice(0, CHANGES_SHOWN).map((entry) => (
                <ActivityEntryView key={entry.id} entry={entry} text={text} language={language} timeZone={account.timezone} />
              ))}
            </ol>
          )}
          {preview.changes.count > CHANGES_SHOWN && (
            <a className="mt-2 inline-block text-sm text-brand-700 hover:underline" href={changesHref(account._id)}>
              {t("confirmDeployment.allChanges", { count: preview.changes.count })}
            </a>
          )}
        </section>
        <section aria-labelledby="sample-heading">
          <h2 id="sample-heading" className="mb-2 text-lg font-semibold">
            {t("confirmDeployment.sampleHeading")}
          </h2>
          {preview.unreadable ? (
            <p className="text-sm text-slate-700" data-slot="preview-unreadable">
              {t("confirmDeployment.unreadable", { number: preview.currentRevision?.number ?? "" })}
            </p>
          ) : preview.samples.length === 0 ? (
            <p className="text-sm text-slate-700">{t("confirmDeployment.noRadios")}</p>
          ) : (
            <div className="space-y-2">
              {preview.samples.map((sample) => (
                <SampleDiff key={sample.uid} uid={sample.uid} lines={sample.lines} />
              ))}
            </div>
          )}
        </section>
        <PlanForm accountId={account._id} timeZone={account.timezone} nextNumber={preview.nextNumber} form={form} sizes={sizes} />
      </div>
    </AccountLayout>
  );
}

async function confirm(c: RouteContext): Promise<ActionResult> {
  const accountId = c.req.param("accountId") ?? "";
  const posted = await postedValues(c);
  const values = Object.fromEntries([...planFields, "idempotencyKey"].map((field) => [field, posted[field] ?? ""]));
  const account = await accountDetails(c, accountId);
  const parsed = parsePlanForm(values, account.timezone);
  if (!parsed.ok) return { ok: false, status: 400, form: { values, errors: parsed.errors } };
  if (posted.intent === "count") {
    const shares = parsed.plan.phases.map((phase) => phase.share);
    try {
      const { sizes } = await api(c).deployments.phaseSizes({ accountId, shares });
      return { ok: false, status: 200, form: { values: { ...values, phaseSizes: JSON.stringify(sizes) }, errors: {} } };
    } catch (error) {
      return formRefusal(error, values, { fields: planFields });
    }
  }
  try {
    const created = await api(c).deployments.create({
      accountId,
      plan: parsed.plan,
      switchover: parsed.switchover,
      note: parsed.note,
      ...(values.idempotencyKey ? { idempotencyKey: values.idempotencyKey } : {}),
    });
    return {
      ok: true,
      redirect: deploymentHref(accountId, created.id),
      flash: { type: "success", key: "deployments.created", values: { number: created.number } },
    };
  } catch (error) {
    return formRefusal(error, values, { fields: planFields });
  }
}

/** The phases of the form's default plan. */
function defaultShares(): number[] {
  const parsed = parsePlanForm(planDefaults, "UTC");
  return parsed.ok ? parsed.plan.phases.map((phase) => phase.share) : [100];
}

/** /accounts/{accountId}/confirm-deployment (create-deployments): what goes out, to how many radios, and how. */
export const confirmDeploymentPage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const shares = defaultShares();
    const [account, preview, { sizes }] = await Promise.all([
      accountDetails(c, accountId),
      api(c).deployments.preview({ accountId }),
      api(c).deployments.phaseSizes({ accountId, shares }),
    ]);
    return { account, preview, phaseSizes: sizes };
  },
  Component: ConfirmDeployment,
  action: confirm,
});
