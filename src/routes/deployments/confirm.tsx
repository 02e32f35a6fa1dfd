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
import { FitSummary, type FitSummaryData, type PackageChoice, PackageField } from "./firmware-choice";
import { changesHref, confirmDeploymentHref, deploymentHref, deploymentsHref, firmwareDeploymentHref } from "./paths";
import { parsePlanForm, planDefaults, planFields } from "./plan-form";
import { requestKey } from "./request-key";
import { sampleLines } from "./sample-lines";
import { targetConditionFields, targetDefaults, targetFields, targetOfFields } from "./target-form";

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
  groups: { id: string; name: string }[];
  places: { siteId: string; locationId: string | null; label: string }[];
};
type Data = {
  account: AccountDetails;
  preview: Preview;
  phaseSizes: number[];
  /** With a target named in the address (?group=…): how many radios it holds, and the fields it fills. */
  targetTotal: string | null;
  values: Record<string, string> | null;
  /** ?kind=firmware: a firmware deployment, of one of these packages. */
  firmware: { packages: PackageChoice[] } | null;
};

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
function PhaseSizes({ sizes, total }: { sizes: number[]; total: number | null }) {
  const { t, language } = usePage();
  return (
    <div className="space-y-2" data-slot="phase-sizes">
      {total !== null && (
        <p className="text-sm text-slate-900" data-slot="target-total">
          {t("confirmDeployment.targetTotal", { formatted: formatNumber(language, total) })}
        </p>
      )}
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

/**
 * Which radios: a saved group, a place, a model, a firmware and a tag, each narrowing (none:
 * every radio). Plain fields, so it works without JavaScript; "count" shows what it holds.
 */
function TargetFields({
  preview,
  values,
  error,
}: {
  preview: Preview;
  values: Record<string, string>;
  error: (field: string) => string | undefined;
}) {
  const { t } = usePage();
  const any = { value: "", label: String(t("confirmDeployment.anyRadio")) };
  return (
    <fieldset className="space-y-2">
      <legend className="font-semibold text-slate-900">{t("confirmDeployment.radios")}</legend>
      <p className="text-sm text-slate-700">{t("confirmDeployment.radiosHint")}</p>
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label={String(t("confirmDeployment.targetGroup"))}
          name="targetGroup"
          defaultValue={values.targetGroup}
          error={error("groupId")}
          options={[any, ...preview.groups.map((group) => ({ value: group.id, label: group.name }))]}
        />
        <SelectField
          label={String(t("confirmDeployment.targetPlace"))}
          name="targetPlace"
          defaultValue={values.targetPlace}
          error={error("siteId") ?? error("locationId")}
          options={[
            any,
            ...preview.places.map((option) => ({
              value: option.locationId ? `${option.siteId}/${option.locationId}` : option.siteId,
              label: option.label,
            })),
          ]}
        />
        <Field
          label={String(t("confirmDeployment.targetModel"))}
          name="targetModel"
          defaultValue={values.targetModel}
          error={error("model")}
        />
        <Field
          label={String(t("confirmDeployment.targetFirmware"))}
          name="targetFirmware"
          defaultValue={values.targetFirmware}
          error={error("firmware")}
        />
        <Field
          label={String(t("confirmDeployment.targetTag"))}
          name="targetTag"
          defaultValue={values.targetTag}
          error={error("tag")}
        />
      </div>
    </fieldset>
  );
}

/** After a "count" post: the versions the fitting radios run that a package exists for (roll back's choices). */
function rollbackChoicesOf(values: Record<string, string>): { packageId: string; version: string; count: number }[] {
  if (!values.fit) return [];
  const fit = JSON.parse(values.fit) as FitSummaryData;
  return fit.running.flatMap((entry) =>
    entry.packageId && entry.packageId !== values.packageId
      ? [{ packageId: entry.packageId, version: entry.version, count: entry.count }]
      : [],
  );
}

function PlanForm({
  accountId,
  timeZone,
  nextNumber,
  form,
  sizes,
  total,
  preview,
  packages = null,
}: {
  accountId: string;
  timeZone: string;
  nextNumber: number;
  form?: PageProps<Data>["form"];
  sizes: number[] | null;
  total: number | null;
  preview: Preview;
  /** A firmware deployment: the packages to choose from (null: a configuration deployment). */
  packages?: PackageChoice[] | null;
}) {
  const { t, language } = usePage();
  // Times are typed on the account's wall clock, and the labels say which one.
  const zone = timeZoneLabel(language, timeZone);
  const values: Record<string, string> = { ...planDefaults, ...targetDefaults, ...form?.values };
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
      action={packages ? firmwareDeploymentHref(accountId) : confirmDeploymentHref(accountId)}
      className="space-y-5 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <FormAlert message={error("form")} />
      {/* One key per rendering: a double click, a retried post or a second tab's copy makes one deployment. */}
      <input type="hidden" name="idempotencyKey" value={form?.values.idempotencyKey || requestKey(nextNumber)} />
      {packages ? (
        <PackageField
          packages={packages}
          value={values.packageId ?? ""}
          error={error("packageId") ?? error("firmwarePackageId")}
          rollbackChoices={rollbackChoicesOf(values)}
          rollbackValue={values.rollbackPackageId ?? ""}
          rollbackError={error("rollbackPackageId")}
        />
      ) : null}
      <TargetFields preview={preview} values={values} error={error} />
      {packages ? (
        <Button type="submit" name="intent" value="count" variant="white">
          {t("firmwareDeployment.countFit")}
        </Button>
      ) : null}
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
        {sizes ? <PhaseSizes sizes={sizes} total={total} /> : null}
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
        <legend className="font-semibold text-slate-900">{t("confirmDeployment.pace")}</legend>
        <p className="text-sm text-slate-700">{t("confirmDeployment.paceHint")}</p>
        {radio("paceKind", "none", String(t("confirmDeployment.paceNone")))}
        {radio("paceKind", "fixed", String(t("confirmDeployment.paceFixed")))}
        {radio("paceKind", "exponential", String(t("confirmDeployment.paceExponential")))}
        {error("paceKind") && (
          <p role="alert" className="text-sm text-red-700">
            {error("paceKind")}
          </p>
        )}
        <div className="grid gap-3 sm:grid-cols-3">
          <Field
            label={String(t("confirmDeployment.pacePerMinute"))}
            name="pacePerMinute"
            inputMode="numeric"
            defaultValue={values.pacePerMinute}
            hint={String(t("confirmDeployment.pacePerMinuteHint"))}
            error={error("pacePerMinute")}
          />
          <Field
            label={String(t("confirmDeployment.paceStart"))}
            name="paceStart"
            inputMode="numeric"
            defaultValue={values.paceStart}
            error={error("paceStart")}
          />
          <Field
            label={String(t("confirmDeployment.paceFactor"))}
            name="paceFactor"
            inputMode="decimal"
            defaultValue={values.paceFactor}
            hint={String(t("confirmDeployment.paceFactorHint"))}
            error={error("paceFactor")}
          />
        </div>
      </fieldset>
      <fieldset className="space-y-2">
        <legend className="font-semibold text-slate-900">{t("confirmDeployment.retries")}</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label={String(t("confirmDeployment.retryAttempts"))}
            name="retryAttempts"
            inputMode="numeric"
            defaultValue={values.retryAttempts}
            hint={String(t("confirmDeployment.retryAttemptsHint"))}
            error={error("retryAttempts")}
          />
          <Field
            label={String(t("confirmDeployment.retryBackoff"))}
            name="retryBackoffMinutes"
            inputMode="numeric"
            defaultValue={values.retryBackoffMinutes}
            hint={String(t("confirmDeployment.retryBackoffHint"))}
            error={error("retryBackoffMinutes")}
          />
        </div>
      </fieldset>
      {/* A switchover is when a configuration applies; firmware installs as the radio reports its stages. */}
      {packages ? null : (
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
      )}
      <TextareaField
        label={String(t("confirmDeployment.note"))}
        name="note"
        defaultValue={values.note}
        maxLength={500}
        error={error("note")}
      />
      <div className="flex flex-wrap gap-3">
        <Button type="submit">{t(packages ? "firmwareDeployment.deploy" : "confirmDeployment.deploy")}</Button>
        <ButtonLink href={packages ? deploymentsHref(accountId) : changesHref(accountId)} variant="white">
          {t(packages ? "firmwareDeployment.back" : "confirmDeployment.back")}
        </ButtonLink>
      </div>
    </form>
  );
}

/**
 * The firmware variant (?kind=firmware): which package, the same target, plan, pace and
 * approval; "count" shows how many of the target's radios the package fits, and why the others
 * are left out, before anything is confirmed.
 */
function ConfirmFirmwareDeployment({ data, form, packages }: PageProps<Data> & { packages: PackageChoice[] }) {
  const { t } = usePage();
  const { account, preview } = data;
  const values = form?.values ?? data.values ?? undefined;
  const fit = values?.fit ? (JSON.parse(values.fit) as FitSummaryData) : null;
  const chosen = packages.find((pkg) => pkg.id === values?.packageId);
  return (
    <AccountLayout account={account}>
      <PageHeader title={String(t("firmwareDeployment.title"))} description={t("firmwareDeployment.lead")} />
      <div className="space-y-6">
        {account.approvalRequired && (
          <StatusMessage tone="info">
            {t("confirmDeployment.needsApproval", { hours: account.approvalExpiryHours })}
          </StatusMessage>
        )}
        {fit && chosen ? <FitSummary fit={fit} version={chosen.version} /> : null}
        <PlanForm
          accountId={account._id}
          timeZone={account.timezone}
          nextNumber={preview.nextNumber}
          form={form ?? (data.values ? { values: data.values, errors: {} } : undefined)}
          sizes={values?.phaseSizes ? (JSON.parse(values.phaseSizes) as number[]) : null}
          total={null}
          preview={preview}
          packages={packages}
        />
      </div>
    </AccountLayout>
  );
}

function ConfirmDeployment(props: PageProps<Data>) {
  return props.data.firmware ? (
    <ConfirmFirmwareDeployment {...props} packages={props.data.firmware.packages} />
  ) : (
    <ConfirmConfigDeployment {...props} />
  );
}

function ConfirmConfigDeployment({ data, form }: PageProps<Data>) {
  const { t, language } = usePage();
  const { account, preview } = data;
  // A "count" post brings the sizes of the plan as typed; the first view, those of the default plan.
  const sizes = form ? (form.values.phaseSizes ? (JSON.parse(form.values.phaseSizes) as number[]) : null) : data.phaseSizes;
  const counted = form ? form.values.targetTotal : data.targetTotal;
  const total = counted === undefined || counted === "" || counted === null ? null : Number(counted);
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
        {account.approvalRequired && (
          <StatusMessage tone="info">
            {t("confirmDeployment.needsApproval", { hours: account.approvalExpiryHours })}
          </StatusMessage>
        )}
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
        <PlanForm
          accountId={account._id}
          timeZone={account.timezone}
          nextNumber={preview.nextNumber}
          form={form ?? (data.values ? { values: data.values, errors: {} } : undefined)}
          sizes={sizes}
          total={total}
          preview={preview}
        />
      </div>
    </AccountLayout>
  );
}

