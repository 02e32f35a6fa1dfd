import { TRPCError } from "@trpc/server";
import { api, apiContext } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import { findPackage } from "@/server/data/firmware-packages";
import {
  type FormFields,
  FormTooLarge,
  FormUnreadable,
  multipartBoundary,
  partedSink,
  readUploadForm,
} from "@/server/firmware/form-upload";
import { PART_BYTES, storePart } from "@/server/firmware/uploads";
import { usePage } from "@/server/render/page-context";
import { TextareaField } from "@/ui/field";
import { PlainScript } from "@/ui/plain-script";
import { PostForm, refusedForm, TextInput, useMessage } from "../devices/forms";
import { DeviceFrame } from "../devices/frame";
import type { Frame } from "../devices/paths";
import { type ActionResult, definePage, type FormState, type PageProps, type RouteContext } from "../types";
import { firmwareHref, firmwarePackageHref, frameOf, uploadFirmwareHref } from "./paths";

/**
 * The largest file the form takes without JavaScript: the Worker reads the whole request, and
 * Workers refuse requests over 100 MB (the plan's limit), so 90 MB leaves room for the form.
 * With JavaScript the page sends the file in parts of 8 MiB, up to 512 MB.
 */
export const FORM_UPLOAD_MAX_BYTES = 90 * 1000 * 1000;

type Data = { frame: Frame; account: AccountDetails | null; models: string[] };
const fieldNames = ["version", "models", "notes", "file"] as const;

