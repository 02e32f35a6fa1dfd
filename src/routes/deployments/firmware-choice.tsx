import { formatNumber } from "@/schema/format";
import { usePage } from "@/server/render/page-context";
import { SelectField } from "@/ui/field";
import { StatusMessage } from "@/ui/status-message";

/** A package the confirm page offers: ready, of the account's organization or one above it. */
export type PackageChoice = { id: string; version: string; models: string[]; orgName: string };

/** What deployments.firmwareFit answers for the chosen package and target. */
export type FitSummaryData = {
  inTarget: number;
  fits: number;
  alreadyOnVersion: number;
  wrongModel: { model: string; count: number }[];
  /** What the fitting radios run now, with a package of that version when one may be installed. */
  running: { version: string; count: number; packageId: string | null }[];
};

/** The firmware deployment's own field: which package its radios install (the form posts kind=firmware). */
export function PackageField({
  packages,
  value,
  error,
  rollbackChoices,
  rollbackValue,
  rollbackError,
}: {
  packages: PackageChoice[];
  value: string;
  error: string | undefined;
  /** Once counted: the packages of the versions the fitting radios run now, which "roll back" may install. */
  rollbackChoices: { packageId: string; version: string; count: number }[];
  rollbackValue: string;
  rollbackError: string | undefined;
}) {
  const { t, language } = usePage();
  return (
    <fieldset className="space-y-2">
      <legend className="font-semibold text-slate-900">{t("firmwareDeployment.packageLegend")}</legend>
      <input type="hidden" name="kind" value="firmware" />
      {packages.length === 0 ? (
        <p className="text-sm text-slate-700" data-slot="no-packages">
          {t("firmwareDeployment.noPackages")}
        </p>
      ) : (
        <SelectField
          label={String(t("firmwareDeployment.packageLabel"))}
          name="packageId"
          defaultValue={value}
          error={error}
          hint={String(t("firmwareDeployment.packageHint"))}
          options={[
            { value: "", label: String(t("firmwareDeployment.choosePackage")) },
            ...packages.map((pkg) => ({
              value: pkg.id,
              label: String(
                t("firmwareDeployment.packageOption", { version: pkg.version, models: pkg.models.join(", "), org: pkg.orgName }),
              ),
            })),
          ]}
        />
      )}
      {rollbackChoices.length > 0 ? (
        <SelectField
          label={String(t("firmwareDeployment.rollbackLabel"))}
          name="rollbackPackageId"
          defaultValue={rollbackValue}
          error={rollbackError}
          hint={String(t("firmwareDeployment.rollbackHint"))}
          options={[
            { value: "", label: String(t("firmwareDeployment.rollbackDefault")) },
            ...rollbackChoices.map((choice) => ({
              value: choice.packageId,
              label: String(
                t("firmwareDeployment.rollbackOption", {
                  version: choice.version,
                  formatted: formatNumber(language, choice.count),
                }),
              ),
            })),
          ]}
        />
      ) : rollbackError ? (
        // A rollback package refused after the choices are gone (not counted again): said all the same.
        <p role="alert" className="text-sm text-red-700">
          {rollbackError}
        </p>
      ) : null}
    </fieldset>
  );
}

/**
 * Before confirming: how many radios the target holds, how many the package fits, how many run
 * it already, and which models are left out (and how many of each).
 */
export function FitSummary({ fit, version }: { fit: FitSummaryData; version: string }) {
  const { t, language } = usePage();
  const n = (value: number) => formatNumber(language, value);
  return (
    <StatusMessage tone="info">
      <span data-slot="firmware-fit">
        {t("firmwareDeployment.fit", { fits: n(fit.fits), inTarget: n(fit.inTarget) })}{" "}
        {t("firmwareDeployment.alreadyOnVersion", { formatted: n(fit.alreadyOnVersion), version })}
      </span>
      {fit.wrongModel.length > 0 ? (
        <span className="mt-1 block" data-slot="wrong-model">
          {t("firmwareDeployment.wrongModel", {
            models: fit.wrongModel.map((entry) => `${entry.model} (${n(entry.count)})`).join(", "),
          })}
        </span>
      ) : null}
    </StatusMessage>
  );
}