/** The fields a refusal may name: the plan's, and the target's conditions. */
const refusalFields = [...planFields, ...targetConditionFields];
const firmwareRefusalFields = [...refusalFields, "packageId", "firmwarePackageId", "rollbackPackageId"];

/** A firmware deployment's post: "count" answers the package's fit; otherwise it is confirmed. */
async function confirmFirmware(
  c: RouteContext,
  accountId: string,
  values: Record<string, string>,
  plan: Extract<ReturnType<typeof parsePlanForm>, { ok: true }>,
  intent: string | undefined,
): Promise<ActionResult> {
  const packageId = values.packageId ?? "";
  if (!packageId) {
    return { ok: false, status: 400, form: { values, errors: { packageId: "firmwareDeployment.packageRequired" } } };
  }
  const target = targetOfFields(values);
  // Another tenant's package (or one since deleted) is said on its field, like any refusal.
  const refused = (error: unknown) => formRefusal(error, values, { fields: firmwareRefusalFields, notFoundOnForm: true });
  if (intent === "count") {
    try {
      const shares = plan.plan.phases.map((phase) => phase.share);
      const [fit, sized] = await Promise.all([
        api(c).deployments.firmwareFit({ accountId, packageId, ...target }),
        api(c).deployments.firmwarePhaseSizes({ accountId, packageId, shares, ...target }),
      ]);
      const counted = { ...values, fit: JSON.stringify(fit), phaseSizes: JSON.stringify(sized.sizes) };
      return { ok: false, status: 200, form: { values: counted, errors: {} } };
    } catch (error) {
      return refused(error);
    }
  }
  try {
    const created = await api(c).deployments.create({
      accountId,
      plan: plan.plan,
      switchover: plan.switchover,
      note: plan.note,
      ...target,
      firmwarePackageId: packageId,
      ...(values.rollbackPackageId ? { rollbackPackageId: values.rollbackPackageId } : {}),
      ...(values.idempotencyKey ? { idempotencyKey: values.idempotencyKey } : {}),
    });
    return {
      ok: true,
      redirect: deploymentHref(accountId, created.id),
      flash: { type: "success", key: "deployments.created", values: { number: created.number } },
    };
  } catch (error) {
    return refused(error);
  }
}