function ModelChoices({ models, chosen, error }: { models: string[]; chosen: string[]; error?: string }) {
  const { t } = usePage();
  return (
    <fieldset className="flex min-w-0 flex-col gap-2 rounded-lg border border-slate-200 p-4" aria-describedby="models-hint">
      <legend className="px-1 text-sm font-semibold text-slate-900">{t("firmware.fields.models")}</legend>
      <p id="models-hint" className="text-sm text-slate-600">
        {t("firmware.fields.modelsHint")}
      </p>
      {error ? (
        <p id="models-error" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      {models.map((model) => (
        <label key={model} className="flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" name="models" value={model} defaultChecked={chosen.includes(model)} className="size-4" />
          {model}
        </label>
      ))}
    </fieldset>
  );
}

/** The words the upload script says, as data attributes of its wrapper (the script has no translations of its own). */
export function uploadTexts(text: (key: string) => string): Record<`data-${string}`, string> {
  return {
    "data-text-label": text("firmware.progress.label"),
    "data-text-parts": text("firmware.progress.parts"),
    "data-text-starting": text("firmware.progress.starting"),
    "data-text-finishing": text("firmware.progress.finishing"),
    "data-text-retrying": text("firmware.progress.retrying"),
    "data-text-stopped": text("firmware.progress.stopped"),
    "data-text-resume": text("firmware.progress.resume"),
    "data-text-cancel": text("firmware.progress.cancel"),
    "data-text-other-file": text("firmware.resume.otherFile"),
    "data-text-network": text("identityForm.networkError"),
  };
}

function UploadForm({ data, form }: PageProps<Data>) {
  const { t, assets } = usePage();
  const message = useMessage();
  const { frame, account, models } = data;
  const text = (key: string) => String(t(key));
  const chosen = (form?.values.models ?? "").split("\n").filter(Boolean);
  const other = form?.values.otherModels ?? chosen.filter((m) => !models.includes(m)).join(", ");
  return (
    <DeviceFrame account={account} tab="firmware" title={text("routes.uploadFirmware")} description={t("firmware.lead")}>
      <div
        data-firmware-upload=""
        data-account-id={frame.accountId ?? ""}
        data-package-href={firmwarePackageHref(frame, "{id}")}
        {...uploadTexts(text)}
      >
        <PostForm action={uploadFirmwareHref(frame)} form={form} submit={text("firmware.submit")} encType="multipart/form-data">
          <TextInput
            form={form}
            name="version"
            label={text("firmware.fields.version")}
            hint={text("firmware.fields.versionHint")}
            value=""
            required
            maxLength={40}
          />
          <ModelChoices models={models} chosen={chosen} error={message(form?.errors.models)} />
          <TextInput
            form={form}
            name="otherModels"
            label={text("firmware.fields.otherModels")}
            hint={text("firmware.fields.otherModelsHint")}
            value={other}
            maxLength={600}
          />
          <TextareaField
            label={text("firmware.fields.notes")}
            name="notes"
            defaultValue={form?.values.notes ?? ""}
            error={message(form?.errors.notes)}
            maxLength={5000}
            rows={4}
          />
          <div className="flex min-w-0 flex-col gap-1">
            <label htmlFor="firmware-file" className="text-sm font-medium text-slate-800">
              {t("firmware.fields.file")}
            </label>
            <input
              id="firmware-file"
              type="file"
              name="file"
              required
              aria-describedby={form?.errors.file ? "firmware-file-hint firmware-file-error" : "firmware-file-hint"}
              aria-invalid={form?.errors.file ? true : undefined}
              className="block w-full min-w-0 text-sm text-slate-800"
            />
            <p id="firmware-file-hint" className="text-sm text-slate-600">
              {t("firmware.fields.fileHint")}
            </p>
            {form?.errors.file ? (
              <p id="firmware-file-error" className="text-sm font-medium text-red-700">
                {message(form.errors.file)}
              </p>
            ) : null}
          </div>
        </PostForm>
      </div>
      <p className="mt-4">
        <a href={firmwareHref(frame)} className="text-sm font-medium text-brand-700 hover:underline">
          {t("routes.firmwarePackages")}
        </a>
      </p>
      <PlainScript script={assets.plainScripts.firmwareUpload} />
    </DeviceFrame>
  );
}

/** The procedure's input from the posted fields: ticked models and the typed ones, comma-separated. */
function inputOf(fields: FormFields, accountId: string | undefined) {
  const one = (name: string) => fields.get(name)?.[0] ?? "";
  const typed = one("otherModels")
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean);
  return {
    accountId,
    version: one("version"),
    models: [...(fields.get("models") ?? []), ...typed],
    notes: one("notes"),
  };
}

function valuesOf(fields: FormFields): Record<string, string> {
  return {
    version: fields.get("version")?.[0] ?? "",
    models: (fields.get("models") ?? []).join("\n"),
    otherModels: fields.get("otherModels")?.[0] ?? "",
    notes: fields.get("notes")?.[0] ?? "",
  };
}

const refusal = (status: 400 | 413, key: string, values: Record<string, string> = {}, field = "file"): ActionResult => ({
  ok: false,
  status,
  form: { values, errors: { [field]: key } } satisfies FormState,
});

/**
 * The form posted without JavaScript: the fields, then the file read as it arrives and put into
 * R2 in parts of 8 MiB, then completed (hashed and signed) like an upload from the script. A
 * failure after the package was created deletes it again (its parts with it).
 */
async function uploadWithoutScript(c: RouteContext): Promise<ActionResult> {
  const accountId = c.req.param("accountId");
  const frame = frameOf(accountId);
  const boundary = multipartBoundary(c.req.header("Content-Type"));
  const body = c.req.raw.body;
  if (!boundary || !body) return refusal(400, "firmware.errors.noFile");
  if (Number(c.req.header("Content-Length")) > FORM_UPLOAD_MAX_BYTES) return refusal(413, "firmware.errors.formTooLarge");
  const user = c.get("user");
  if (!user) return refusal(400, "errors.signInFirst", {}, "form");
  const ctx = { ...apiContext(c), user };
  let values: Record<string, string> = {};
  let created: string | null = null;
  let sink: ReturnType<typeof partedSink> | null = null;
  try {
    const { fields, fileBytes } = await readUploadForm(body, boundary, FORM_UPLOAD_MAX_BYTES, async (fields) => {
      values = valuesOf(fields);
      const started = await api(c).firmware.create(inputOf(fields, accountId));
      created = started.id;
      const pkg = await findPackage(c.env.DB, started.id);
      if (!pkg) throw new Error("package gone after create");
      sink = partedSink(PART_BYTES, async (n, bytes) => {
        await storePart(ctx, pkg, n, bytes);
      });
      return sink;
    });
    values = valuesOf(fields);
    if (!created || !sink) return refusal(400, "firmware.errors.noFile", values);
    if (!fileBytes) {
      await api(c).firmware.delete({ id: created, accountId });
      return refusal(400, "firmware.errors.emptyFile", values);
    }
    await (sink as ReturnType<typeof partedSink>).close();
    const done = await api(c).firmware.complete({ id: created, accountId });
    return {
      ok: true,
      redirect: firmwarePackageHref(frame, done.id),
      flash: { type: "success", key: "firmware.created", values: { version: done.version } },
    };
  } catch (error) {
    if (created)
      await api(c)
        .firmware.delete({ id: created, accountId })
        .catch(() => undefined);
    if (error instanceof FormTooLarge) return refusal(413, "firmware.errors.formTooLarge", values);
    if (error instanceof TRPCError && error.code === "PAYLOAD_TOO_LARGE") return refusal(413, "firmware.errors.tooLarge", values);
    if (error instanceof FormUnreadable) return refusal(400, "errors.unreadableForm", values, "form");
    return refusedForm(error, values, fieldNames);
  }
}

async function loadForm(c: RouteContext): Promise<Data> {
  const accountId = c.req.param("accountId");
  const [account, options] = await Promise.all([
    accountId ? accountDetails(c, accountId) : Promise.resolve(null),
    api(c).firmware.models({ accountId }),
  ]);
  return { frame: frameOf(accountId), account, models: options.models };
}

/** …/firmware/new (manage-devices): the upload form; its script sends the file in parts, without it the server does. */
export const uploadFirmwarePage = definePage<Data>({ load: loadForm, Component: UploadForm, action: uploadWithoutScript });
