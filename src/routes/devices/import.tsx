import { inert } from "@/schema/csv-cell";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import { translatorFor } from "@/server/i18n/i18n";
import { readForm, requestLimits } from "@/server/middleware/request-limits";
import { usePage } from "@/server/render/page-context";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { PostForm, refusedForm } from "./forms";
import { DeviceFrame } from "./frame";
import { devicesHref, type Frame, importHref } from "./paths";

type Data = { frame: Frame; account: AccountDetails | null };

type Outcome = Awaited<ReturnType<ReturnType<typeof api>["devices"]["importCsv"]>>;

/**
 * The outcome of a post travels in the form state: the dry run's problems (row, column,
 * message) or the import's counts and the new radios' secrets, shown on this answer only.
 */
function ImportDevices({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const { frame, account } = data;
  const text = (key: string, values: Record<string, unknown> = {}) => String(t(key, values));
  const outcome = form?.values.outcome ? (JSON.parse(form.values.outcome) as Outcome) : null;
  const csvText = form?.values.csv ?? "";
  return (
    <DeviceFrame
      account={account}
      title={text("routes.importDevices")}
      description={
        <>
          <a href={devicesHref(frame)} className="font-medium text-brand-700 hover:underline">
            {t(account ? "devices.registry.title" : "routes.devices")}
          </a>
          {" · "}
          {t("devices.import.lead")}
        </>
      }
    >
      {outcome && !outcome.imported ? (
        <section aria-labelledby="dry-run" className="mb-6 rounded-lg border border-slate-200 bg-white p-4" data-import-result>
          <h2 id="dry-run" className="text-lg font-semibold text-slate-900">
            {outcome.ok
              ? text("devices.import.readyTitle")
              : text("devices.import.problemsTitle", { count: outcome.problems.length + outcome.moreProblems })}
          </h2>
          {outcome.ok ? (
            <p className="text-sm">{text("devices.import.ready", { creates: outcome.creates, updates: outcome.updates })}</p>
          ) : (
            <table className="mt-2 min-w-full text-sm">
              <caption className="sr-only">{text("devices.import.problemsCaption")}</caption>
              <thead>
                <tr>
                  <th scope="col" className="pr-4 text-left">
                    {t("devices.import.row")}
                  </th>
                  <th scope="col" className="pr-4 text-left">
                    {t("devices.import.column")}
                  </th>
                  <th scope="col" className="text-left">
                    {t("devices.import.message")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {outcome.problems.map((p) => (
                  <tr key={`${p.row}-${p.column}-${p.message}`}>
                    <td className="pr-4">{p.row || "—"}</td>
                    <td className="pr-4 font-mono">{p.column}</td>
                    <td>{p.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ) : null}
      {outcome?.imported ? (
        <section
          aria-labelledby="imported"
          className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4"
          data-import-result
        >
          <h2 id="imported" className="text-lg font-semibold text-slate-900">
            {text("devices.import.doneTitle", { creates: outcome.creates, updates: outcome.updates })}
          </h2>
          {outcome.secrets.length ? (
            <>
              <p className="text-sm">{t("devices.import.secretsOnce")}</p>
              <label htmlFor="import-secrets" className="mt-2 block text-sm font-medium">
                {t("devices.import.secrets")}
              </label>
              <textarea
                id="import-secrets"
                readOnly
                rows={Math.min(10, outcome.secrets.length + 1)}
                className="mt-1 block w-full rounded-md border border-slate-300 font-mono text-xs"
                // A CSV to paste into a file: its cells are inert for spreadsheets like every CSV's (a uid may start with "-").
                defaultValue={["uid,secret", ...outcome.secrets.map((s) => `${inert(s.uid)},${inert(s.secret)}`)].join("\n")}
              />
            </>
          ) : null}
          <p className="mt-3 text-sm">
            <a href={devicesHref(frame)} className="font-medium text-brand-700 hover:underline">
              {t("devices.import.backToList")}
            </a>
          </p>
        </section>
      ) : null}
      {outcome?.imported ? null : (
        <PostForm
          action={importHref(frame)}
          form={form?.errors.form ? form : undefined}
          submit={text("devices.import.check")}
          encType="multipart/form-data"
        >
          <p className="text-sm text-slate-700">{t("devices.import.columns")}</p>
          <div className="flex flex-col gap-1">
            <label htmlFor="import-file" className="text-sm font-medium text-slate-800">
              {t("devices.import.file")}
            </label>
            <input id="import-file" name="file" type="file" accept=".csv,text/csv" className="text-sm" />
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor="import-csv" className="text-sm font-medium text-slate-800">
              {t("devices.import.paste")}
            </label>
            <textarea
              id="import-csv"
              name="csv"
              rows={6}
              defaultValue={csvText}
              className="block w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-xs"
            />
          </div>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="updateExisting" value="1" defaultChecked={form?.values.updateExisting === "1"} />
            {t("devices.import.updateExisting")}
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="commit" value="1" defaultChecked={outcome?.ok === true} />
            {t("devices.import.commit")}
          </label>
        </PostForm>
      )}
    </DeviceFrame>
  );
}

/** A refusal of the whole file, in the outcome's shape: shown in the problems table like the others. */
function fileRefused(c: RouteContext, key: string): Outcome {
  const t = translatorFor(c.get("language"), c.get("settings").brandNamespace);
  const problems = [{ row: 0, column: "file" as const, message: String(t(key)) }];
  return { ok: false, problems, moreProblems: 0, creates: 0, updates: 0, imported: false, secrets: [] };
}

/**
 * The form's post, read here within the import's own cap (request-limits.ts leaves it): every
 * refusal, a file too large among them, is this screen again with the file's text kept in the
 * box, so it can be mended and sent again.
 */
async function importAction(c: RouteContext, frame: Frame): Promise<ActionResult> {
  const read = await readForm(c, requestLimits.importBodyBytes);
  if ("refusal" in read) {
    const tooLarge = read.refusal.code === "PAYLOAD_TOO_LARGE";
    const outcome = fileRefused(c, tooLarge ? "devices.import.tooLarge" : read.refusal.key);
    return { ok: false, status: tooLarge ? 413 : 400, form: { values: { outcome: JSON.stringify(outcome) }, errors: {} } };
  }
  const file = read.form.get("file");
  const pasted = read.form.get("csv");
  const csv = file instanceof File && file.size > 0 ? await file.text() : typeof pasted === "string" ? pasted : "";
  const values = { csv, updateExisting: read.form.get("updateExisting") === "1" ? "1" : "" };
  try {
    const outcome = await api(c).devices.importCsv({
      ...(frame.accountId ? { accountId: frame.accountId } : {}),
      csv,
      updateExisting: values.updateExisting === "1",
      dryRun: read.form.get("commit") !== "1",
    });
    const status = outcome.ok ? 200 : 422;
    // Imported: the secrets are the answer; the file is not shown again.
    const kept = outcome.imported ? { updateExisting: values.updateExisting } : values;
    return { ok: false, status, form: { values: { ...kept, outcome: JSON.stringify(outcome) }, errors: {} } };
  } catch (error) {
    return refusedForm(error, values, []);
  }
}

async function loadImport(c: RouteContext, frame: Frame): Promise<Data> {
  return { frame, account: frame.accountId ? await accountDetails(c, frame.accountId) : null };
}

/** /devices/import (manage-devices): a CSV of radios, checked (dry run), then imported all or nothing. */
export const importDevicesPage = definePage<Data>({
  load: (c) => loadImport(c, { accountId: null }),
  Component: ImportDevices,
  action: (c) => importAction(c, { accountId: null }),
});

export const registryImportDevicesPage = definePage<Data>({
  load: (c) => loadImport(c, { accountId: c.req.param("accountId") ?? "" }),
  Component: ImportDevices,
  action: (c) => importAction(c, { accountId: c.req.param("accountId") ?? "" }),
});