async function confirm(c: RouteContext): Promise<ActionResult> {
  const accountId = c.req.param("accountId") ?? "";
  const posted = await postedValues(c);
  const firmware = posted.kind === "firmware" || c.req.query("kind") === "firmware";
  const values = Object.fromEntries(
    [...planFields, ...targetFields, "idempotencyKey", ...(firmware ? ["packageId", "rollbackPackageId"] : [])].map((field) => [
      field,
      posted[field] ?? "",
    ]),
  );
  // Firmware has no switchover: it installs as the radio goes through its stages.
  if (firmware)
    Object.assign(values, { switchover: "delivery", switchoverAt: "", maxDelayMinutes: planDefaults.maxDelayMinutes });
  const account = await accountDetails(c, accountId);
  const parsed = parsePlanForm(values, account.timezone);
  if (!parsed.ok) return { ok: false, status: 400, form: { values, errors: parsed.errors } };
  if (firmware) return confirmFirmware(c, accountId, values, parsed, posted.intent);
  const target = targetOfFields(values);
  if (posted.intent === "count") {
    const shares = parsed.plan.phases.map((phase) => phase.share);
    try {
      const { sizes, total } = await api(c).deployments.phaseSizes({ accountId, shares, ...target });
      const counted = { ...values, phaseSizes: JSON.stringify(sizes), targetTotal: String(total) };
      return { ok: false, status: 200, form: { values: counted, errors: {} } };
    } catch (error) {
      return formRefusal(error, values, { fields: refusalFields });
    }
  }
  try {
    const created = await api(c).deployments.create({
      accountId,
      plan: parsed.plan,
      switchover: parsed.switchover,
      note: parsed.note,
      ...target,
      ...(values.idempotencyKey ? { idempotencyKey: values.idempotencyKey } : {}),
    });
    return {
      ok: true,
      redirect: deploymentHref(accountId, created.id),
      flash: { type: "success", key: "deployments.created", values: { number: created.number } },
    };
  } catch (error) {
    return formRefusal(error, values, { fields: refusalFields });
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
    // "Deploy to this group" links here with ?group=…, the firmware report's "update these radios"
    // with ?firmware=…: the form opens with them chosen and counted.
    const group = (c.req.query("group") ?? "").slice(0, 64);
    const firmware = (c.req.query("firmware") ?? "").slice(0, 40);
    const values = group || firmware ? { ...targetDefaults, targetGroup: group, targetFirmware: firmware } : null;
    const target = values ? targetOfFields(values) : {};
    if (c.req.query("kind") === "firmware") {
      // The report's "update these radios" (?firmware=…) and a package's page (?package=…) open it chosen.
      const packageId = (c.req.query("package") ?? "").slice(0, 64);
      const [account, preview, listed] = await Promise.all([
        accountDetails(c, accountId),
        api(c).deployments.preview({ accountId }),
        api(c).deployments.firmwarePackages({ accountId }),
      ]);
      const packages = listed.items;
      const chosen = packages.some((pkg) => pkg.id === packageId) ? packageId : "";
      return {
        account,
        preview,
        phaseSizes: [],
        targetTotal: null,
        values:
          group || firmware || chosen
            ? { ...targetDefaults, targetGroup: group, targetFirmware: firmware, packageId: chosen }
            : null,
        firmware: { packages },
      };
    }
    const [account, preview, counted] = await Promise.all([
      accountDetails(c, accountId),
      api(c).deployments.preview({ accountId }),
      api(c)
        .deployments.phaseSizes({ accountId, shares, ...target })
        .catch(() => null),
    ]);
    // A group that is not this account's: the form opens for every radio.
    const sizes = counted ?? (await api(c).deployments.phaseSizes({ accountId, shares }));
    return {
      account,
      preview,
      phaseSizes: sizes.sizes,
      targetTotal: counted && values ? String(counted.total) : null,
      values: counted ? values : null,
      firmware: null,
    };
  },
  Component: ConfirmDeployment,
  action: confirm,
});
